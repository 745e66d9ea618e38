// Every collection of the store, whether its records are packed, and its declared indexes. An
// index is kept in the same change as the record (and restored by its undo); a read may use only
// what is declared here, so what a read costs is decided here, once:
//   key index      records filed under a string (an account id, a status, ...), newest first
//   ordered index  grouped by account: each tenant's records ordered by an instant (when its due
//                  work falls due), earliest first, read with that tenant's own clock
import { nextAction } from '../domain/due.js';
import { scopeOf } from '../domain/scope.js';
import type { GroupOrderIndexSpec, IndexSpec, KeyIndexSpec, Reader } from './collection.js';
import type {
  Account,
  CollectionName,
  Delivery,
  EntityOf,
  Fault,
  IdempotencyRecord,
  LedgerEntry,
  Merchant,
  PixKeyEntry,
  Rule,
  SavedSnapshot,
  Transaction,
  Wallet,
  WebhookEndpoint,
  WebhookEvent,
  WebhookFault,
  WebhookSend,
} from './model.js';

/** A key index; `fields`, the record's top-level fields `fn` reads, lets a packed collection check a key by decoding only them. */
const key = <T>(fn: (r: T) => string | null | undefined, fields?: readonly (keyof T & string)[]): KeyIndexSpec<T> =>
  fields ? { key: fn, fields: new Set(fields) } : { key: fn };
/** A key index whose key is one top-level string field (compared in place by a packed collection). */
const field = <T>(name: keyof T & string): KeyIndexSpec<T> => ({
  key: (r) => r[name] as string | null | undefined,
  fields: new Set([name]),
  field: name,
});
const grouped = <T>(group: (r: T) => string | null | undefined, fn: (r: T) => number | null): GroupOrderIndexSpec<T> => ({
  group,
  order: fn,
});
const instant = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

/** The key of a merchant's document within its account (documents are unique per account). */
export const documentKey = (accountId: string, document: string): string => `${accountId}:${document}`;
/** The key of the deliveries a `reorder` webhook fault holds back, per endpoint and transaction (domain/webhook-faults.ts). */
export const heldKey = (endpointId: string, transactionId: string): string => `${endpointId}:${transactionId}`;
/** The key of an account's transactions in one status. */
export const accountStatusKey = (accountId: string, status: string): string => `${accountId}:${status}`;
/** The account or wallet an entry of no transaction moves money into or out of (its other side is the world). */
const holderOf = (e: Pick<LedgerEntry, 'from' | 'to'>): string => (e.from === 'world' ? e.to : e.from);

export const SCHEMA = {
  accounts: { packed: false, indexes: { byClientId: key<Account>((a) => a.clientId) } },
  merchants: {
    packed: false,
    indexes: {
      byAccount: key<Merchant>((m) => m.accountId),
      byClientId: key<Merchant>((m) => m.clientId),
      byDocument: key<Merchant>((m) => documentKey(m.accountId, m.document)),
    },
  },
  wallets: { packed: false, indexes: { byMerchant: key<Wallet>((w) => w.merchantId), byAccount: key<Wallet>((w) => w.accountId) } },
  transactions: {
    packed: true,
    indexes: {
      byAccount: field<Transaction>('accountId'),
      byAccountStatus: key<Transaction>((t) => accountStatusKey(t.accountId, t.status)),
      byStatus: key<Transaction>((t) => t.status),
      byExternalId: key<Transaction>((t) => (t.type === 'CASH_IN' ? t.externalId : null)),
      /** open transactions of each account by the instant their next action falls due (domain/due.ts) */
      due: grouped<Transaction>(
        (t) => t.accountId,
        (t) => instant(nextAction(t)?.at),
      ),
    },
  },
  ledger: {
    packed: true,
    indexes: {
      byTransaction: field<LedgerEntry>('transactionId'),
      /** entries of no transaction (an opening balance, an adjustment) by the account or wallet they move money of */
      byHolder: key<LedgerEntry>((e) => (e.transactionId === null ? holderOf(e) : null), ['transactionId', 'from', 'to']),
    },
  },
  idempotency: {
    packed: true,
    indexes: {
      /** each account's records by the instant they expire (by that account's clock) */
      byExpiry: grouped<IdempotencyRecord>(
        (r) => r.accountId,
        (r) => instant(r.expiresAt),
      ),
    },
  },
  /** arrangements by scope (a tenant's own, or SANDBOX_WIDE), in creation order: the order they are tried in */
  pixKeys: { packed: false, indexes: { byScope: key<PixKeyEntry>((k) => scopeOf(k.accountId)) } },
  rules: { packed: false, indexes: { byScope: key<Rule>((r) => scopeOf(r.accountId)) } },
  webhookEndpoints: { packed: false, indexes: { byAccount: key<WebhookEndpoint>((e) => e.accountId) } },
  events: { packed: true, indexes: { byTransaction: field<WebhookEvent>('transactionId') } },
  deliveries: {
    packed: true,
    indexes: {
      byTransaction: field<Delivery>('transactionId'),
      byEndpoint: key<Delivery>((d) => d.endpointId),
      byEvent: key<Delivery>((d) => d.eventId),
      byStatus: key<Delivery>((d) => d.status),
      /** each account's PENDING deliveries by the instant of their next attempt (by that account's clock) */
      byNextAttempt: grouped<Delivery>(
        (d) => d.accountId,
        (d) => (d.status === 'PENDING' ? instant(d.nextAttemptAt) : null),
      ),
      /** deliveries a `reorder` fault may still hold (not attempted yet): only those are in it */
      byHeld: key<Delivery>((d) =>
        d.status === 'PENDING' && d.fault?.action === 'reorder' && d.attempts.length === 0 ? heldKey(d.endpointId, d.transactionId) : null,
      ),
    },
  },
  faults: { packed: false, indexes: { byScope: key<Fault>((f) => scopeOf(f.accountId)) } },
  /** few records, read per tenant in creation order when a delivery is queued */
  webhookFaults: { packed: false, indexes: { byAccount: key<WebhookFault>((f) => f.accountId) } },
  /** the log of arbitrary sends, bounded by count (webhooks/send-body.ts) */
  webhookSends: {
    packed: false,
    indexes: { byEndpoint: key<WebhookSend>((s) => s.endpointId), byAccount: key<WebhookSend>((s) => s.accountId) },
  },
  /** each tenant's origin, by its account id (get) */
  origins: { packed: false, indexes: {} },
  /** the catalog of named snapshots, by name (get), and a tenant's by its account */
  savedSnapshots: { packed: false, indexes: { byAccount: key<SavedSnapshot>((s) => s.accountId) } },
} satisfies { [C in CollectionName]: { packed: boolean; indexes: Record<string, IndexSpec<EntityOf<C>>> } };

type IndexesOf<C extends CollectionName> = (typeof SCHEMA)[C]['indexes'];
/** The key indexes declared for a collection. */
type KeyIndexOf<C extends CollectionName> = {
  [I in keyof IndexesOf<C>]: IndexesOf<C>[I] extends KeyIndexSpec<never> ? I : never;
}[keyof IndexesOf<C>] &
  string;
/** The grouped ordered indexes declared for a collection. */
type GroupIndexOf<C extends CollectionName> = {
  [I in keyof IndexesOf<C>]: IndexesOf<C>[I] extends GroupOrderIndexSpec<never> ? I : never;
}[keyof IndexesOf<C>] &
  string;

/** A collection as every reader sees it: reads, by its declared indexes only. */
export type ReaderOf<C extends CollectionName> = Reader<EntityOf<C>, KeyIndexOf<C>, GroupIndexOf<C>>;
