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
import { realClock } from '../clock/clock.js';
import { SandboxError } from '../domain/errors.js';
import { pastLatestClock } from '../domain/time-bounds.js';
import { MAX_ADVANCE_SECONDS, type ClockAdvanceBody } from '../schemas/control-sandbox.js';
import { clockTargets, clockView, movedClock, type ClockView } from './clock.js';
import { applyDueNow, pruneIdempotency } from './due-work.js';

/** due actions applied before the walk yields, when many fall due at one instant */
const ACTIONS_PER_TURN = 250;
/** steps without webhook attempts run back to back for at most this long before the walk yields */
const YIELD_EVERY_MS = 4;

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
  const spanMs = spanOf(body, accountId === undefined ? ctx.clock.nowMs() : ctx.nowMsOf(accountId));
  const start = new Map(movers.map((id) => [id, ctx.nowMsOf(id)]));
  // no clock may be taken to the bound (src/domain/time-bounds.ts): checked before anything moves
  const latest = Math.max(accountId === undefined ? ctx.clock.nowMs() : -Infinity, ...start.values());
  const tooFar = pastLatestClock(body.to === undefined ? '/seconds' : '/to', latest + spanMs);
  if (tooFar) throw tooFar;
  const generation = ctx.store.generation; // a reset meanwhile ends the walk: its tenants are gone
  const hold = (offset: number) => {
    for (const [id, ms] of start) ctx.walking.set(id, ms + offset);
  };
  hold(0);
  try {
    await dispatch(ctx, movers, ACTIONS_PER_TURN); // what was already due when the walk began
    let offset = 0;
    let yielded = realClock.nowMs();
    let emitted = false; // due actions applied since the last step that announced (their events must be durable first)
    for (;;) {
      const next = nextStep(ctx, start, offset);
      if (next > spanMs || ctx.store.generation !== generation) break;
      const before = offset;
      offset = next;
      hold(offset);
      let applied: number;
      do {
        applied = applyDueNow(ctx, movers, ACTIONS_PER_TURN);
        if (applied > 0) emitted = true;
        if (applied >= ACTIONS_PER_TURN) await nextTurn();
      } while (applied >= ACTIONS_PER_TURN);
      // webhook attempts only when one fell due in this step (a retry, or an event just emitted)
      if (deliveryDue(ctx, start, before, offset)) {
        if (ctx.dispatcher) await ctx.dispatcher.runFor(movers, emitted);
        emitted = false;
        yielded = realClock.nowMs();
      } else if (realClock.nowMs() - yielded >= YIELD_EVERY_MS) {
        await nextTurn();
        yielded = realClock.nowMs();
      }
    }
    hold(spanMs);
    pruneIdempotency(ctx, movers);
    await ctx.store.commit((tx) => {
      if (ctx.store.generation !== generation) return;
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

/** The offset (ms since the walk began) of the earliest thing due after `offset` among the moving tenants. */
function nextStep(ctx: AppContext, start: ReadonlyMap<string, number>, offset: number): number {
  let next = Infinity;
  for (const [id, from] of start) {
    const held = from + offset;
    const t = ctx.store.transactions.firstAfter('due', id, held);
    const d = ctx.store.deliveries.firstAfter('byNextAttempt', id, held);
    if (t !== null) next = Math.min(next, t - from);
    if (d !== null) next = Math.min(next, d - from);
  }
  return next;
}

/** Whether a moving tenant has a delivery whose attempt falls due in (from, to] (offsets). */
function deliveryDue(ctx: AppContext, start: ReadonlyMap<string, number>, from: number, to: number): boolean {
  for (const [id, base] of start) {
    const d = ctx.store.deliveries.firstAfter('byNextAttempt', id, base + from);
    if (d !== null && d <= base + to) return true;
  }
  return false;
}

/** The due actions (a turn at a time when `limit`), then the webhook attempts due at the held instant, awaited. */
async function dispatch(ctx: AppContext, movers: readonly string[], limit: number): Promise<void> {
  if (limit > 0) while (applyDueNow(ctx, movers, limit) >= limit) await nextTurn();
  if (ctx.dispatcher) await ctx.dispatcher.runFor(movers);
  else await ctx.store.sync();
}
