// How far a sandbox clock may go (docs/control-api.md#clock, docs/decisions.md#d71-clocks-stop-short-of-year-9999).
// Every instant the sandbox writes is an ISO 8601 string with a four-digit year, so the last one it can
// write is 9999-12-31T23:59:59.999Z. A clock stops short of it by more than the longest chain of spans
// the sandbox adds to a clock's time: a charge's expiry, an auto-payment or an outcome rule (30 days
// each at most), a settlement (1 day), a webhook fault's delay (30 days), the webhook retry schedule
// (30 days in all at most) and an idempotency record's life (1 day), 92 days in all. So every date
// computed from a clock before the bound stays one the sandbox can write, parse and compare.
import { SandboxError } from './errors.js';

const LATEST_CLOCK_ISO = '9999-01-01T00:00:00.000Z';
const LATEST_CLOCK_MS = Date.parse(LATEST_CLOCK_ISO);

/** The webhook retry schedule's seconds in all, at most (--webhook-retry): one of the spans above. */
export const MAX_RETRY_SCHEDULE_SECONDS = 2_592_000;

/** A 400 naming `field` when a clock would stand at or past the bound at `atMs`; null when it would not. */
export function pastLatestClock(field: string, atMs: number): SandboxError | null {
  if (atMs < LATEST_CLOCK_MS) return null;
  const at = Number.isFinite(atMs) && atMs < 8.64e15 ? new Date(atMs).toISOString() : 'beyond any date';
  const name = field.split('/').filter(Boolean).join('.');
  return new SandboxError(
    'VALIDATION_ERROR',
    `${name} would take a clock to ${at}, not before ${LATEST_CLOCK_ISO}: clocks stay before it`,
    [{ path: field, message: `must keep the clock before ${LATEST_CLOCK_ISO}` }],
  );
}
