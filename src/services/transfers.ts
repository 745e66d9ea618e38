// Transfers applied to the store: the debit at creation (so the balance reflects it at once),
// settlement by the key directory and outcome rules, and the credit back when one fails.
import type { AppContext } from '../context.js';
import { generateEndToEndId, SANDBOX_ISPB } from '../domain/end-to-end.js';
import { notFound } from '../domain/errors.js';
import { entryFor } from '../domain/ledger.js';
import { scheduleOutcome } from '../domain/rules.js';
import {
  buildTransfer,
  completedTransfer,
  failedTransfer,
  keyOwner,
  parseCashOutAmount,
  settlementOf,
  transferDetailsOf,
  type Receiver,
} from '../domain/transfers.js';
import type { CashOutBody } from '../schemas/public.js';
import type { LedgerRef, PixKeyEntry, Transfer } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { fundsRef, type Actor } from './charges.js';
import { emitEvent } from './events.js';
import { keyEntryFor } from './pix-keys.js';
import { rulesFor } from './rules.js';

const balanceOf = (tx: Tx) => (ref: LedgerRef) => tx.balances.of(ref);

/** PROCESSING, with the amount already debited; INSUFFICIENT_FUNDS creates nothing. */
export function createTransfer(tx: Tx, ctx: AppContext, actor: Actor, body: CashOutBody, idempotencyKey: string): Readonly<Transfer> {
  const account = tx.accounts.get(actor.accountId);
  if (!account) throw notFound(`account ${actor.accountId}`);
  const amount = parseCashOutAmount(body.amount);
  const details = transferDetailsOf(body.details);
  const from = fundsRef(tx, actor.accountId, actor.merchantId);
  const now = ctx.clockOf(account.id).now();
  const nowIso = now.toISOString();
  const id = ctx.newId();
  const debit = entryFor(balanceOf(tx), { from, to: 'world', amount, kind: 'CASH_OUT', transactionId: id }, ctx.newId(), nowIso);
  const subject = {
    type: 'CASH_OUT' as const,
    amount,
    description: body.description,
    key: details.key,
    ...(details.document ? { document: details.document } : {}),
  };
  const outcome = scheduleOutcome(rulesFor(tx, account.id), subject, now);
  const transfer = tx.put(
    'transactions',
    buildTransfer({
      id,
      accountId: account.id,
      merchantId: actor.merchantId,
      amount,
      description: body.description,
      details,
      idempotencyKey,
      settleAfterSeconds: account.settleAfterSeconds,
      now,
      ...(outcome ? { outcome } : {}),
    }),
  ) as Readonly<Transfer>;
  tx.put('ledger', debit);
  emitEvent(tx, transfer, nowIso, ctx.newId);
  return transfer;
}

export function getTransfer(tx: Reads, id: string): Readonly<Transfer> {
  const t = tx.transactions.get(id);
  if (!t || t.type !== 'CASH_OUT') throw notFound(`transfer ${id}`);
  return t;
}

/** The directory as the transfer's tenant sees it: its own entry of the key, else the sandbox-wide one. */
const directoryEntry = (tx: Reads, t: Readonly<Transfer>): Readonly<PixKeyEntry> | null =>
  keyEntryFor(tx, t.accountId, t.details.key) ?? null;

function complete(tx: Tx, ctx: AppContext, t: Readonly<Transfer>, receiver: Receiver, at: Date): Readonly<Transfer> {
  // the sandbox is the payer's institution, so the end-to-end id carries its ISPB
  const done = completedTransfer(t, receiver, generateEndToEndId(SANDBOX_ISPB, at, ctx.random.next), at.toISOString());
  const stored = tx.put('transactions', done) as Readonly<Transfer>;
  emitEvent(tx, stored, stored.updatedAt, ctx.newId);
  return stored;
}

function fail(tx: Tx, ctx: AppContext, t: Readonly<Transfer>, error: { code: string; message: string }, at: Date): Readonly<Transfer> {
  const done = failedTransfer(t, error, at.toISOString());
  const to = fundsRef(tx, t.accountId, t.merchantId);
  tx.put(
    'ledger',
    entryFor(
      balanceOf(tx),
      { from: 'world', to, amount: t.amount, kind: 'CASH_OUT_REVERSAL', transactionId: t.id },
      ctx.newId(),
      done.updatedAt,
    ),
  );
  const stored = tx.put('transactions', done) as Readonly<Transfer>;
  emitEvent(tx, stored, stored.updatedAt, ctx.newId);
  return stored;
}

/** What the clock does at `at`: the outcome rule when one matched, else the key directory. */
export function settleTransferAt(tx: Tx, ctx: AppContext, id: string, at: Date): Readonly<Transfer> {
  const t = getTransfer(tx, id);
  const s = settlementOf(t, directoryEntry(tx, t));
  return s.status === 'COMPLETED' ? complete(tx, ctx, t, s.receiver, at) : fail(tx, ctx, t, s.error, at);
}

export function settleTransfer(tx: Tx, ctx: AppContext, id: string): Readonly<Transfer> {
  return settleTransferAt(tx, ctx, id, ctx.clockOf(getTransfer(tx, id).accountId).now());
}

/** Forced COMPLETED whatever the directory says; the receiver still comes from it (or the owner rules). */
export function completeTransfer(tx: Tx, ctx: AppContext, id: string): Readonly<Transfer> {
  const t = getTransfer(tx, id);
  return complete(tx, ctx, t, keyOwner(t.details, directoryEntry(tx, t)), ctx.clockOf(t.accountId).now());
}

/** → FAILED with the given error; the amount is credited back. */
export function failTransfer(tx: Tx, ctx: AppContext, id: string, error: { code: string; message: string }): Readonly<Transfer> {
  const t = getTransfer(tx, id);
  return fail(tx, ctx, t, error, ctx.clockOf(t.accountId).now());
}
