// The sandbox clock (docs/decisions.md#d38-the-sandbox-clock): real time plus an offset kept in the store. Advancing commits
// the new offset, then runs every worker's due work (expiries, settlements, auto-payments,
// rule outcomes, webhook retries) before the caller answers, so that what became due is done.
import type { AppContext } from '../context.js';

export function clockView(ctx: AppContext) {
  return { now: ctx.clock.nowIso(), offsetSeconds: ctx.clock.offsetMs() / 1000 };
}

export async function advanceClock(ctx: AppContext, seconds: number) {
  await ctx.store.commit((tx) => tx.setMeta('clockOffsetMs', tx.meta.clockOffsetMs + seconds * 1000));
  await ctx.runDue();
  return clockView(ctx);
}
