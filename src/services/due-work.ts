// The due-work runner: applies what dueActions() says is due by each tenant's clock (expiries,
// auto-payments, rule outcomes, settlements) and prunes idempotency records past their 24 hours.
// Each action is its own atomic change, so one that is refused never undoes the others; all of
// them share one durable write. Both read each account's part of grouped ordered indexes
// (schema.ts) with that account's now: a tick costs O(tenants · log N + due), not what is stored.
// A tick leaves alone the tenants an advance is walking (services/clock-walk.ts runs their due work).
import type { AppContext, Worker } from '../context.js';
import { dueActions, type DueAction } from '../domain/due.js';
import { SandboxError } from '../domain/errors.js';
import { take } from '../store/page.js';
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

/** The tenants a tick serves: every account but those an advance is walking. */
export function tickedAccounts(ctx: AppContext): string[] {
  const out: string[] = [];
  for (const a of ctx.store.accounts.scan({ order: 'oldest' })) if (!ctx.walking.has(a.id)) out.push(a.id);
  return out;
}

/** The actions due now by each account's clock, oldest first within an account; at most `limit` of them. */
function dueNow(ctx: AppContext, accountIds: readonly string[], limit: number): DueAction[] {
  const out: DueAction[] = [];
  for (const id of accountIds) {
    const nowMs = ctx.nowMsOf(id);
    const candidates = take(ctx.store.transactions.orderedIn('due', id, nowMs), limit - out.length);
    out.push(...dueActions(candidates, new Date(nowMs)));
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Applies the actions due now (every tenant but those walking by default; at most `limit`),
 * oldest first within each tenant; returns how many were applied. Synchronous.
 */
export function applyDueNow(ctx: AppContext, accountIds: readonly string[] = tickedAccounts(ctx), limit = Infinity): number {
  const actions = dueNow(ctx, accountIds, limit);
  let applied = 0;
  for (const a of actions) {
    try {
      ctx.store.apply((tx) => applyDue(tx, ctx, a));
      applied++;
    } catch (e) {
      // a refused action (e.g. a control call closed the transaction first) is skipped; anything else is a bug worth a log line
      if (!(e instanceof SandboxError)) console.error(`[pix-sandbox] due ${a.kind} of ${a.transactionId} failed:`, e);
    }
  }
  return applied;
}

/** Removes the idempotency records past their 24 hours (isLive) by their tenant's clock; returns how many. */
export function pruneIdempotency(ctx: AppContext, accountIds: readonly string[] = tickedAccounts(ctx)): number {
  const ids: string[] = [];
  for (const id of accountIds) for (const r of ctx.store.idempotency.orderedIn('byExpiry', id, ctx.nowMsOf(id))) ids.push(r.id);
  if (ids.length > 0) ctx.store.apply((tx) => ids.forEach((id) => tx.remove('idempotency', id)));
  return ids.length;
}

export function dueWorker(ctx: AppContext): Worker {
  return {
    async runDue() {
      const accounts = tickedAccounts(ctx);
      applyDueNow(ctx, accounts);
      pruneIdempotency(ctx, accounts);
      await ctx.store.sync();
    },
    async stop() {
      await ctx.store.sync().catch(() => undefined);
    },
  };
}
