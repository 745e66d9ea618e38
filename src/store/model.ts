// The one data model of the sandbox. Everything that is state lives in the store (the shape of
// its file is `Data`), so that persistence, reset and restart cover all of it. Every record has
// an id (the write-ahead log names a record by collection and id) and a creation sequence number
// set by the store (lists are ordered by it; docs/store.md).
// Money is always integer cents; timestamps are ISO 8601 UTC strings from the sandbox clock.
// The records are declared by aggregate, in the files beside this one; everyone imports them from here.
import type { Account, Merchant, Wallet } from './model-accounts.js';
import type { Fault, PixKeyEntry, Rule } from './model-controls.js';
import type { LedgerEntry } from './model-ledger.js';
import { SCHEMA_VERSION, type Meta } from './model-meta.js';
import type { IdempotencyRecord, Transaction } from './model-transactions.js';
import type { Delivery, WebhookEndpoint, WebhookEvent, WebhookFault, WebhookSend } from './model-webhooks.js';
import type { Origin, SavedSnapshot } from './model-snapshots.js';

export { SCHEMA_VERSION } from './model-meta.js';
export type * from './model-meta.js';
export type * from './model-accounts.js';
export type * from './model-transactions.js';
export type * from './model-ledger.js';
export type * from './model-webhooks.js';
export type * from './model-controls.js';
export type * from './model-snapshots.js';
// the closed lists of words are declared once, in the domain
export type * from '../domain/vocabulary.js';

/** The store as its file holds it (db.json): meta, then each collection's records by id. */
export interface Data {
  meta: Meta;
  accounts: Record<string, Account>;
  merchants: Record<string, Merchant>;
  wallets: Record<string, Wallet>;
  transactions: Record<string, Transaction>;
  ledger: Record<string, LedgerEntry>;
  idempotency: Record<string, IdempotencyRecord>;
  pixKeys: Record<string, PixKeyEntry>;
  rules: Record<string, Rule>;
  webhookEndpoints: Record<string, WebhookEndpoint>;
  events: Record<string, WebhookEvent>;
  deliveries: Record<string, Delivery>;
  faults: Record<string, Fault>;
  webhookFaults: Record<string, WebhookFault>;
  webhookSends: Record<string, WebhookSend>;
  origins: Record<string, Origin>;
  savedSnapshots: Record<string, SavedSnapshot>;
}

export type CollectionName = Exclude<keyof Data, 'meta'>;
export type EntityOf<C extends CollectionName> = Data[C][string];

export const COLLECTIONS: readonly CollectionName[] = [
  'accounts',
  'merchants',
  'wallets',
  'transactions',
  'ledger',
  'idempotency',
  'pixKeys',
  'rules',
  'webhookEndpoints',
  'events',
  'deliveries',
  'faults',
  'webhookFaults',
  'webhookSends',
  'origins',
  'savedSnapshots',
];

/**
 * The collections of the sandbox's state: everything but the catalog of named snapshots, which a
 * snapshot does not hold and a restore does not change (docs/store.md#named-snapshots).
 */
export const STATE_COLLECTIONS: readonly CollectionName[] = COLLECTIONS.filter((c) => c !== 'savedSnapshots');

export function emptyData(signingSecret: string, now: string): Data {
  const data = { meta: { schemaVersion: SCHEMA_VERSION, signingSecret, clockOffsetMs: 0, seq: 0, createdAt: now } } as Data;
  for (const c of COLLECTIONS) (data as unknown as Record<string, unknown>)[c] = {};
  return data;
}
