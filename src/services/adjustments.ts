// Control-API adjustments (docs/control-api.md#accounts): money moved into or out of an account's main balance
// or a wallet from the world outside, as one ADJUSTMENT ledger entry. The ledger refuses to
// take a balance below zero (422 INSUFFICIENT_FUNDS), so a refused debit changes nothing.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { accountRef, entryFor, walletRef } from '../domain/ledger.js';
import type { LedgerEntry, LedgerRef, Wallet } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { requireAccount } from './accounts.js';

function adjust(tx: Tx, ctx: AppContext, accountId: string, ref: LedgerRef, amount: number, description?: string): Readonly<LedgerEntry> {
  const inbound = amount > 0;
  const memo = description ?? (inbound ? 'control API credit' : 'control API debit');
  const entry = entryFor(
    (r) => tx.balances.of(r),
    { from: inbound ? 'world' : ref, to: inbound ? ref : 'world', amount: Math.abs(amount), kind: 'ADJUSTMENT', transactionId: null, memo },
    ctx.newId(),
    ctx.clockOf(accountId).nowIso(),
  );
  return tx.put('ledger', entry);
}

/** Positive amounts credit the account's main balance; negative ones debit it. */
export function adjustAccount(tx: Tx, ctx: AppContext, accountId: string, amount: number, description?: string): Readonly<LedgerEntry> {
  requireAccount(tx, accountId);
  return adjust(tx, ctx, accountId, accountRef(accountId), amount, description);
}

export function requireWallet(data: Reads, walletId: string): Readonly<Wallet> {
  const w = data.wallets.get(walletId);
  if (!w) throw notFound(`wallet ${walletId}`);
  return w;
}

export function adjustWallet(tx: Tx, ctx: AppContext, walletId: string, amount: number, description?: string): Readonly<LedgerEntry> {
  const wallet = requireWallet(tx, walletId);
  return adjust(tx, ctx, wallet.accountId, walletRef(walletId), amount, description);
}
