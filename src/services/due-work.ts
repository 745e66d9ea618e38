// The due-work runner: applies what dueActions() says is due by the sandbox clock (expiries,
// auto-payments, rule outcomes, settlements) and prunes idempotency records past their 24 hours.
// Each action is its own atomic change, so one that is refused never undoes the others; all of
// them share one durable write.
import type { AppContext, Worker } from '../context.js';
import { dueActions, type DueAction } from '../domain/due.js';
import { SandboxError } from '../domain/errors.js';
import { expiredIdempotencyRecords, IDEMPOTENCY_TTL_SECONDS } from '../domain/idempotency.js';
import type { Tx } from '../store/store.js';
import { closeChargeAt, getCharge, payChargeAt } from './charges.js';
import { settleTransferAt } from './transfers.js';

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

/** Removes the idempotency records past their 24 hours; returns the earliest expiry left. */
export function pruneIdempotency(ctx: AppContext): string | null {
  const nowIso = ctx.clock.nowIso();
  const records = ctx.store.data.idempotency;
  const ids = expiredIdempotencyRecords(records, nowIso);
  if (ids.length > 0) ctx.store.apply((tx) => ids.forEach((id) => tx.remove('idempotency', id)));
  let earliest: string | null = null;
  for (const id in records) if (earliest === null || records[id]!.expiresAt < earliest) earliest = records[id]!.expiresAt;
  return earliest;
}

export function dueWorker(ctx: AppContext): Worker {
  // A sweep reads every record, so it runs only when one can have expired: at the earliest expiry
  // seen, or 24 h after the last sweep (a record made since then cannot expire sooner).
  let lastSweepMs = Number.NEGATIVE_INFINITY;
  let nextSweepMs = Number.NEGATIVE_INFINITY;
  return {
    async runDue() {
      applyDueNow(ctx);
      const nowMs = ctx.clock.now().getTime();
      // a clock moved backwards (reset) must not stop the sweeps
      if (nowMs >= nextSweepMs || nowMs < lastSweepMs) {
        const earliest = pruneIdempotency(ctx);
        lastSweepMs = nowMs;
        nextSweepMs = Math.min(earliest === null ? Infinity : Date.parse(earliest), nowMs + IDEMPOTENCY_TTL_SECONDS * 1000);
      }
      await ctx.store.sync();
    },
    async stop() {
      await ctx.store.sync().catch(() => undefined);
    },
  };
}
