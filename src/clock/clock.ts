// The sandbox clock: real time plus an offset kept in the store. Every time read in the
// sandbox goes through here; nothing else calls Date.now().
export interface Clock {
  now(): Date;
  /** sandbox time in epoch milliseconds (no Date made) */
  nowMs(): number;
  nowIso(): string;
  nowSeconds(): number;
  offsetMs(): number;
}

export function createClock(offsetMs: () => number, realNow: () => number = Date.now): Clock {
  const nowMs = () => realNow() + offsetMs();
  const now = () => new Date(nowMs());
  return {
    now,
    nowMs,
    nowIso: () => now().toISOString(),
    nowSeconds: () => Math.floor(nowMs() / 1000),
    offsetMs,
  };
}

/** The real clock, for process-level timing (uptime, durations) that the sandbox clock must not skew. */
export const realClock = { nowMs: (): number => Date.now() };
