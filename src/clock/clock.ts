// The sandbox clocks. The sandbox-wide clock is real time plus an offset kept in the store; each
// account (tenant) has its own clock on top of it: that clock plus the account's own offset, or
// frozen at an instant (docs/architecture.md#the-clock). Every time read in the sandbox goes
// through here; nothing else calls Date.now().
import type { AccountClockBody } from '../schemas/control.js';
import type { AccountClock } from '../store/model.js';

export interface Clock {
  now(): Date;
  /** sandbox time in epoch milliseconds (no Date made) */
  nowMs(): number;
  nowIso(): string;
  nowSeconds(): number;
  /** how far this clock is from real time, in ms */
  offsetMs(): number;
}

export function createClock(offsetMs: () => number, realNow: () => number = Date.now): Clock {
  const nowMs = () => realNow() + offsetMs();
  return clockFrom(nowMs, realNow);
}

/** A clock reading `nowMs` (its offset is measured against `realNow`). */
export function clockFrom(nowMs: () => number, realNow: () => number = Date.now): Clock {
  const now = () => new Date(nowMs());
  return {
    now,
    nowMs,
    nowIso: () => now().toISOString(),
    nowSeconds: () => Math.floor(nowMs() / 1000),
    offsetMs: () => nowMs() - realNow(),
  };
}

/** A tenant's time, given the sandbox-wide time: frozen, or the sandbox-wide time plus its own offset. */
export function tenantNowMs(clock: Readonly<AccountClock> | undefined, sandboxMs: number): number {
  if (!clock) return sandboxMs;
  return clock.frozenAtMs ?? sandboxMs + clock.offsetMs;
}

/** The tenant's clock state that puts it at `atMs` now (sandbox-wide time `sandboxMs`), frozen or flowing. */
export function tenantClockAt(atMs: number, frozen: boolean, sandboxMs: number): AccountClock {
  return frozen ? { offsetMs: 0, frozenAtMs: atMs } : { offsetMs: atMs - sandboxMs, frozenAtMs: null };
}

/** The clock of a new account (POST /_sandbox/accounts, fixtures): at `at` (default: now), frozen or flowing. */
export function newAccountClock(body: AccountClockBody | undefined, sandboxMs: number): AccountClock | undefined {
  if (!body) return undefined;
  return tenantClockAt(body.at === undefined ? sandboxMs : Date.parse(body.at), body.frozen ?? false, sandboxMs);
}

/** The real clock, for process-level timing (uptime, durations) that the sandbox clock must not skew. */
export const realClock = { nowMs: (): number => Date.now() };
