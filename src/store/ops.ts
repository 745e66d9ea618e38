// The unit of change: a whole record put, a record removed, a meta field set, or a scope restored.
// Every change of the store is expressed as ops, so the same ops change memory, feed the write-ahead
// log and replay it after a restart (replaying is idempotent: each op carries the whole record, and a
// restore names where its records are). A snapshot is the same ops from an empty store (data-file.ts).
import type { CollectionName, Meta } from './model.js';
import type { StoreData } from './data.js';

/**
 * A scope's records replaced as one change (docs/store.md#named-snapshots): the log holds this small
 * op, never the records; a replay reads them again where `from` says.
 */
export interface RestoreOp {
  /** the tenant whose records are replaced; null: the whole sandbox's state */
  scope: string | null;
  /** a named snapshot's file in snapshots/ (an in-memory sandbox's is never replayed), or the tenant's origin */
  from: { file: string } | { origin: string };
  /** the tenant's account as restored (its credentials kept, its clock put back) */
  account?: unknown;
  /** the sandbox-wide clock offset as restored (the whole sandbox) */
  clockOffsetMs?: number;
}

export type Op =
  | { c: CollectionName; id: string; v: unknown }
  | { c: CollectionName; id: string; del: 1 }
  | { meta: keyof Meta; v: unknown }
  | { restore: RestoreOp };

/** Replays one op read from a file into `data`; throws for an op this format does not have. A restore is replayed by restore.ts. */
export function replayOp(data: StoreData, op: Exclude<Op, { restore: RestoreOp }>): void {
  if ('meta' in op) {
    // the seq counter only moves forward: records replayed may already have moved it further
    if (op.meta === 'seq') data.meta.seq = Math.max(data.meta.seq, Number(op.v) || 0);
    else (data.meta as unknown as Record<string, unknown>)[op.meta] = op.v;
  } else if (!Object.hasOwn(data.collections, op.c)) throw new Error(`no collection ${JSON.stringify(op.c)} in this format`);
  else if ('del' in op) data.collections[op.c]._delete(op.id);
  else data.load(op.c, op.id, op.v);
}
