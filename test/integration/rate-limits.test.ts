// Rate limits per client (docs/api.md#rate-limits): a tenant's rateLimit gives each client token buckets
// on real time, one for API requests and one for token requests; over the limit is 429 with Retry-After,
// and every answer of a limited client carries X-RateLimit-*. Other tenants and control calls are never
// limited; a fault's retryAfterSeconds gives Retry-After without the limiter.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, errorShape } from '../helpers/control.js';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rate limits', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.stop());

  /** A new tenant with this rateLimit (or none), and a token of its account. */
  async function tenant(rateLimit?: Record<string, number> | null) {
    const a = await control(sb, 'POST', '/_sandbox/accounts', { name: 'rate', ...(rateLimit !== undefined ? { rateLimit } : {}) });
    const creds = { client_id: a.client_id as string, client_secret: a.client_secret as string };
    return { id: a.id as string, account: a, creds, token: await sb.token(creds) };
  }
  const balance = (token: string) => sb.request('GET', '/v1/banking/balance', { token });
  const hasRateHeaders = (r: HttpResult) => RATE_HEADERS.every((h) => /^\d+$/.test(r.headers.get(h) ?? ''));

  it('answers about 40 of 50 requests at once with 429 and Retry-After, then lets requests pass once it has passed', async () => {
    const t = await tenant({ requestsPerSecond: 10, burst: 10 });
    expect(t.account.rateLimit).toEqual({ requestsPerSecond: 10, burst: 10, tokenRequestsPerMinute: 10 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => balance(t.token)));
    const limited = answers.filter((r) => r.status === 429);
    // 10 at once, and a token back every 100 ms while the 50 are served (slower on a loaded machine)
    expect(limited.length).toBeGreaterThanOrEqual(33);
    expect(limited.length).toBeLessThanOrEqual(40);
    expect(answers.filter((r) => r.status === 200).length).toBe(50 - limited.length);
    for (const r of answers) expect(hasRateHeaders(r)).toBe(true);
    expect(answers.every((r) => r.headers.get('x-ratelimit-limit') === '10')).toBe(true);
    let wait = 0;
    for (const r of limited) {
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      wait = Math.max(wait, retryAfter);
      const e = errorShape(r);
      expect(e.error.code).toBe('TOO_MANY_REQUESTS');
      // the wait is in the body too, for a reader of the journal
      expect(e.message).toContain(`(Retry-After: ${retryAfter})`);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    await sleep(wait * 1000);
    const after = await balance(t.token);
    expect(after.status).toBe(200);
    expect(hasRateHeaders(after)).toBe(true);

    // the journal records the limiter's 429s with the wait
    const journal = await control(sb, 'GET', `/_sandbox/requests?accountId=${t.id}&status=429`);
    expect(journal.length).toBe(limited.length);
    expect(JSON.stringify(journal[0].responseBody)).toMatch(/Retry-After: \d+/);
  });

  it('puts the headers on every answer of a limited client, 4xx included, and leaves other tenants alone', async () => {
    const limitedT = await tenant({ requestsPerSecond: 1, burst: 5 });
    const free = await tenant();
    const notFound = await sb.request('GET', `/v1/banking/transactions/${randomUUID()}`, { token: limitedT.token });
    expect(notFound.status).toBe(404);
    expect(hasRateHeaders(notFound)).toBe(true);
    expect(notFound.headers.get('x-ratelimit-remaining')).toBe('4');
    expect(notFound.headers.get('x-ratelimit-reset')).toBe('1');
    const invalid = await sb.request('POST', '/v1/banking/cash-in/pix', { token: limitedT.token, body: { amount: -1 } });
    expect(invalid.status).toBe(400);
    expect(hasRateHeaders(invalid)).toBe(true);
    const forbidden = await sb.request('GET', '/v1/merchants/balance', { token: limitedT.token });
    expect(forbidden.status).toBe(403);
    expect(hasRateHeaders(forbidden)).toBe(true);
    // the limited tenant runs dry; the other does not notice, and its answers carry no rate headers
    const dry = await Promise.all(Array.from({ length: 10 }, () => balance(limitedT.token)));
    expect(dry.some((r) => r.status === 429)).toBe(true);
    const others = await Promise.all(Array.from({ length: 30 }, () => balance(free.token)));
    expect(others.map((r) => r.status)).toEqual(others.map(() => 200));
    expect(others.every((r) => RATE_HEADERS.every((h) => r.headers.get(h) === null))).toBe(true);
    // control calls are never limited, with the tenant's own token either
    const calls = await Promise.all(Array.from({ length: 10 }, () => sb.request('GET', '/_sandbox/faults', { token: limitedT.token })));
    expect(calls.map((r) => r.status)).toEqual(calls.map(() => 200));
    expect(calls.every((r) => r.headers.get('x-ratelimit-limit') === null)).toBe(true);
  });

  it('limits token requests on their own bucket, answered as RFC 6749 errors', async () => {
    const t = await tenant({ requestsPerSecond: 1, burst: 2, tokenRequestsPerMinute: 3 }); // its first token request is spent
    const tokenRequest = (secret = t.creds.client_secret) =>
      sb.request('POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: t.creds.client_id, client_secret: secret },
      });
    const second = await tokenRequest();
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimit-limit')).toBe('3');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
    // a wrong secret spends a token too: the limit comes before the secret is checked
    expect((await tokenRequest('wrong-secret')).status).toBe(401);
    const over = await tokenRequest();
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('temporarily_unavailable');
    expect(over.body.error_description).toMatch(/3 token requests a minute.*\(Retry-After: \d+\)$/);
    expect(over.headers.get('cache-control')).toBe('no-store');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20); // a token back every 20 s
    // API requests spend from their own bucket
    expect((await balance(t.token)).status).toBe(200);
    // an unknown client_id names no tenant: never limited, answered invalid_client
    const unknown = await sb.request('POST', '/v1/oauth/token', { body: { client_id: 'nobody-here', client_secret: 'whatever1' } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('names every bad setting at once, merges a partial PATCH, and turns off with null', async () => {
    const bad = await sb.request('POST', '/_sandbox/accounts', {
      body: { name: 'bad', rateLimit: { requestsPerSecond: 0, burst: 'many', tokenRequestsPerMinute: 10_001 } },
    });
    expect(bad.status).toBe(400);
    expect(
      errorShape(bad)
        .error.details.map((d) => d.path)
        .sort(),
    ).toEqual(['/rateLimit/burst', '/rateLimit/requestsPerSecond', '/rateLimit/tokenRequestsPerMinute']);
    const t = await tenant({ requestsPerSecond: 1, burst: 1 });
    expect((await sb.request('PATCH', `/_sandbox/accounts/${t.id}`, { body: { rateLimit: 5 } })).status).toBe(400);
    const merged = await control(sb, 'PATCH', `/_sandbox/accounts/${t.id}`, { rateLimit: { burst: 2 } });
    expect(merged.rateLimit).toEqual({ requestsPerSecond: 1, burst: 2, tokenRequestsPerMinute: 10 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => balance(t.token)));
    expect(answers.some((r) => r.status === 429)).toBe(true);
    const off = await control(sb, 'PATCH', `/_sandbox/accounts/${t.id}`, { rateLimit: null });
    expect(off.rateLimit).toBeNull();
    const free = await Promise.all(Array.from({ length: 20 }, () => balance(t.token)));
    expect(free.map((r) => r.status)).toEqual(free.map(() => 200));
    expect(free.every((r) => r.headers.get('x-ratelimit-limit') === null)).toBe(true);
    // on again with {}: the defaults
    const defaults = await control(sb, 'PATCH', `/_sandbox/accounts/${t.id}`, { rateLimit: {} });
    expect(defaults.rateLimit).toEqual({ requestsPerSecond: 10, burst: 20, tokenRequestsPerMinute: 10 });
  });

  it("gives an injected 429 or 503 fault's answer a Retry-After", async () => {
    const t = await tenant();
    const unavailable = await control(sb, 'POST', '/_sandbox/faults', {
      path: '/v1/banking/balance',
      status: 503,
      retryAfterSeconds: 7,
      times: 1,
      accountId: t.id,
    });
    expect(unavailable.retryAfterSeconds).toBe(7);
    const r503 = await balance(t.token);
    expect(r503.status).toBe(503);
    expect(r503.headers.get('retry-after')).toBe('7');
    const tooMany = await control(sb, 'POST', '/_sandbox/faults', { path: '/v1/banking/balance', status: 429, times: 1, accountId: t.id });
    expect(tooMany.retryAfterSeconds).toBe(1);
    const r429 = await balance(t.token);
    expect(r429.status).toBe(429);
    expect(r429.headers.get('retry-after')).toBe('1');
    const plain = await control(sb, 'POST', '/_sandbox/faults', { path: '/v1/banking/balance', status: 500, times: 1, accountId: t.id });
    expect(plain.retryAfterSeconds).toBeNull();
    const r500 = await balance(t.token);
    expect(r500.status).toBe(500);
    expect(r500.headers.get('retry-after')).toBeNull();
    for (const body of [
      { path: '/v1/**', status: 500, retryAfterSeconds: 5 },
      { path: '/v1/**', latencyMs: 10, retryAfterSeconds: 5 },
      { path: '/v1/**', status: 429, retryAfterSeconds: 0 },
      { path: '/v1/**', status: 503, retryAfterSeconds: 3601 },
    ]) {
      const r = await sb.request('POST', '/_sandbox/faults', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(errorShape(r).message).toMatch(/retryAfterSeconds/);
    }
    expect((await control(sb, 'GET', `/_sandbox/faults?accountId=${t.id}`)).length).toBe(0);
  });
});
