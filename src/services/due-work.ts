// The due-work runner: applies what dueActions() says is due by the sandbox clock (expiries,
// auto-payments, rule outcomes, settlements) and prunes idempotency records past their 24 hours.
// Each action is its own atomic change, so one that is refused never undoes the others; all of
// them share one durable write. Both read ordered indexes (schema.ts): a tick costs what is due,
// not what is stored.
import type { AppContext, Worker } from '../context.js';
import { dueActions, type DueAction } from '../domain/due.js';
import { SandboxError } from '../domain/errors.js';
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
  const now = ctx.clock.now();
  const actions = dueActions(store.transactions.ordered('due', now.getTime()), now);
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

/** Removes the idempotency records past their 24 hours (isLive); returns how many. */
export function pruneIdempotency(ctx: AppContext): number {
  const ids: string[] = [];
  for (const r of ctx.store.idempotency.ordered('byExpiry', ctx.clock.now().getTime())) ids.push(r.id);
  if (ids.length > 0) ctx.store.apply((tx) => ids.forEach((id) => tx.remove('idempotency', id)));
  return ids.length;
}

export function dueWorker(ctx: AppContext): Worker {
  return {
    async runDue() {
      applyDueNow(ctx);
      pruneIdempotency(ctx);
      await ctx.store.sync();
    },
    async stop() {
      await ctx.store.sync().catch(() => undefined);
    },
  };
}
