// An advance walks through time (docs/architecture.md#the-clock): the moving tenants are held at
// the instant of each step in turn, from the earliest thing due among them (a transaction's next
// action, a delivery's next attempt, including the retries the walk itself schedules) to the
// last one within the window; at each step their due work is applied and the webhook attempts due
// then are made and awaited, so every record carries its own sandbox instant. Everything due at
// one instant is one step. Between steps the walk yields to the event loop, so that other
// tenants' requests are served during a long walk; the ticker leaves walking tenants alone
// (ctx.walking), and one walk runs at a time (ctx.advancing). Finding the next step costs a
// search per moving tenant in its own ordered indexes: O(tenants · log N), never a scan.
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import { MAX_ADVANCE_SECONDS, type ClockAdvanceBody } from '../schemas/control.js';
import { clockTargets, clockView, movedClock, type ClockView } from '../services/clock.js';
import { applyDueNow, pruneIdempotency } from '../services/due-work.js';

/** due actions applied before the walk yields, when many fall due at one instant */
const ACTIONS_PER_TURN = 250;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Advances one tenant (`accountId`) or every tenant; answers once the walk is committed. */
export function advanceClock(ctx: AppContext, body: ClockAdvanceBody): Promise<ClockView> {
  const run = ctx.advancing.then(() => walk(ctx, body));
  ctx.advancing = run.catch(() => undefined);
  return run;
}

/** How far to move, in ms: `seconds`, or up to `to` (forward only, at most 30 days). */
function spanOf(body: ClockAdvanceBody, fromMs: number): number {
  if (body.to === undefined) return body.seconds! * 1000;
  const span = Date.parse(body.to) - fromMs;
  const now = new Date(fromMs).toISOString();
  if (!(span > 0))
    throw new SandboxError('VALIDATION_ERROR', `to must be after the clock's now (${now}): the clock only moves forward`, [
      { path: '/to', message: `must be after the clock's now (${now})` },
    ]);
  if (span > MAX_ADVANCE_SECONDS * 1000)
    throw new SandboxError('VALIDATION_ERROR', `to must be at most 30 days after the clock's now (${now})`, [
      { path: '/to', message: `must be at most 30 days after the clock's now (${now})` },
    ]);
  return span;
}

async function walk(ctx: AppContext, body: ClockAdvanceBody): Promise<ClockView> {
  const accountId = body.accountId?.toLowerCase();
  const movers = clockTargets(ctx.store, accountId);
  const spanMs = spanOf(body, accountId === undefined ? ctx.clock.nowMs() : ctx.clockOf(accountId).nowMs());
  const start = new Map(movers.map((id) => [id, ctx.clockOf(id).nowMs()]));
  const hold = (offset: number) => {
    for (const [id, ms] of start) ctx.walking.set(id, ms + offset);
  };
  hold(0);
  try {
    let offset = 0;
    await runStep(ctx, movers); // what was already due when the walk began
    for (;;) {
      let next = Infinity;
      for (const [id, from] of start) {
        const held = from + offset;
        const t = ctx.store.transactions.firstAfter('due', id, held);
        const d = ctx.store.deliveries.firstAfter('byNextAttempt', id, held);
        if (t !== null) next = Math.min(next, t - from);
        if (d !== null) next = Math.min(next, d - from);
      }
      if (next > spanMs) break;
      offset = next;
      hold(offset);
      await nextTurn();
      await runStep(ctx, movers);
    }
    await ctx.store.commit((tx) => {
      if (accountId === undefined) tx.setMeta('clockOffsetMs', tx.meta.clockOffsetMs + spanMs);
      for (const id of movers) {
        const a = tx.accounts.get(id);
        if (!a) continue; // removed by a reset meanwhile
        // every tenant moves with the sandbox-wide offset; only frozen ones (and the one moved alone) need their own change
        if (accountId !== undefined || (a.clock?.frozenAtMs ?? null) !== null)
          tx.put('accounts', { ...a, clock: movedClock(a.clock, spanMs) });
      }
    });
  } finally {
    for (const id of movers) ctx.walking.delete(id);
  }
  return clockView(ctx, accountId);
}

/** What is due at the held instant: transactions' actions (a turn at a time), idempotency pruning, then the webhook attempts. */
async function runStep(ctx: AppContext, movers: readonly string[]): Promise<void> {
  while (applyDueNow(ctx, movers, ACTIONS_PER_TURN) >= ACTIONS_PER_TURN) await nextTurn();
  pruneIdempotency(ctx, movers);
  await ctx.store.sync();
  if (ctx.dispatcher) await ctx.dispatcher.runFor(movers);
}
