// Whose money a public call moves (the Actor: an account, or a merchant of one), and the reads of
// /v1/banking and /v1/merchants/balance: a balance, and a transaction lookup.
import { notFound } from '../domain/errors.js';
import { accountRef, walletRef } from '../domain/ledger.js';
import { LOOKUP_FIELDS, type LookupView } from '../format/transactions.js';
import type { LedgerRef } from '../store/model.js';
import type { Reads } from '../store/store.js';

/** The principal of a bearer token: its account, and its merchant for a merchant token. */
export interface Actor {
  accountId: string;
  merchantId: string | null;
}

/** The ledger account that a transaction of this account (or merchant) credits or debits: its main balance, or the merchant's main wallet. */
export function fundsRef(data: Reads, accountId: string, merchantId: string | null): LedgerRef {
  if (!merchantId) return accountRef(accountId);
  const merchant = data.merchants.get(merchantId);
  if (!merchant) throw notFound(`merchant ${merchantId}`);
  return walletRef(merchant.walletId);
}

/** GET /v1/banking/balance and /v1/merchants/balance: the account's main balance, or the merchant's main wallet's. */
export function balanceOf(data: Reads, actor: Actor): number {
  return data.balances.of(fundsRef(data, actor.accountId, actor.merchantId));
}

/**
 * GET /v1/banking/transactions/{id}: an account sees its own transactions and its merchants'; a
 * merchant only its own; anything else is 404. Only the fields the lookup shows are decoded (a
 * charge's code, QR data and the rest are not).
 */
export function lookupTransaction(data: Reads, actor: Actor, id: string): LookupView {
  const t = data.transactions.getFields(id, LOOKUP_FIELDS) as LookupView | undefined;
  const visible = t && t.accountId === actor.accountId && (actor.merchantId === null || t.merchantId === actor.merchantId);
  if (!visible) throw notFound(`transaction ${id}`);
  return t;
}
