// A clock per tenant (docs/control-api.md#clock): an advance of one tenant moves only its tokens,
// charges and webhook retries; a frozen tenant's timestamps are exact; an advance walks through
// time, each due thing at its own instant; bad input changes nothing.
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { deliveries, register, until } from '../helpers/webhook-steps.js';
import { DEFAULT_RETRY_SCHEDULE } from '../../src/config.js';

const A = '0000000a-0000-4000-8000-00000000000a';
const B = '0000000b-0000-4000-8000-00000000000b';
const credsOf = (id: string) => ({ client_id: `client-${id.slice(7, 8)}`, client_secret: `secret-of-${id.slice(7, 8)}` });
const FROZEN_AT = '2030-01-01T00:00:00.000Z';

let sb: TestSandbox;
let receivers: Receiver[] = [];

beforeEach(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await sb.stop();
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

async function account(id: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await sb.request('POST', '/_sandbox/accounts', { body: { id, name: `tenant ${id.slice(7, 8)}`, ...credsOf(id), ...extra } });
  expect(r.status).toBe(201);
  return sb.token(credsOf(id));
}

async function charge(token: string, amount = 1500, expiration = 120): Promise<{ transactionId: string; createdAt: string }> {
  const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
    token,
    body: { amount, expiration, description: 'clock test', customer: { name: 'Maria Silva', document: '52998224725' } },
  });
  expect(r.status).toBe(201);
  return r.body;
}

const status = async (id: string): Promise<string> => (await sb.request('GET', `/_sandbox/transactions/${id}`)).body.status;
const clock = async (accountId?: string) => (await sb.request('GET', `/_sandbox/clock${accountId ? `?accountId=${accountId}` : ''}`)).body;
const advance = async (body: Record<string, unknown>) => sb.request('POST', '/_sandbox/clock/advance', { body });
const iatOf = (token: string): number => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).iat;

describe('a clock per tenant', () => {
  it('advancing A by 301 s expires its token and its 120-s charge; B is untouched; A now issues tokens 301 s ahead', async () => {
    const tokenA = await account(A);
    const tokenB = await account(B);
    const chargeA = await charge(tokenA);
    const chargeB = await charge(tokenB);

    const r = await advance({ seconds: 301, accountId: A });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accountId: A, frozen: false });
    expect(r.body.offsetSeconds).toBe(301);

    const lookA = await sb.request('GET', `/v1/banking/transactions/${chargeA.transactionId}`, { token: tokenA });
    expect(lookA.status).toBe(401);
    expect(lookA.body.error.code).toBe('TOKEN_EXPIRED');
    const lookB = await sb.request('GET', `/v1/banking/transactions/${chargeB.transactionId}`, { token: tokenB });
    expect(lookB.status).toBe(200);

    expect(await status(chargeA.transactionId)).toBe('EXPIRED');
    expect(await status(chargeB.transactionId)).toBe('WAITING_PAYMENT');
    // the expiry is stamped at its own instant (creation + 120 s), not at the end of the jump
    const detailA = (await sb.request('GET', `/_sandbox/transactions/${chargeA.transactionId}`)).body;
    expect(Date.parse(detailA.updatedAt) - Date.parse(chargeA.createdAt)).toBe(120_000);

    const newA = iatOf(await sb.token(credsOf(A)));
    const newB = iatOf(await sb.token(credsOf(B)));
    expect(newA - newB).toBeGreaterThanOrEqual(300);
    expect(newA - newB).toBeLessThanOrEqual(302);
    expect((await clock(B)).offsetSeconds).toBe(0);
    expect((await clock()).offsetSeconds).toBe(0); // the sandbox-wide clock did not move
  });

  it("a failing endpoint of A is retried through its whole schedule within one 3-hour advance, each attempt at its instant; B's gets none", async () => {
    const tokenA = await account(A);
    const tokenB = await account(B);
    const rxA = await startReceiver();
    const rxB = await startReceiver();
    receivers.push(rxA, rxB);
    rxA.behave(() => ({ status: 500 }));
    rxB.behave(() => ({ status: 500 }));
    await register(sb, { url: rxA.url, accountId: A, events: ['cashin.created'] });
    await register(sb, { url: rxB.url, accountId: B, events: ['cashin.created'] });
    const a = await charge(tokenA, 1500, 86_400);
    const b = await charge(tokenB, 1500, 86_400);
    // the first attempt of each goes out at once, on real time
    for (const id of [a.transactionId, b.transactionId])
      await until(
        () => deliveries(sb, `transactionId=${id}`),
        (ds) => ds[0]?.attempts.length === 1,
      );

    expect((await advance({ seconds: 3 * 3600, accountId: A })).status).toBe(200);
    const [dA] = await deliveries(sb, `transactionId=${a.transactionId}`);
    expect(dA.status).toBe('DEAD');
    expect(dA.attempts).toHaveLength(DEFAULT_RETRY_SCHEDULE.length + 1);
    expect(rxA.received).toHaveLength(DEFAULT_RETRY_SCHEDULE.length + 1);
    const at = dA.attempts.map((x: { at: string }) => Date.parse(x.at));
    // each retry ran at the instant the attempt before it planned: exactly its wait later
    for (let i = 1; i < at.length; i++) {
      const wait = at[i] - at[i - 1];
      expect(wait).toBeGreaterThanOrEqual(DEFAULT_RETRY_SCHEDULE[i - 1]! * 1000);
      expect(wait).toBeLessThan(DEFAULT_RETRY_SCHEDULE[i - 1]! * 1000 + 1000);
    }
    for (let i = 2; i < at.length; i++) expect(at[i] - at[i - 1]).toBe(DEFAULT_RETRY_SCHEDULE[i - 1]! * 1000);

    const [dB] = await deliveries(sb, `transactionId=${b.transactionId}`);
    expect(dB.status).toBe('PENDING');
    expect(dB.attempts).toHaveLength(1);
    expect(rxB.received).toHaveLength(1);
  });

  it('a tenant created frozen at 2030 answers exact, repeatable times; advance 60 moves it exactly; unfreeze lets it flow from there', async () => {
    const token = await account(A, { clock: { at: FROZEN_AT, frozen: true } });
    expect(iatOf(token)).toBe(Date.parse(FROZEN_AT) / 1000);
    const first = await charge(token);
    await new Promise((r) => setTimeout(r, 1000)); // a real second
    const second = await charge(token);
    expect([first.createdAt, second.createdAt]).toEqual([FROZEN_AT, FROZEN_AT]);
    expect(await clock(A)).toMatchObject({ accountId: A, now: FROZEN_AT, frozen: true });

    const moved = await advance({ seconds: 60, accountId: A });
    expect(moved.body).toMatchObject({ accountId: A, now: '2030-01-01T00:01:00.000Z', frozen: true });
    const later = await sb.token(credsOf(A));
    expect(iatOf(later)).toBe(Date.parse('2030-01-01T00:01:00.000Z') / 1000);
    expect((await charge(later)).createdAt).toBe('2030-01-01T00:01:00.000Z');

    const flowing = await sb.request('POST', '/_sandbox/clock/unfreeze', { body: { accountId: A } });
    expect(flowing.status).toBe(200);
    expect(flowing.body.frozen).toBe(false);
    await new Promise((r) => setTimeout(r, 50));
    const now = Date.parse((await clock(A)).now);
    expect(now).toBeGreaterThan(Date.parse('2030-01-01T00:01:00.000Z'));
    expect(now).toBeLessThan(Date.parse('2030-01-01T00:01:05.000Z'));
    const frozenAgain = await sb.request('POST', '/_sandbox/clock/freeze', { body: { accountId: A } });
    expect(frozenAgain.body.frozen).toBe(true);
    expect((await clock(A)).now).toBe(frozenAgain.body.now);
  });

  it("a transaction's next event waits for the one before it through the walk: the expiry goes out when the creation is dead", async () => {
    const token = await account(A, { clock: { at: FROZEN_AT, frozen: true } });
    const rx = await startReceiver();
    receivers.push(rx);
    rx.behave(() => ({ status: 500 }));
    await register(sb, { url: rx.url, accountId: A });
    const c = await charge(token, 1500, 120);
    await until(
      () => deliveries(sb, `transactionId=${c.transactionId}`),
      (ds) => ds.some((d: { attempts: unknown[] }) => d.attempts.length === 1),
    );
    expect((await advance({ seconds: 3 * 3600, accountId: A })).status).toBe(200);
    const ds = await deliveries(sb, `transactionId=${c.transactionId}`);
    const of = (type: string) => ds.find((d: { eventType: string }) => d.eventType === type);
    const t0 = Date.parse(FROZEN_AT);
    const offsets = (d: { attempts: { at: string }[] }) => d.attempts.map((x) => (Date.parse(x.at) - t0) / 1000);
    // the creation: at 0, then +10, +30, +120, +600, +3600 after each attempt; dead at 4360 s
    expect(of('cashin.created')).toMatchObject({ status: 'DEAD' });
    expect(offsets(of('cashin.created'))).toEqual([0, 10, 40, 160, 760, 4360]);
    // the expiry (at 120 s) waited for it, then went through its own schedule from 4360 s
    expect(of('cashin.expired')).toMatchObject({ status: 'DEAD' });
    expect(offsets(of('cashin.expired'))).toEqual([4360, 4370, 4400, 4520, 5120, 8720]);
    expect(rx.received).toHaveLength(12);
  });

  it("another tenant's requests are answered while a long walk is under way", async () => {
    const tokenA = await account(A);
    const tokenB = await account(B);
    const rx = await startReceiver();
    receivers.push(rx);
    rx.behave(() => ({ status: 500 }));
    await register(sb, { url: rx.url, accountId: A });
    for (let i = 0; i < 30; i++) await charge(tokenA, 1500, 60 + i);
    let answeredDuring = 0;
    let walking = true;
    const walk = advance({ seconds: 3 * 3600, accountId: A }).finally(() => (walking = false));
    while (walking) {
      const r = await sb.request('GET', '/v1/banking/balance', { token: tokenB });
      expect(r.status).toBe(200);
      if (walking) answeredDuring++;
    }
    expect((await walk).status).toBe(200);
    // 30 charges: 60 events, each through its 6 attempts (the walk makes all but the first ones)
    expect(rx.received).toHaveLength(360);
    expect(answeredDuring).toBeGreaterThan(5);
  });

  it('a charge a rule pays at +5 s that would expire at +60 s ends PAID, paid at +5 s, after one advance of 120 s', async () => {
    const rule = await sb.request('POST', '/_sandbox/rules', {
      body: { id: 'pay-at-5', match: { type: 'CASH_IN', amount: 555 }, outcome: { action: 'pay', afterSeconds: 5 } },
    });
    expect(rule.status).toBe(201);
    const token = await account(A, { clock: { at: FROZEN_AT, frozen: true } });
    const c = await charge(token, 555, 60);
    expect((await advance({ to: '2030-01-01T00:02:00.000Z', accountId: A })).body.now).toBe('2030-01-01T00:02:00.000Z');
    const detail = (await sb.request('GET', `/_sandbox/transactions/${c.transactionId}`)).body;
    expect(detail.status).toBe('PAID');
    expect(detail.paidAt).toBe('2030-01-01T00:00:05.000Z');
  });

  it('an advance without accountId moves every tenant, frozen ones too; reset clears every clock', async () => {
    await account(A, { clock: { at: FROZEN_AT, frozen: true } });
    await account(B);
    const before = Date.parse((await clock(B)).now);
    expect((await advance({ seconds: 600 })).body.accountId).toBeNull();
    expect((await clock(A)).now).toBe('2030-01-01T00:10:00.000Z');
    expect(Date.parse((await clock(B)).now) - before).toBeGreaterThanOrEqual(600_000);
    expect((await clock()).offsetSeconds).toBe(600);
    expect((await sb.request('POST', '/_sandbox/reset')).status).toBe(200);
    expect(await clock()).toMatchObject({ offsetSeconds: 0, frozen: false });
  });

  it('freeze and unfreeze without accountId act on every tenant, each where it stands', async () => {
    await account(A);
    await account(B, { clock: { at: FROZEN_AT } });
    const frozen = await sb.request('POST', '/_sandbox/clock/freeze', { body: {} });
    expect(frozen.status).toBe(200);
    expect(frozen.body.accountId).toBeNull();
    const [a, b] = [await clock(A), await clock(B)];
    expect([a.frozen, b.frozen]).toEqual([true, true]);
    expect(Date.parse(b.now) - Date.parse(FROZEN_AT)).toBeLessThan(60_000); // B froze near its own time, not A's
    await new Promise((r) => setTimeout(r, 50));
    expect([(await clock(A)).now, (await clock(B)).now]).toEqual([a.now, b.now]);
    expect((await sb.request('POST', '/_sandbox/clock/unfreeze', { body: {} })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    for (const [id, was] of [
      [A, a],
      [B, b],
    ] as const) {
      const c = await clock(id);
      expect(c.frozen).toBe(false);
      expect(Date.parse(c.now)).toBeGreaterThan(Date.parse(was.now));
    }
  });

  it('a fixture account can have its own clock: reset brings it back there', async () => {
    const fixtures = JSON.parse(await readFile('fixtures/default.json', 'utf8'));
    fixtures.accounts[0].clock = { at: FROZEN_AT, frozen: true };
    expect((await sb.request('POST', '/_sandbox/reset', { body: { fixtures } })).status).toBe(200);
    const id = fixtures.accounts[0].id as string;
    expect(await clock(id)).toMatchObject({ accountId: id, now: FROZEN_AT, frozen: true });
    expect((await sb.request('GET', `/_sandbox/accounts/${id}`)).body.createdAt).toBe(FROZEN_AT);
    expect(iatOf(await sb.token())).toBe(Date.parse(FROZEN_AT) / 1000);
  });

  it('bad input changes nothing: unknown account 404, seconds out of range or to not after now 400 naming the field', async () => {
    await account(A, { clock: { at: FROZEN_AT, frozen: true } });
    const unknown = '0000000f-0000-4000-8000-00000000000f';
    for (const [method, path, body] of [
      ['POST', '/_sandbox/clock/advance', { seconds: 10, accountId: unknown }],
      ['POST', '/_sandbox/clock/freeze', { accountId: unknown }],
      ['POST', '/_sandbox/clock/unfreeze', { accountId: unknown }],
      ['GET', `/_sandbox/clock?accountId=${unknown}`, undefined],
    ] as const) {
      const r = await sb.request(method, path, body ? { body } : {});
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe('NOT_FOUND');
    }
    const cases: [Record<string, unknown>, string][] = [
      [{ seconds: 0, accountId: A }, '/seconds'],
      [{ seconds: 2_592_001, accountId: A }, '/seconds'],
      [{ seconds: 1.5, accountId: A }, '/seconds'],
      [{ to: FROZEN_AT, accountId: A }, '/to'],
      [{ to: '2029-12-31T23:59:59.000Z', accountId: A }, '/to'],
      [{ to: 'tomorrow', accountId: A }, '/to'],
      [{ seconds: 5, to: '2030-01-02T00:00:00.000Z', accountId: A }, '/to'],
    ];
    for (const [body, path] of cases) {
      const r = await advance(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await clock(A)).now).toBe(FROZEN_AT);
    const badClock = await sb.request('POST', '/_sandbox/accounts', {
      body: { name: 'bad clock', clock: { at: 'soon', frozen: 'yes' } },
    });
    expect(badClock.status).toBe(400);
    expect(badClock.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['/clock/at', '/clock/frozen']);
  });
});
