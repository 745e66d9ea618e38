// Rate limits per client (docs/decisions.md#d80-rate-limits-per-client): a tenant that sets `rateLimit`
// gives each of its clients (an account's or a merchant's client_id) two token buckets, one for API
// requests and one for token requests. A bucket holds up to `capacity` tokens, refills `perSecond`
// tokens a second, and a request takes one or is refused with the wait until one is back.
//
// Buckets run on real time (the caller passes a monotonic now): the app under test keeps a real pace,
// whatever its tenant's sandbox clock says. Memory is bounded: a bucket that has refilled to full is
// the same as no bucket, so each take drops up to two of the least recently used ones that are full by
// now; a hard cap drops the least recently used one beyond it (that client starts again full).
import type { RateLimit } from '../store/model.js';

/** What `rateLimit` fields left out of a setting become (the one place its defaults live). */
export const DEFAULT_RATE_LIMIT: Readonly<RateLimit> = { requestsPerSecond: 10, burst: 20, tokenRequestsPerMinute: 10 };

/**
 * A setting as given (null: off, undefined: unchanged) over the one in force, with each field left out
 * taken from the one in force, else from the defaults.
 */
export function rateLimitSetting(given: Partial<RateLimit> | null | undefined, current: RateLimit | null | undefined): RateLimit | null {
  if (given === undefined) return current ?? null;
  if (given === null) return null;
  const base = current ?? DEFAULT_RATE_LIMIT;
  return {
    requestsPerSecond: given.requestsPerSecond ?? base.requestsPerSecond,
    burst: given.burst ?? base.burst,
    tokenRequestsPerMinute: given.tokenRequestsPerMinute ?? base.tokenRequestsPerMinute,
  };
}

/** A bucket's size and pace: API requests (`burst`, `requestsPerSecond`) or token requests (a minute's worth). */
export interface BucketShape {
  capacity: number;
  perSecond: number;
}

export const apiBucket = (r: RateLimit): BucketShape => ({ capacity: r.burst, perSecond: r.requestsPerSecond });
export const tokenBucket = (r: RateLimit): BucketShape => ({
  capacity: r.tokenRequestsPerMinute,
  perSecond: r.tokenRequestsPerMinute / 60,
});

interface Bucket extends BucketShape {
  tokens: number;
  atMs: number;
}

/** One request's account with its bucket: what the X-RateLimit-* headers and Retry-After say. */
export interface Take {
  allowed: boolean;
  /** the bucket's capacity */
  limit: number;
  /** whole tokens left after this request */
  remaining: number;
  /** whole seconds until the bucket is full again (0: full) */
  resetSeconds: number;
  /** whole seconds until a token is back (at least 1); meaningful when refused */
  retryAfterSeconds: number;
}

const refilled = (b: Bucket, nowMs: number): number => Math.min(b.capacity, b.tokens + ((nowMs - b.atMs) * b.perSecond) / 1000);

/** The token buckets of one sandbox, by key (a bucket kind and a client_id). Each take is O(1). */
export class Buckets {
  // insertion order is recency: a take moves its bucket to the end, so the head is the idlest
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly max = 100_000) {}

  get size(): number {
    return this.buckets.size;
  }

  take(key: string, shape: BucketShape, nowMs: number): Take {
    const had = this.buckets.get(key);
    // a changed setting takes effect at once: the tokens held are kept, up to the new capacity
    const tokens = had ? refilled({ ...had, capacity: shape.capacity }, nowMs) : shape.capacity;
    if (had) this.buckets.delete(key);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(key, { capacity: shape.capacity, perSecond: shape.perSecond, tokens: left, atMs: nowMs });
    this.dropIdle(nowMs);
    return {
      allowed,
      limit: shape.capacity,
      remaining: Math.floor(left),
      resetSeconds: Math.ceil((shape.capacity - left) / shape.perSecond),
      retryAfterSeconds: Math.max(1, Math.ceil((1 - left) / shape.perSecond)),
    };
  }

  clear(): void {
    this.buckets.clear();
  }

  /** Up to two of the idlest buckets, when full by now; and the idlest beyond the cap, full or not. */
  private dropIdle(nowMs: number): void {
    for (let i = 0; i < 2; i++) {
      const head = this.buckets.entries().next();
      if (head.done) return;
      const [key, b] = head.value;
      if (this.buckets.size > this.max || refilled(b, nowMs) >= b.capacity) this.buckets.delete(key);
      else return;
    }
  }
}
