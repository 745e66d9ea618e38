// The due-work runner: applies what dueActions() says is due by the sandbox clock (expiries,
// auto-payments, rule outcomes, settlements) and prunes idempotency records past their 24 hours.
// Each action is its own atomic change, so one that is refused never undoes the others; all of
// them share one durable write.
import type { AppContext, Worker } from '../context.js';
import { dueActions, type DueAction } from '../domain/due.js';
import { SandboxError } from '../domain/errors.js';
import { expiredIdempotencyRecords } from '../domain/idempotency.js';
import type { Tx } from '../store/store.js';
import { closeChargeAt, getCharge, payChargeAt } from './charges.js';
import { settleTransferAt } from './transfers.js';

/** Idempotency records are swept at most once a minute of sandbox time (a sweep reads them all). */
const PRUNE_EVERY_MS = 60_000;

function applyDue(tx: Tx, ctx: AppContext, a: DueAction): void {
  const at = new Date(a.at);
  switch (a.kind) {
    case 'pay':
      payChargeAt(tx, ctx, a.transactionId, getCharge(tx, a.transactionId).outcome?.payer, at);
      return;
    case 'expire':
    case 'cancel':
      closeChargeAt(tx, ctx, a.transactionId, a.kind, at);
      return;
    case 'settle':
      settleTransferAt(tx, ctx, a.transactionId, at);
      return;
  }
}

/** Applies every action due now, oldest first; returns how many were applied. Synchronous. */
export function applyDueNow(ctx: AppContext): number {
  const store = ctx.store;
  const actions = dueActions({ transactions: store.data.transactions, open: store.ix.openTransactions }, ctx.clock.now());
  let applied = 0;
  for (const a of actions) {
    try {
      store.apply((tx) => applyDue(tx, ctx, a));
      applied++;
    } catch (e) {
      // a refused action (e.g. a control call closed the transaction first) is skipped; anything else is a bug worth a log line
      if (!(e instanceof SandboxError)) console.error(`[pix-sandbox] due ${a.kind} of ${a.transactionId} failed:`, e);
    }
  }
  return applied;
}

export function pruneIdempotency(ctx: AppContext): number {
  const ids = expiredIdempotencyRecords(ctx.store.data.idempotency, ctx.clock.nowIso());
  if (ids.length > 0) ctx.store.apply((tx) => ids.forEach((id) => tx.remove('idempotency', id)));
  return ids.length;
}

export function dueWorker(ctx: AppContext): Worker {
  let lastPruneMs = Number.NEGATIVE_INFINITY;
  return {
    async runDue() {
      applyDueNow(ctx);
      const nowMs = ctx.clock.now().getTime();
      // a clock moved backwards (reset) must not stop the sweeps
      if (nowMs - lastPruneMs >= PRUNE_EVERY_MS || nowMs < lastPruneMs) {
        pruneIdempotency(ctx);
        lastPruneMs = nowMs;
      }
      await ctx.store.sync();
    },
    async stop() {
      await ctx.store.sync().catch(() => undefined);
    },
  };
}
