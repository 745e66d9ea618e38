// Views of the control API (docs/control-api.md#conventions): plain JSON, no envelope. These are sandbox-only
// shapes, so they show internal fields a tester wants to see, but never a secret hash. The
// store's creation sequence (`seq`) stays inside: a list's order and its cursor carry it. Each
// formatter's type is its answer's schema (src/schemas/control-responses.ts).
import type { Wire } from '../schemas/from-schema.js';
import type {
  accountSchema,
  controlMerchantSchema,
  faultViewSchema,
  pixKeyViewSchema,
  ruleViewSchema,
  snapshotSchema,
  transactionDetailSchema,
  transactionSchema,
  walletSchema,
} from '../schemas/control-responses.js';
import type { BalanceReader } from '../store/balances.js';
import type {
  Account,
  Fault,
  SavedSnapshot,
  LedgerEntry,
  Merchant,
  PixKeyEntry,
  Rule,
  Stored,
  Transaction,
  Wallet,
  WebhookEvent,
} from '../store/model.js';
import { accountRef, walletRef } from '../domain/ledger.js';
import { nameOf } from '../domain/scope.js';
import { renderQrDataUrl } from './qr.js';
import { merchantFields } from './merchants.js';

/** A record without the store's own sequence number (each member of a union on its own). */
type Unstored<T> = T extends Stored ? Omit<T, 'seq'> : never;

/** A record as the control API shows it: everything but the store's own sequence number. */
function withoutSeq<T extends Stored>(r: Readonly<T>): Unstored<T> {
  const { seq, ...rest } = r;
  return rest as Unstored<T>;
}

export function formatAccount(a: Readonly<Account>, balances: BalanceReader, clientSecret?: string): Wire<typeof accountSchema> {
  return {
    id: a.id,
    name: a.name,
    client_id: a.clientId,
    ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
    splitEnabled: a.splitEnabled,
    autoPayAfterSeconds: a.autoPayAfterSeconds,
    settleAfterSeconds: a.settleAfterSeconds,
    rateLimit: a.rateLimit ?? null,
    balance: balances.of(accountRef(a.id)),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function formatWallet(w: Readonly<Wallet>, balances: BalanceReader): Wire<typeof walletSchema> {
  return {
    walletId: w.id,
    accountId: w.accountId,
    merchantId: w.merchantId,
    name: w.name,
    balance: balances.of(walletRef(w.id)),
    currency: w.currency,
    createdAt: w.createdAt,
  };
}

export function formatMerchant(
  m: Readonly<Merchant>,
  walletsOfMerchant: readonly Readonly<Wallet>[],
  balances: BalanceReader,
): Wire<typeof controlMerchantSchema> {
  const wallets = walletsOfMerchant.map((w) => formatWallet(w, balances));
  return {
    id: m.id,
    accountId: m.accountId,
    ...merchantFields(m),
    client_id: m.clientId,
    walletId: m.walletId,
    wallets,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

/** The whole record as stored (a control view may show everything but secrets; records hold none). */
export function formatTransaction(t: Readonly<Transaction>): Wire<typeof transactionSchema> {
  return withoutSeq(t);
}

/** One transaction with what a dashboard shows next to it: its QR image, ledger entries and events. */
export function formatTransactionDetail(
  t: Readonly<Transaction>,
  ledger: Iterable<Readonly<LedgerEntry>>,
  events: Iterable<Readonly<WebhookEvent>>,
): Wire<typeof transactionDetailSchema> {
  const beside = { ledger: [...ledger].map((e) => withoutSeq(e)), events: [...events].map((e) => withoutSeq(e)) };
  return t.type === 'CASH_IN' ? { ...withoutSeq(t), qrCode: renderQrDataUrl(t.pixCode), ...beside } : { ...withoutSeq(t), ...beside };
}

export function formatPixKey(k: Readonly<PixKeyEntry>): Wire<typeof pixKeyViewSchema> {
  return { key: k.key, keyType: k.keyType, owner: k.owner, unknown: k.unknown, createdAt: k.createdAt, accountId: k.accountId ?? null };
}

export function formatRule(r: Readonly<Rule>): Wire<typeof ruleViewSchema> {
  return {
    id: nameOf(r),
    accountId: r.accountId ?? null,
    ...(r.description !== undefined ? { description: r.description } : {}),
    match: r.match,
    outcome: r.outcome,
    createdAt: r.createdAt,
  };
}

export function formatFault(f: Readonly<Fault>): Wire<typeof faultViewSchema> {
  return {
    id: f.id,
    accountId: f.accountId ?? null,
    method: f.method,
    path: f.path,
    // a stored status of 0 means "no error": the fault only adds latency
    status: f.status === 0 ? null : f.status,
    code: f.status === 0 ? null : f.code,
    message: f.status === 0 ? null : f.message,
    latencyMs: f.latencyMs,
    retryAfterSeconds: f.retryAfterSeconds ?? null,
    remaining: f.remaining,
    probability: f.probability,
    hits: f.hits,
    createdAt: f.createdAt,
  };
}

/** A named snapshot (docs/control-api.md#snapshots): the catalog's record, named. */
export function formatSnapshot(s: Readonly<SavedSnapshot>): Wire<typeof snapshotSchema> {
  return { name: s.id, accountId: s.accountId, createdAt: s.createdAt, counts: { ...s.counts }, bytes: s.bytes };
}
