// What the store adds to every record, and the store's own record (meta). Part of the one data
// model (./model.ts re-exports it).
import type { JSONSchema } from 'json-schema-to-ts';
import type { Wire } from '../schemas/from-schema.js';

export const SCHEMA_VERSION = 3;

/** What the store adds to every record. */
export interface Stored {
  id: string;
  /**
   * The store-wide creation sequence: given by the store when the record is first put, never
   * changed after (a replacement keeps it). Newest first means highest seq first, whatever the
   * records' clocks say.
   */
  seq: number;
}

/** A record as written by its maker: the store gives it its `seq` (distributes over unions). */
export type New<T> = T extends Stored ? Omit<T, 'seq'> & { seq?: number } : never;

/**
 * A record declared by its JSON Schema (src/schemas/records.ts): the shape the schema describes,
 * plus the store's `seq`. Its view on the wire is that schema, so the record without `seq` is it.
 */
export type StoredAs<S extends JSONSchema> = Stored & Wire<S>;

export interface Meta {
  schemaVersion: number;
  /** HS256 secret for access tokens; generated once per store and kept across resets */
  signingSecret: string;
  /** sandbox clock = real clock + offset */
  clockOffsetMs: number;
  /** the last creation sequence number given to a record (Stored.seq) */
  seq: number;
  /**
   * The last token generation given to a principal (an account or a merchant, at creation and at each
   * change of its credentials); kept across resets like the signing secret, so that no principal made
   * again is ever given a generation an older token carries (docs/api.md#bearer-authentication).
   * Absent in a file written before generations: 0.
   */
  tokenGeneration?: number;
  createdAt: string;
}
