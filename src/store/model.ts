// The one data model of the sandbox. Everything that is state lives in `Data`, so that
// persistence, reset and restart cover all of it. Collections are id-keyed records so that
// a lookup is O(1) and the write-ahead log can name a record by (collection, id).
// Money is always integer cents; timestamps are ISO 8601 UTC strings from the sandbox clock.

export const SCHEMA_VERSION = 1;

export type ChargeStatus = 'WAITING_PAYMENT' | 'PAID' | 'EXPIRED' | 'CANCELLED';
export type TransferStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED';
export type TransactionStatus = ChargeStatus | TransferStatus;
export type TransactionType = 'CASH_IN' | 'CASH_OUT';
export type MerchantStatus = 'ACTIVE' | 'INACTIVE' | 'SUSPENDED';
export type DocumentType = 'CPF' | 'CNPJ';
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM';
export type SplitMode = 'FIXED' | 'PERCENTAGE';

export interface Account {
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
  createdAt: string;
  updatedAt: string;
}

export interface Merchant {
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

export interface Wallet {
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

/** A fate decided at creation by an outcome rule (CONTRACT §7b), carried out by the due-work runner. */
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

interface TransactionBase {
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
export interface LedgerEntry {
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

export interface IdempotencyRecord {
  /** `${principalId}:${key}` */
  id: string;
  principalId: string;
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

export interface PixKeyEntry {
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

export interface Rule {
  id: string;
  /** order of evaluation (first match wins) */
  seq: number;
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

export type EventType =
  'cashin.created' | 'cashin.paid' | 'cashin.expired' | 'cashin.cancelled' | 'cashout.created' | 'cashout.completed' | 'cashout.failed';

export interface WebhookEndpoint {
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

export interface WebhookEvent {
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
}

export interface Delivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: EventType;
  transactionId: string;
  status: 'PENDING' | 'DELIVERED' | 'DEAD';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface Fault {
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
  /** a counter so that records created within one millisecond keep their order */
  seq: number;
  createdAt: string;
}

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
];

export function emptyData(signingSecret: string, now: string): Data {
  const data = { meta: { schemaVersion: SCHEMA_VERSION, signingSecret, clockOffsetMs: 0, seq: 0, createdAt: now } } as Data;
  for (const c of COLLECTIONS) (data as unknown as Record<string, unknown>)[c] = {};
  return data;
}
