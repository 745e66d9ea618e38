// Verifying what the app sent (docs/control-api.md#verifying-requests): counts, header, query and body
// matching on the journal's redacted view, sequences, waiting for a request sent later, near misses that
// name the differing field, bad matchers named at once, and a tenant's token confined to its journal.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ControlClient, type VerificationFailure } from '../../src/client/control-client.js';
import { SandboxApiError } from '../../src/client/transport.js';
import { control, createCharge, createTransfer, errorShape } from '../helpers/control.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let token: string;

const verify = (body: unknown) => sb.request('POST', '/_sandbox/verify', { body });
const sequence = (body: unknown) => sb.request('POST', '/_sandbox/verify/sequence', { body });
const balance = (query = '') => sb.request('GET', `/v1/banking/balance${query}`, { token });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  sb = await startTestSandbox();
  token = await sb.token();
});
afterAll(() => sb.stop());
beforeEach(async () => {
  await control(sb, 'DELETE', '/_sandbox/requests');
});

describe('POST /_sandbox/verify', () => {
  it('counts matching requests against atLeast and atMost (default: at least one), listing their seqs newest first', async () => {
    for (let i = 0; i < 3; i++) await balance();
    const request = { method: 'get', path: '/v1/banking/:what' };
    const held = await verify({ request });
    expect(held.status).toBe(200);
    expect(held.body.ok).toBe(true);
    expect(held.body.count).toBe(3);
    expect(held.body.matches).toEqual([...held.body.matches].sort((a: number, b: number) => b - a));
    expect((await verify({ request, times: { atLeast: 3, atMost: 3 } })).status).toBe(200);

    const tooFew = await verify({ request, times: { atLeast: 4 } });
    expect(tooFew.status).toBe(422);
    expect(tooFew.body.error).toMatchObject({ code: 'VERIFICATION_FAILED', count: 3 });
    expect(tooFew.body.message).toBe('expected at least 4 requests matching GET /v1/banking/:what, found 3');
    const tooMany = await verify({ request, times: { atMost: 2 } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toBe('expected at most 2 requests matching GET /v1/banking/:what, found 3');
    expect(tooMany.body.error.nearMisses).toEqual([]);
    expect((await verify({ request: { path: '/v1/banking/transactions/*' } })).status).toBe(422);
    expect((await verify({ request: { path: '/v1/**' }, times: { atMost: 0 } })).body.error.count).toBe(3);
  });

  it('matches headers (any case; exact, a regex, absent), the query and the body as a subset, on the redacted view', async () => {
    const key = randomUUID();
    await sb.request('POST', '/v1/banking/cash-out/pix', {
      token,
      headers: { 'x-idempotency-key': key },
      body: {
        type: 'pix_key',
        description: 'verify me',
        amount: '1000',
        details: { name: 'Recebedor', key: '11144477735', keyType: 'CPF' },
      },
    });
    await balance('?page=2&page=3');
    const cashOut = { method: 'POST', path: '/v1/banking/cash-out/pix' };
    const holds = async (request: object, status?: unknown) =>
      (await verify({ request: { ...cashOut, ...request }, ...(status !== undefined ? { status } : {}) })).status;
    expect(await holds({ headers: { 'X-Idempotency-Key': key } })).toBe(200);
    expect(await holds({ headers: { 'x-idempotency-key': { matches: '^[0-9a-f-]{36}$' }, 'x-retry': { absent: true } } })).toBe(200);
    expect(await holds({ headers: { 'x-idempotency-key': { absent: true } } })).toBe(422);
    // secrets are matched as the journal shows them
    expect(await holds({ headers: { authorization: 'Bearer [REDACTED]' } })).toBe(200);
    expect(await holds({ headers: { authorization: `Bearer ${token}` } })).toBe(422);
    expect(await holds({ body: { amount: '1000', details: { keyType: 'CPF' } } })).toBe(200);
    expect(await holds({ body: { amount: '1000', details: { keyType: 'EMAIL' } } })).toBe(422);
    expect(await holds({ body: {} }, 201)).toBe(200);
    expect(await holds({}, '2xx')).toBe(200);
    expect(await holds({}, '4xx')).toBe(422);

    const q = (query: object) => verify({ request: { path: '/v1/banking/balance', query } });
    expect((await q({ page: '2' })).status).toBe(200); // the first value of a name
    expect((await q({ page: { matches: '^\\d$' }, size: { absent: true } })).status).toBe(200);
    expect((await q({ page: '3' })).status).toBe(422);
  });

  it('names the differing fields of up to 5 near misses, the closest first', async () => {
    await createCharge(sb, token, 1000);
    await createCharge(sb, token, 1000, { description: 'other' });
    await sb.request('POST', '/v1/banking/cash-in/pix', { token, body: { amount: '1000', description: 'x' } });
    await balance(); // none of its fields agrees: no near miss
    const r = await verify({
      request: { method: 'POST', path: '/v1/banking/cash-in/pix', body: { amount: '1000', description: 'other' } },
    });
    expect(r.status).toBe(422);
    const { nearMisses, count } = r.body.error;
    expect(count).toBe(0);
    expect(nearMisses.map((m: { status: number }) => m.status)).toEqual([400, 201, 201]);
    expect(nearMisses[0].differences).toEqual(['body.description: expected "other", got "x"']);
    expect(nearMisses[1]).toMatchObject({ method: 'POST', path: '/v1/banking/cash-in/pix' });
    expect(nearMisses[1].differences).toEqual(['body.amount: expected "1000", got 1000']);
    expect(nearMisses[2].differences).toEqual([
      'body.amount: expected "1000", got 1000',
      'body.description: expected "other", got "control test"',
    ]);
    const miss = await verify({ request: { method: 'GET', path: '/v1/banking/transactions/*', headers: { 'x-trace': 'a' } }, status: 200 });
    expect(miss.body.error.nearMisses[0].differences).toEqual([
      'path: expected "/v1/banking/transactions/*", got "/v1/banking/balance"',
      'headers.x-trace: expected "a", got absent',
    ]);
    expect(nearMisses[0].seq).toBeGreaterThan(nearMisses[1].seq);
    expect(nearMisses[1].seq).toBeGreaterThan(nearMisses[2].seq);
  });

  it('keeps the body of a request an injected fault answered, and matches its status', async () => {
    const fault = await control(sb, 'POST', '/_sandbox/faults', { path: '/v1/banking/cash-out/pix', status: 503, times: 1 });
    const r = await sb.request('POST', '/v1/banking/cash-out/pix', {
      token,
      headers: { 'x-idempotency-key': randomUUID() },
      body: { type: 'pix_key', description: 'faulted', amount: '77', details: { name: 'R', key: '11144477735', keyType: 'CPF' } },
    });
    expect([r.status, r.headers.get('x-sandbox-fault')]).toEqual([503, fault.id]);
    const held = await verify({
      request: { path: '/v1/banking/cash-out/pix', body: { description: 'faulted', amount: '77' } },
      status: '5xx',
    });
    expect(held.status).toBe(200);
    expect(held.body.count).toBe(1);
    expect((await verify({ request: { body: { amount: '77' } }, status: 503, times: { atLeast: 1, atMost: 1 } })).status).toBe(200);
  });

  it('waits (within) for a request sent a second later, and gives up with near misses when none comes', async () => {
    const started = performance.now();
    const later = sleep(1000).then(() => createTransfer(sb, token, 55));
    const r = await verify({ request: { method: 'POST', path: '/v1/banking/cash-out/pix', body: { amount: '55' } }, within: 5 });
    const waited = performance.now() - started;
    await later;
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(900);

    const again = performance.now();
    const none = await verify({ request: { method: 'POST', path: '/v1/banking/cash-out/pix', body: { amount: '56' } }, within: 1 });
    expect(none.status).toBe(422);
    expect(performance.now() - again).toBeGreaterThanOrEqual(950);
    expect(none.body.message).toMatch(/found 0 \(waited 1 s\)$/);
    expect(none.body.error.nearMisses[0].differences).toEqual(['body.amount: expected "56", got "55"']);
  });

  it('names every problem of a bad matcher at once (400) and changes nothing', async () => {
    await balance();
    const before = (await control(sb, 'GET', '/_sandbox/requests')).length;
    const r = await verify({
      request: {
        path: 'no-slash',
        headers: { a: { matches: '(' }, b: 1, c: { matches: 'x', absent: true }, d: { matches: '^(a+)+$' } },
        bogus: 1,
      },
      status: '6xx',
      times: { atLeast: 3, atMost: 1 },
      within: 31,
      extra: true,
    });
    expect(r.status).toBe(400);
    const { code, details } = errorShape(r).error;
    expect(code).toBe('VALIDATION_ERROR');
    const paths = details.map((d: { path: string }) => d.path);
    for (const p of [
      '/request/path',
      '/request/bogus',
      '/request/headers/a/matches',
      '/request/headers/b',
      '/request/headers/c',
      '/request/headers/d/matches',
      '/status',
      '/times/atMost',
      '/within',
      '/extra',
    ])
      expect(paths, p).toContain(p);
    expect(details.find((d: { path: string }) => d.path === '/request/headers/a/matches')?.message).toMatch(
      /^is not a valid regular expression/,
    );
    // a pattern that could backtrack for ever on a crafted value never runs (no input may spin a core)
    expect(details.find((d: { path: string }) => d.path === '/request/headers/d/matches')?.message).toMatch(/exponential time/);
    const seq = await sequence({ requests: [{ request: { path: '/v1/x', query: { q: { matches: '[' } } } }, { request: {}, status: 99 }] });
    expect(seq.status).toBe(400);
    expect(errorShape(seq).error.details.map((d: { path: string }) => d.path)).toEqual([
      '/requests/1/status',
      '/requests/0/request/query/q/matches',
    ]);
    expect((await control(sb, 'GET', '/_sandbox/requests')).length).toBe(before);
  });
});

describe('POST /_sandbox/verify/sequence', () => {
  it('holds when each item follows the one before, others between; fails naming the item not found and after which seq', async () => {
    const c = await createCharge(sb, token, 300);
    await balance();
    await sb.request('GET', `/v1/banking/transactions/${c.transactionId}`, { token });
    const charge = { request: { method: 'POST', path: '/v1/banking/cash-in/pix' }, status: 201 };
    const lookup = { request: { method: 'GET', path: '/v1/banking/transactions/:id' } };
    const held = await sequence({ requests: [charge, lookup] });
    expect(held.status).toBe(200);
    expect(held.body.count).toBe(2);
    expect(held.body.matches[0]).toBeLessThan(held.body.matches[1]);

    const failed = await sequence({ requests: [lookup, charge] });
    expect(failed.status).toBe(422);
    expect(failed.body.error).toMatchObject({ code: 'VERIFICATION_FAILED', count: 1 });
    expect(failed.body.message).toBe(
      `request 2 of 2 requests in the sequence (POST /v1/banking/cash-in/pix answered 201) was not found after seq ${held.body.matches[1]} (where request 1 matched)`,
    );
    // what came after the lookup: nothing, so no near miss
    expect(failed.body.error.nearMisses).toEqual([]);
  });
});

describe("a tenant's verification", () => {
  it("sees its own journal only; another tenant's accountId is 404; the operator filters by accountId", async () => {
    const acct = await control(sb, 'POST', '/_sandbox/accounts', { name: 'Verify Tenant', balance: 1000 });
    const tToken = await sb.token({ client_id: acct.client_id, client_secret: acct.client_secret });
    await sb.request('GET', '/v1/banking/balance', { token: tToken });
    await balance(); // the default account's
    const request = { path: '/v1/banking/balance' };
    const mine = await sb.request('POST', '/_sandbox/verify', { token: tToken, body: { request } });
    expect(mine.status).toBe(200);
    expect(mine.body.count).toBe(1);
    const other = await sb.request('POST', '/_sandbox/verify', { token: tToken, body: { request, accountId: DEFAULT_ACCOUNT_ID } });
    expect([other.status, errorShape(other).error.code]).toEqual([404, 'NOT_FOUND']);
    const otherSeq = await sb.request('POST', '/_sandbox/verify/sequence', {
      token: tToken,
      body: { requests: [{ request }], accountId: DEFAULT_ACCOUNT_ID },
    });
    expect(otherSeq.status).toBe(404);
    expect((await verify({ request })).body.count).toBe(2);
    expect((await verify({ request, accountId: acct.id })).body.matches).toEqual(mine.body.matches);
    expect((await verify({ request, accountId: DEFAULT_ACCOUNT_ID, times: { atLeast: 1, atMost: 1 } })).status).toBe(200);
  });
});

describe('the typed client', () => {
  it('answers a verification that holds and throws one that fails, its near misses on the error', async () => {
    const client = new ControlClient({ baseUrl: sb.url });
    await createCharge(sb, token, 1000);
    const held = await client.verify({ request: { method: 'POST', body: { amount: 1000 } }, times: { atLeast: 1, atMost: 1 } });
    expect(held).toMatchObject({ ok: true, count: 1 });
    const seq = await client.verifySequence([{ request: { path: '/v1/banking/cash-in/pix' } }], { within: 1 });
    expect(seq.matches).toEqual(held.matches);
    const err = await client.verify({ request: { method: 'POST', body: { amount: '1000' } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    const failure = (err as SandboxApiError).body as VerificationFailure;
    expect([(err as SandboxApiError).status, (err as SandboxApiError).code]).toEqual([422, 'VERIFICATION_FAILED']);
    expect(failure.error.nearMisses[0]!.differences).toEqual(['body.amount: expected "1000", got 1000']);
  });
});
