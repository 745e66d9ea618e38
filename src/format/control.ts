// Views of the control API (CONTRACT §12): plain JSON, no envelope. These are sandbox-only
// shapes, so they show internal fields a tester wants to see, but never a secret hash.
import type { Indexes } from '../store/indexes.js';
import type { Account, Data, Fault, LedgerEntry, Merchant, PixKeyEntry, Rule, Transaction, Wallet, WebhookEvent } from '../store/model.js';
import { accountRef, walletRef } from '../domain/ledger.js';
import { renderQrDataUrl } from './qr.js';
import { merchantFields } from './merchants.js';

export function formatAccount(a: Account, ix: Indexes, clientSecret?: string) {
  return {
    id: a.id,
    name: a.name,
    client_id: a.clientId,
    ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}),
    splitEnabled: a.splitEnabled,
    autoPayAfterSeconds: a.autoPayAfterSeconds,
    settleAfterSeconds: a.settleAfterSeconds,
    balance: ix.balance(accountRef(a.id)),
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

export function formatWallet(w: Wallet, ix: Indexes) {
  return {
    walletId: w.id,
    accountId: w.accountId,
    merchantId: w.merchantId,
    name: w.name,
    balance: ix.balance(walletRef(w.id)),
    currency: w.currency,
    createdAt: w.createdAt,
  };
}

/** Wallets grouped by merchant, so that a list of merchants reads the wallets once. */
export function walletsByMerchant(data: Data): Map<string, Wallet[]> {
  const out = new Map<string, Wallet[]>();
  for (const w of Object.values(data.wallets)) {
    const list = out.get(w.merchantId);
    if (list) list.push(w);
    else out.set(w.merchantId, [w]);
  }
  return out;
}

export function formatMerchant(m: Merchant, walletsOfMerchant: Wallet[], ix: Indexes) {
  const wallets = walletsOfMerchant.map((w) => formatWallet(w, ix));
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
export function formatTransaction(t: Transaction) {
  return { ...t };
}

/** One transaction with what a dashboard shows next to it: its QR image, ledger entries and events. */
export function formatTransactionDetail(t: Transaction, data: Data) {
  const ledger: LedgerEntry[] = Object.values(data.ledger).filter((e) => e.transactionId === t.id);
  const events: WebhookEvent[] = Object.values(data.events).filter((e) => e.transactionId === t.id);
  return {
    ...t,
    ...(t.type === 'CASH_IN' ? { qrCode: renderQrDataUrl(t.pixCode) } : {}),
    ledger,
    events,
  };
}

export function formatPixKey(k: PixKeyEntry) {
  return { key: k.key, keyType: k.keyType, owner: k.owner, unknown: k.unknown, createdAt: k.createdAt };
}

export function formatRule(r: Rule) {
  return {
    id: r.id,
    ...(r.description !== undefined ? { description: r.description } : {}),
    match: r.match,
    outcome: r.outcome,
    createdAt: r.createdAt,
  };
}

export function formatFault(f: Fault) {
  return {
    id: f.id,
    method: f.method,
    path: f.path,
    // a stored status of 0 means "no error": the fault only adds latency
    status: f.status === 0 ? null : f.status,
    code: f.status === 0 ? null : f.code,
    message: f.status === 0 ? null : f.message,
    latencyMs: f.latencyMs,
    remaining: f.remaining,
    probability: f.probability,
    hits: f.hits,
    createdAt: f.createdAt,
  };
}
