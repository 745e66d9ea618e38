// The clocks (docs/architecture.md#the-clock): the sandbox-wide one (real time plus an offset kept
// in the store's meta) and each tenant's own (on its account record: an offset on top of the
// sandbox-wide clock, or frozen at an instant). Reading, freezing and unfreezing live here; an
// advance walks through time (services/clock-walk.ts).
import type { Wire } from '../schemas/from-schema.js';
import type { clockSchema } from '../schemas/control-responses.js';
import { realClock, tenantClockAt, tenantNowMs } from '../clock/clock.js';
import type { AppContext } from '../context.js';
import type { AccountClock } from '../store/model.js';
import type { Tx } from '../store/store.js';
import { requireAccount } from './accounts.js';

/** `accountId` null: the sandbox-wide clock; `offsetSeconds`: how far the clock is from real time. */
export type ClockView = Wire<typeof clockSchema>;

/** A tenant's clock, or the sandbox-wide one without `accountId` (404 for an unknown account). */
export function clockView(ctx: AppContext, accountId?: string): ClockView {
  if (accountId === undefined)
    return { accountId: null, now: ctx.clock.nowIso(), offsetSeconds: ctx.clock.offsetMs() / 1000, frozen: false };
  const account = requireAccount(ctx.store, accountId.toLowerCase());
  const nowMs = ctx.nowMsOf(account.id);
  const frozen = (account.clock?.frozenAtMs ?? null) !== null;
  const offsetMs = frozen ? nowMs - realClock.nowMs() : ctx.store.meta.clockOffsetMs + (account.clock?.offsetMs ?? 0);
  return { accountId: account.id, now: new Date(nowMs).toISOString(), offsetSeconds: offsetMs / 1000, frozen };
}

/** The accounts a clock call moves: one (404 when unknown), or every account. */
export function clockTargets(tx: Pick<Tx, 'accounts'>, accountId: string | undefined): string[] {
  if (accountId !== undefined) return [requireAccount(tx as Tx, accountId.toLowerCase()).id];
  return Array.from(tx.accounts.scan({ order: 'oldest' }), (a) => a.id);
}

/** Freezes (or unfreezes) one tenant's clock, or every tenant's, where it stands now. */
export async function setFrozen(ctx: AppContext, accountId: string | undefined, frozen: boolean): Promise<ClockView> {
  await ctx.advancing; // not in the middle of a walk
  await ctx.store.commit((tx) => {
    const sandboxMs = ctx.clock.nowMs();
    for (const id of clockTargets(tx, accountId)) {
      const a = tx.accounts.get(id)!;
      const isFrozen = (a.clock?.frozenAtMs ?? null) !== null;
      if (isFrozen === frozen) continue;
      tx.put('accounts', { ...a, clock: tenantClockAt(tenantNowMs(a.clock, sandboxMs), frozen, sandboxMs) });
    }
  });
  return clockView(ctx, accountId);
}

/** The clock moved forward by `ms`: frozen ones stand `ms` later, flowing ones flow `ms` ahead. */
export function movedClock(c: Readonly<AccountClock> | undefined, ms: number): AccountClock {
  if (c && c.frozenAtMs !== null) return { ...c, frozenAtMs: c.frozenAtMs + ms };
  return { offsetMs: (c?.offsetMs ?? 0) + ms, frozenAtMs: null };
}
