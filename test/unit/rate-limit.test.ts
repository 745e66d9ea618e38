// The token buckets of the rate limit (docs/decisions.md#d80-rate-limits-per-client), on a given time:
// capacity at once, refill by the second, the waits they report, a changed setting, and bounded memory.
import { describe, expect, it } from 'vitest';
import { apiBucket, Buckets, DEFAULT_RATE_LIMIT, rateLimitSetting, tokenBucket } from '../../src/domain/rate-limit.js';

describe('rate limit buckets', () => {
  it('lets `burst` requests through at once, then one per refill, with the waits and headers it reports', () => {
    const b = new Buckets();
    const shape = apiBucket({ requestsPerSecond: 10, burst: 3, tokenRequestsPerMinute: 1 });
    const takes = [0, 0, 0, 0].map(() => b.take('api a', shape, 1000));
    expect(takes.map((t) => t.allowed)).toEqual([true, true, true, false]);
    expect(takes.map((t) => t.remaining)).toEqual([2, 1, 0, 0]);
    expect(takes[0]!).toMatchObject({ limit: 3, resetSeconds: 1 });
    expect(takes[3]!.retryAfterSeconds).toBe(1); // 100 ms away, in whole seconds
    expect(b.take('api a', shape, 1050).allowed).toBe(false);
    expect(b.take('api a', shape, 1100).allowed).toBe(true);
    // another key has its own bucket
    expect(b.take('api b', shape, 1100).remaining).toBe(2);
  });

  it('gives token requests a minute of tokens, one back every 60 / N seconds', () => {
    const b = new Buckets();
    const shape = tokenBucket({ ...DEFAULT_RATE_LIMIT, tokenRequestsPerMinute: 2 });
    b.take('token c', shape, 0);
    b.take('token c', shape, 0);
    const over = b.take('token c', shape, 0);
    expect(over).toMatchObject({ allowed: false, limit: 2, remaining: 0, retryAfterSeconds: 30, resetSeconds: 60 });
  });

  it('keeps the tokens held when the setting changes, up to the new size', () => {
    const b = new Buckets();
    b.take('api a', { capacity: 10, perSecond: 1 }, 0);
    expect(b.take('api a', { capacity: 2, perSecond: 1 }, 0).remaining).toBe(1);
  });

  it('drops idle buckets once full, and never holds more than its cap', () => {
    const b = new Buckets(3);
    for (let i = 0; i < 3; i++) b.take(`api ${i}`, { capacity: 5, perSecond: 1 }, 0);
    expect(b.size).toBe(3);
    // 10 s later the three are full again: each take drops up to two of them
    b.take('api x', { capacity: 5, perSecond: 1 }, 10_000);
    b.take('api y', { capacity: 5, perSecond: 1 }, 10_000);
    expect(b.size).toBe(2);
    for (let i = 0; i < 10; i++) b.take(`api busy ${i}`, { capacity: 5, perSecond: 0.001 }, 10_000);
    expect(b.size).toBeLessThanOrEqual(3);
  });

  it('fills a setting from the one in force, else the defaults; null turns it off, undefined keeps it', () => {
    expect(rateLimitSetting({}, null)).toEqual(DEFAULT_RATE_LIMIT);
    const on = { requestsPerSecond: 1, burst: 2, tokenRequestsPerMinute: 3 };
    expect(rateLimitSetting({ burst: 9 }, on)).toEqual({ ...on, burst: 9 });
    expect(rateLimitSetting(undefined, on)).toBe(on);
    expect(rateLimitSetting(null, on)).toBeNull();
  });
});
