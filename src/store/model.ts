// The one data model of the sandbox. Everything that is state lives in the store (the shape of
// its file is `Data`), so that persistence, reset and restart cover all of it. Every record has
// an id (the write-ahead log names a record by collection and id) and a creation sequence number
// set by the store (lists are ordered by it; docs/store.md).
// Money is always integer cents; timestamps are ISO 8601 UTC strings from the sandbox clock.

import type { FaultMark, WebhookFault, WebhookSend } from './webhook-fault-model.js';

export type * from './webhook-fault-model.js';

export const SCHEMA_VERSION = 1;

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

import type {
  ChargeStatus,
  DeliveryStatus,
  DocumentType,
  EventType,
  MerchantStatus,
  PixKeyType,
  SplitMode,
  TransactionStatus,
  TransactionType,
  TransferStatus,
} from '../domain/vocabulary.js';

// the closed lists of words are declared once, in the domain
export type * from '../domain/vocabulary.js';

export interface Account extends Stored {
  id: string;
  name: string;
  clientId: string;
  /** scrypt, "scrypt$<salt hex>$<hash hex>" */
  secretHash: string;
  splitEnabled: boolean;
  /** charges of this account are paid automatically this many seconds after creation; null = never */
  autoPayAfterSeconds: number | null;
  /** transfers settle this many seconds after creation (0 = next tick) */
  settleAfterSeconds: number;
  /** the account's own clock (docs/architecture.md#the-clock); absent: the sandbox-wide clock */
  clock?: AccountClock;
  createdAt: string;
  updatedAt: string;
}

/** A tenant's clock: the sandbox-wide clock plus its own offset, or frozen at an instant. */
export interface AccountClock {
  /** added to the sandbox-wide clock while it flows */
  offsetMs: number;
  /** epoch ms it stands at while frozen; null: it flows */
  frozenAtMs: number | null;
}

export interface Merchant extends Stored {
  id: string;
  accountId: string;
  name: string;
  document: string;
  documentType: DocumentType;
  email: string;
  phone: string;
  status: MerchantStatus;
  clientId: string;
  secretHash: string;
  /** the merchant's main wallet */
  walletId: string;
  createdAt: string;
  updatedAt: string;
}

export interface Wallet extends Stored {
  id: string;
  accountId: string;
  merchantId: string;
  name: string;
  currency: 'BRL';
  createdAt: string;
}

export interface Customer {
  name: string;
  document: string;
  email?: string;
  phone?: string;
}

/** A party of a settled PIX payment: the payer of a charge, or the receiver of a transfer. */
export interface Party {
  name: string;
  document: string;
  ispb: string;
  account_number: string;
  account_type: string;
}

export interface TransactionError {
  code: string;
  message: string;
}

/** A fate decided at creation by an outcome rule (docs/decisions.md#d29-outcome-rules), carried out by the due-work runner. */
export interface ScheduledOutcome {
  ruleId: string;
  action: 'pay' | 'expire' | 'cancel' | 'wait' | 'complete' | 'fail';
  /** when the action falls due (ISO); absent for `wait` */
  at?: string;
  code?: string;
  message?: string;
  payer?: Partial<Party>;
}

export interface SplitShare {
  walletId: string;
  mode: SplitMode;
  /** the amount as requested: cents for FIXED, percent for PERCENTAGE */
  value: number;
  /** the computed share in cents */
  share: number;
}

interface TransactionBase extends Stored {
  id: string;
  accountId: string;
  /** set when a merchant token created it; money then moves in the merchant's main wallet */
  merchantId: string | null;
  amount: number;
  description: string;
  createdAt: string;
  updatedAt: string;
  outcome?: ScheduledOutcome;
}

export interface Charge extends TransactionBase {
  type: 'CASH_IN';
  status: ChargeStatus;
  customer: Customer;
  externalId?: string;
  /** seconds */
  expiration: number;
  expiresAt: string;
  pixCode: string;
  split: SplitShare[];
  paidAt?: string;
  endToEndId?: string;
  payer?: Party;
  error?: TransactionError;
}

export interface TransferDetails {
  name: string;
  document?: string;
  key: string;
  keyType: PixKeyType;
}

export interface Transfer extends TransactionBase {
  type: 'CASH_OUT';
  status: TransferStatus;
  details: TransferDetails;
  idempotencyKey: string;
  /** when the clock settles it */
  settleAt: string;
  settledAt?: string;
  endToEndId?: string;
  receiver?: Party & { key: string; keyType: PixKeyType };
  error?: TransactionError;
}

export type Transaction = Charge | Transfer;

/** A ledger account: an account's main balance, a wallet, or the world outside the sandbox. */
export type LedgerRef = `account:${string}` | `wallet:${string}` | 'world';

/**
 * One double-entry movement: `amount` leaves `from` and arrives at `to` (a pair of postings
 * held as one record). A balance is the sum of what arrived less the sum of what left.
 */
export interface LedgerEntry extends Stored {
  id: string;
  from: LedgerRef;
  to: LedgerRef;
  amount: number;
  /** the transaction that caused it, or null for a control-API adjustment / opening balance */
  transactionId: string | null;
  kind: 'OPENING' | 'ADJUSTMENT' | 'CASH_IN' | 'SPLIT' | 'CASH_OUT' | 'CASH_OUT_REVERSAL';
  memo?: string;
  at: string;
}

export interface IdempotencyRecord extends Stored {
  /** `${principalId}:${key}` */
  id: string;
  principalId: string;
  /** the principal's account: its clock ages the record */
  accountId: string;
  key: string;
  /** sha256 of the canonical request body */
  bodyHash: string;
  statusCode: number;
  body: unknown;
  createdAt: string;
  expiresAt: string;
}

export interface PixKeyOwner {
  name: string;
  document: string;
  ispb?: string;
  account_number?: string;
  account_type?: string;
}

export interface PixKeyEntry extends Stored {
  /** the normalized key */
  id: string;
  key: string;
  keyType: PixKeyType;
  owner: PixKeyOwner;
  /** the key is known to be absent from DICT: transfers to it fail with KEY_NOT_FOUND */
  unknown: boolean;
  createdAt: string;
}

export interface RuleMatch {
  type: TransactionType;
  amount?: number;
  amountMin?: number;
  amountMax?: number;
  key?: string;
  document?: string;
  descriptionContains?: string;
}

export interface Rule extends Stored {
  id: string;
  /** rules are evaluated in creation order (their seq; first match wins): a replacement keeps its place */
  description?: string;
  match: RuleMatch;
  outcome: {
    action: ScheduledOutcome['action'];
    afterSeconds?: number;
    code?: string;
    message?: string;
    payer?: Partial<Party>;
  };
  createdAt: string;
}

export interface WebhookEndpoint extends Stored {
  id: string;
  accountId: string;
  url: string;
  /** null = every event */
  events: EventType[] | null;
  secret: string;
  /** 'config' endpoints come from --webhook-url */
  source: 'api' | 'config';
  createdAt: string;
}

export interface WebhookEventData {
  transactionId: string;
  type: TransactionType;
  status: TransactionStatus;
  amount: number;
  externalId?: string;
  end_to_end_id?: string;
  payer?: Party;
  receiver?: Transfer['receiver'];
  error?: TransactionError;
}

export interface WebhookEvent extends Stored {
  id: string;
  type: EventType;
  accountId: string;
  transactionId: string;
  createdAt: string;
  data: WebhookEventData;
}

export interface DeliveryAttempt {
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** the webhook fault that shaped this attempt (its signature, its delay, its order); absent for a plain one */
  fault?: FaultMark;
}

export interface Delivery extends Stored {
  id: string;
  /** the endpoint's account: attempts and retries follow its clock */
  accountId: string;
  endpointId: string;
  eventId: string;
  eventType: EventType;
  transactionId: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  /** the webhook fault that applied to this delivery; absent when none did */
  fault?: FaultMark;
}

export interface Fault extends Stored {
  id: string;
  method: string | null;
  path: string;
  status: number;
  code: string;
  message: string;
  latencyMs: number;
  /** how many more times it fires; null = unlimited */
  remaining: number | null;
  probability: number;
  hits: number;
  createdAt: string;
}

export interface Meta {
  schemaVersion: number;
  /** HS256 secret for access tokens; generated once per store and kept across resets */
  signingSecret: string;
  /** sandbox clock = real clock + offset */
  clockOffsetMs: number;
  /** the last creation sequence number given to a record (Stored.seq) */
  seq: number;
  createdAt: string;
}

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
];

export function emptyData(signingSecret: string, now: string): Data {
  const data = { meta: { schemaVersion: SCHEMA_VERSION, signingSecret, clockOffsetMs: 0, seq: 0, createdAt: now } } as Data;
  for (const c of COLLECTIONS) (data as unknown as Record<string, unknown>)[c] = {};
  return data;
}
