// Injected faults (served exactly as configured, then stopping; reproducible probabilities) and
// the admin token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { errorShape } from '../helpers/control.js';

describe('faults', () => {
  let sb: TestSandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startTestSandbox();
    token = await sb.token();
  });
  afterAll(() => sb.stop());

  it('serves status, code and latency exactly `times` times, then stops', async () => {
    const f = await sb.request('POST', '/_sandbox/faults', {
      body: {
        method: 'get',
        path: '/v1/banking/balance',
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'down for maintenance',
        latencyMs: 150,
        times: 2,
      },
    });
    expect(f.status).toBe(201);
    expect(f.body).toMatchObject({
      method: 'GET',
      path: '/v1/banking/balance',
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      latencyMs: 150,
      remaining: 2,
      probability: 1,
      hits: 0,
    });
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      const r = await sb.request('GET', '/v1/banking/balance', { token });
      expect(performance.now() - started).toBeGreaterThanOrEqual(145);
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ statusCode: 503, message: 'down for maintenance', error: { code: 'SERVICE_UNAVAILABLE', details: [] } });
      expect(r.headers.get('x-sandbox-fault')).toBe(f.body.id);
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
    const after = await sb.request('GET', '/v1/banking/balance', { token });
    expect(after.status).toBe(200);
    expect(after.headers.get('x-sandbox-fault')).toBeNull();
    expect((await sb.request('GET', '/_sandbox/faults')).body).toEqual([]);
  });

  it('matches by method and by path pattern, and leaves other requests alone', async () => {
    await sb.request('POST', '/_sandbox/faults', { body: { method: 'POST', path: '/v1/banking/transactions/:id', status: 500 } });
    await sb.request('POST', '/_sandbox/faults', { body: { path: '/v1/merchants/*/nothing/**', status: 429 } });
    const id = '5d5d5d5d-0000-4000-8000-000000000000';
    expect((await sb.request('GET', `/v1/banking/transactions/${id}`, { token })).status).toBe(404); // GET: not matched
    const post = await sb.request('POST', `/v1/banking/transactions/${id}/`, { token });
    expect(post.status).toBe(500);
    expect(errorShape(post).error.code).toBe('INTERNAL_ERROR');
    const deep = await sb.request('GET', '/v1/merchants/abc/nothing/x/y?z=1', { token });
    expect(errorShape(deep).error.code).toBe('TOO_MANY_REQUESTS');
    expect((await sb.request('GET', '/v1/merchants/abc/nothing', { token })).status).toBe(429); // ** matches no segment too
    expect((await sb.request('GET', '/v1/merchants/abc/other', { token })).status).not.toBe(429);
    expect((await sb.request('GET', '/v1/banking/balance', { token })).status).toBe(200);
    const list = await sb.request('GET', '/_sandbox/faults');
    expect(list.body.map((f: any) => [f.remaining, f.hits])).toEqual([
      [null, 1],
      [null, 2],
    ]);
    await sb.request('DELETE', `/_sandbox/faults/${list.body[0].id}`);
    expect((await sb.request('POST', `/v1/banking/transactions/${id}`, { token })).status).not.toBe(500);
    expect((await sb.request('DELETE', '/_sandbox/faults')).status).toBe(204);
    expect((await sb.request('GET', '/v1/merchants/abc/nothing', { token })).status).not.toBe(429);
  });

  it('latency without a status delays, then the request proceeds normally', async () => {
    await sb.request('POST', '/_sandbox/faults', { body: { path: '/v1/banking/balance', latencyMs: 120, times: 1 } });
    const started = performance.now();
    const r = await sb.request('GET', '/v1/banking/balance', { token });
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(r.status).toBe(200);
    expect(r.body.data.balance).toBe(1_000_000);
  });

  it('never faults its own removal or the health check', async () => {
    await sb.request('POST', '/_sandbox/faults', { body: { path: '/**', status: 503 } });
    expect((await sb.request('GET', '/v1/banking/balance', { token })).status).toBe(503);
    expect((await sb.request('GET', '/_sandbox/health')).status).toBe(200);
    expect((await sb.request('GET', '/_sandbox/faults')).status).toBe(200);
    expect((await sb.request('DELETE', '/_sandbox/faults')).status).toBe(204);
    expect((await sb.request('GET', '/v1/banking/balance', { token })).status).toBe(200);
  });

  it('validates fault bodies', async () => {
    const cases: [unknown, string][] = [
      [{ status: 500 }, '/path'],
      [{ path: 'v1/no-slash', status: 500 }, '/path'],
      [{ path: '/v1/x' }, '/'],
      [{ path: '/v1/x', status: 200 }, '/status'],
      [{ path: '/v1/x', status: 500, probability: 0 }, '/probability'],
      [{ path: '/v1/x', status: 500, times: 0 }, '/times'],
      [{ path: '/v1/x', status: 500, method: 'BREW' }, '/method'],
      [{ path: '/v1/x', status: 500, code: 'lower' }, '/code'],
      [{ path: '/v1/x', latencyMs: 60_001 }, '/latencyMs'],
    ];
    for (const [body, at] of cases) {
      const r = await sb.request('POST', '/_sandbox/faults', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(
        errorShape(r).error.details.map((d) => d.path),
        JSON.stringify(body),
      ).toContain(at);
    }
    expect((await sb.request('GET', '/_sandbox/faults')).body).toEqual([]);
  });
});

describe('fault probability', () => {
  async function pattern(sb: TestSandbox, token: string): Promise<string> {
    let out = '';
    for (let i = 0; i < 40; i++) out += (await sb.request('GET', '/v1/banking/balance', { token })).status === 500 ? 'x' : '.';
    return out;
  }

  it('is reproducible: the same seed gives the same faults, after a reset too; another seed differs', async () => {
    const a = await startTestSandbox({ seed: 42 });
    const b = await startTestSandbox({ seed: 42 });
    const c = await startTestSandbox({ seed: 7 });
    try {
      const runs: string[] = [];
      for (const sb of [a, b, c]) {
        await sb.request('POST', '/_sandbox/faults', { body: { path: '/v1/banking/balance', status: 500, probability: 0.5 } });
        runs.push(await pattern(sb, await sb.token()));
      }
      expect(runs[0]).toMatch(/x/);
      expect(runs[0]).toMatch(/\./);
      expect(runs[1]).toBe(runs[0]);
      expect(runs[2]).not.toBe(runs[0]);
      // reset starts the sequence over
      await a.request('POST', '/_sandbox/reset');
      await a.request('POST', '/_sandbox/faults', { body: { path: '/v1/banking/balance', status: 500, probability: 0.5 } });
      expect(await pattern(a, await a.token())).toBe(runs[0]);
      const hits = (await a.request('GET', '/_sandbox/faults')).body[0].hits;
      expect(hits).toBe([...runs[0]!].filter((ch) => ch === 'x').length);
    } finally {
      await Promise.all([a.stop(), b.stop(), c.stop()]);
    }
  });
});

describe('admin token', () => {
  let sb: TestSandbox;
  const ADMIN = { 'x-sandbox-admin-token': 's3cret-admin' };
  beforeAll(async () => {
    sb = await startTestSandbox({ adminToken: 's3cret-admin' });
  });
  afterAll(() => sb.stop());

  it('every control call needs the header; health stays open; the public API is not affected', async () => {
    for (const [method, p] of [
      ['GET', '/_sandbox/accounts'],
      ['POST', '/_sandbox/reset'],
      ['GET', '/_sandbox/clock'],
      ['POST', '/_sandbox/clock/advance'],
      ['GET', '/_sandbox/requests'],
      ['GET', '/_sandbox/faults'],
      ['DELETE', '/_sandbox/faults'],
      ['GET', '/_sandbox/nothing-here'],
    ] as const) {
      const none = await sb.request(method, p);
      expect(none.status, `${method} ${p}`).toBe(401);
      expect(errorShape(none).error.code).toBe('UNAUTHORIZED');
      const wrong = await sb.request(method, p, { headers: { 'x-sandbox-admin-token': 's3cret-admin-not' } });
      expect(wrong.status).toBe(401);
    }
    expect((await sb.request('GET', '/_sandbox/accounts', { headers: ADMIN })).status).toBe(200);
    expect((await sb.request('POST', '/_sandbox/clock/advance', { headers: ADMIN, body: { seconds: 1 } })).status).toBe(200);
    expect((await sb.request('GET', '/_sandbox/health')).status).toBe(200);
    expect((await sb.request('GET', '/v1/banking/balance', { token: await sb.token() })).status).toBe(200);
  });
});
