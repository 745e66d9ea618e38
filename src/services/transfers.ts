// Transfers: POST /v1/banking/cash-out/pix (cashOut: the debit at creation, so the balance reflects it
// at once, under the idempotency of docs/decisions.md#d27-idempotency-of-cash-out), settlement by the
// key directory and outcome rules when the clock says so, and the credit back when one fails.
import type { AppContext } from '../context.js';
import { generateEndToEndId, SANDBOX_ISPB } from '../domain/end-to-end.js';
import { notFound } from '../domain/errors.js';
import { bodyHash, buildIdempotencyRecord, idempotencyDecision, idempotencyRecordId } from '../domain/idempotency.js';
import { entryFor } from '../domain/ledger.js';
import { scheduleOutcome } from '../domain/rules.js';
import {
  buildTransfer,
  completedTransfer,
  failedTransfer,
  keyOwner,
  settlementOf,
  transferDetailsOf,
  type Receiver,
} from '../domain/transfers.js';
import { formatCashOut } from '../format/transactions.js';
import type { CashOutBody } from '../schemas/public.js';
import type { LedgerRef, PixKeyEntry, Transfer } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { fundsRef, type Actor } from './banking.js';
import { emitEvent } from './events.js';
import { keyEntryFor } from './pix-keys.js';
import { rulesFor } from './rules.js';

const balanceOf = (tx: Tx) => (ref: LedgerRef) => tx.balances.of(ref);

/** The answer to a cash-out: a replay answers what the first request with its key was answered. */
export interface CashOutAnswer {
  replayed: boolean;
  statusCode: number;
  /** formatCashOut's answer, or the one stored with the key */
  body: unknown;
}

/**
 * POST /v1/banking/cash-out/pix. `key` is the x-idempotency-key (a UUID, read by the handler before the
 * body); the body was validated once, when the handler read it: cashOutSchema and its check (the
 * amount's ceiling, the key against its type, the recipient's document: src/schemas/checks.ts).
 * In one atomic change: the idempotency decision (a live record of the key with the same body replays
 * its answer; another body is IDEMPOTENCY_KEY_REUSED), then the transfer (funds, rules, the record, the
 * debit, the event), then the record of the key with the answer. A duplicate that arrives at the same
 * instant finds that record at once and can never create a second transfer; a replay changes nothing,
 * yet its commit still waits for any write under way (the original's), so it never answers before the
 * transfer it repeats is durable. A refused request (INSUFFICIENT_FUNDS) leaves no record of its key.
 */
export function cashOut(ctx: AppContext, actor: Actor, key: string, body: CashOutBody): Promise<CashOutAnswer> {
  const principalId = actor.merchantId ?? actor.accountId;
  const hash = bodyHash(body);
  return ctx.store.commit((tx) => {
    const now = ctx.clockOf(actor.accountId).now(); // one instant for the whole change
    const decision = idempotencyDecision(tx.idempotency.get(idempotencyRecordId(principalId, key)), hash, now.toISOString());
    if (decision.kind === 'replay') return { replayed: true, statusCode: decision.statusCode, body: decision.body };
    const created = formatCashOut(createTransfer(tx, ctx, actor, body, key, now));
    const record = { principalId, accountId: actor.accountId, key, bodyHash: hash, statusCode: 201, body: created, now };
    tx.put('idempotency', buildIdempotencyRecord(record));
    return { replayed: false, statusCode: 201, body: created };
  });
}

/** Inside the commit: PROCESSING, with the amount already debited (INSUFFICIENT_FUNDS creates nothing), its fate by the outcome rules. */
function createTransfer(tx: Tx, ctx: AppContext, actor: Actor, body: CashOutBody, idempotencyKey: string, now: Date): Readonly<Transfer> {
  const account = tx.accounts.get(actor.accountId);
  if (!account) throw notFound(`account ${actor.accountId}`);
  const amount = Number(body.amount); // digits, at most MAX_AMOUNT: the schema and its check said so
  const details = transferDetailsOf(body.details);
  const from = fundsRef(tx, actor.accountId, actor.merchantId);
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

function getTransfer(tx: Reads, id: string): Readonly<Transfer> {
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
