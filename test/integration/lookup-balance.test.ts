// GET /v1/banking/transactions/{id} and GET /v1/banking/balance through real HTTP: the envelopes,
// the lookup's mapping of every state, and who may see what (docs/decisions.md#d2-merchants-are-principals).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancel, complete, expire, fail, pay, setMerchantStatus } from '../helpers/control.js';
import {
  advance,
  balanceOf,
  cashInBody,
  cashOut,
  cashOutBody,
  createAccount,
  createMerchant,
  lookup,
  type TestMerchant,
} from '../helpers/money.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let token: string;
let merchant: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  sb = await startTestSandbox();
  token = await sb.token();
  merchant = await createMerchant(sb, token, 'Merchant One');
  other = await createMerchant(sb, token, 'Merchant Two');
});
afterAll(async () => {
  await sb.stop();
});

const charge = async (t = token, over: Record<string, unknown> = {}) => {
  const r = await sb.request('POST', '/v1/banking/cash-in/pix', { token: t, body: cashInBody(over) });
  expect(r.status).toBe(201);
  return r.body.transactionId as string;
};

describe('balance', () => {
  it('the default account starts with the fixtures’ 1,000,000 cents, in the spec envelope', async () => {
    const r = await sb.request('GET', '/v1/banking/balance', { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ statusCode: 200, message: expect.any(String), data: { balance: 1_000_000 } });
  });

  it('answers JSON with its charset and exact length; HEAD gives the same headers and no body', async () => {
    const headers = { authorization: `Bearer ${token}` };
    const get = await fetch(`${sb.url}/v1/banking/balance`, { headers });
    const text = await get.text();
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(get.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(get.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const head = await fetch(`${sb.url}/v1/banking/balance`, { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it('a merchant token reads its main wallet, and both move in real time', async () => {
    expect(await balanceOf(sb, merchant.token)).toBe(0);
    const id = await charge(merchant.token, { amount: 5_000 });
    await pay(sb, id);
    expect(await balanceOf(sb, merchant.token)).toBe(5_000);
    expect(await balanceOf(sb, other.token)).toBe(0);
    expect((await cashOut(sb, merchant.token, cashOutBody({ amount: '1200' }))).status).toBe(201);
    expect(await balanceOf(sb, merchant.token)).toBe(3_800);
    expect(await balanceOf(sb, token)).toBe(1_000_000);
  });

  it('needs a token, and only GET is allowed', async () => {
    expect((await sb.request('GET', '/v1/banking/balance')).status).toBe(401);
    const post = await sb.request('POST', '/v1/banking/balance', { token });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toMatch(/GET/);
  });
});

describe('lookup envelopes', () => {
  it('a charge: WAITING_PAYMENT → id and status only; PAID → COMPLETED with end_to_end_id and payer', async () => {
    const id = await charge();
    expect((await lookup(sb, token, id)).body).toEqual({
      statusCode: 200,
      message: expect.any(String),
      data: { id, status: 'WAITING_PAYMENT' },
    });
    await pay(sb, id, { name: 'Pagador', document: '11144477735', ispb: '00000000', account_number: '12345-6', account_type: 'SVGS' });
    const l = await lookup(sb, token, id);
    expect(l.body.data).toEqual({
      id,
      status: 'COMPLETED',
      end_to_end_id: expect.stringMatching(/^E00000000\d{12}[A-Za-z0-9]{11}$/),
      payer: { name: 'Pagador', document: '11144477735', ispb: '00000000', account_number: '12345-6', account_type: 'SVGS' },
    });
  });

  it('a charge EXPIRED or CANCELLED → FAILED with CHARGE_EXPIRED or CHARGE_CANCELLED', async () => {
    const expired = await charge();
    const cancelled = await charge();
    await expire(sb, expired);
    await cancel(sb, cancelled);
    expect((await lookup(sb, token, expired)).body.data).toEqual({
      id: expired,
      status: 'FAILED',
      error: { code: 'CHARGE_EXPIRED', message: expect.any(String) },
    });
    expect((await lookup(sb, token, cancelled)).body.data).toEqual({
      id: cancelled,
      status: 'FAILED',
      error: { code: 'CHARGE_CANCELLED', message: expect.any(String) },
    });
  });

  it('a transfer: PROCESSING → id and status; failed with any code → FAILED with that error; forced COMPLETED → receiver', async () => {
    const before = await balanceOf(sb, token);
    const a = (await cashOut(sb, token, cashOutBody({ amount: '300' }))).body.transactionId;
    const b = (await cashOut(sb, token, cashOutBody({ amount: '400' }, { document: '11144477735' }))).body.transactionId;
    expect((await lookup(sb, token, a)).body.data).toEqual({ id: a, status: 'PROCESSING' });
    await fail(sb, a, 'AM04', 'insufficient funds at the destination');
    expect((await lookup(sb, token, a)).body.data).toEqual({
      id: a,
      status: 'FAILED',
      error: { code: 'AM04', message: 'insufficient funds at the destination' },
    });
    // complete forces COMPLETED even though the document does not match the key
    await complete(sb, b);
    expect((await lookup(sb, token, b)).body.data).toMatchObject({
      id: b,
      status: 'COMPLETED',
      receiver: { document: '52998224725', key: '52998224725', keyType: 'CPF' },
    });
    expect(await balanceOf(sb, token)).toBe(before - 400);
    const late = await sb.request('POST', `/_sandbox/transfers/${b}/fail`, { body: { code: 'XY', message: 'y' } });
    expect([late.status, late.body.error.code]).toEqual([409, 'INVALID_STATE']);
  });

  it('answers 400 for an id that is not a UUID and 404 for an unknown one', async () => {
    const bad = await lookup(sb, token, 'abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const unknown = await lookup(sb, token, '00000000-0000-4000-8000-0000000000aa');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, message: expect.any(String), error: { code: 'NOT_FOUND', details: [] } });
  });
});

describe('who sees what', () => {
  it("an account sees its merchants' transactions; a merchant only its own", async () => {
    const mine = await charge(merchant.token);
    const theirs = await charge(other.token);
    const accounts = await charge(token);
    expect((await lookup(sb, token, mine)).status).toBe(200);
    expect((await lookup(sb, token, theirs)).status).toBe(200);
    expect((await lookup(sb, merchant.token, mine)).status).toBe(200);
    expect((await lookup(sb, merchant.token, theirs)).status).toBe(404);
    expect((await lookup(sb, merchant.token, accounts)).status).toBe(404);
  });

  it('another account gets 404, never 403, for every transaction of this one — and the reverse', async () => {
    const stranger = await createAccount(sb, { balance: 1_000 });
    const ids = [
      await charge(token),
      await charge(merchant.token),
      (await cashOut(sb, token, cashOutBody({ amount: '1' }))).body.transactionId,
    ];
    for (const id of ids) {
      const r = await lookup(sb, stranger.token, id);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('NOT_FOUND');
    }
    const theirs = (await cashOut(sb, stranger.token, cashOutBody({ amount: '1' }))).body.transactionId;
    expect((await lookup(sb, stranger.token, theirs)).status).toBe(200);
    expect((await lookup(sb, token, theirs)).status).toBe(404);
    expect((await lookup(sb, merchant.token, theirs)).status).toBe(404);
    expect(await balanceOf(sb, stranger.token)).toBe(999);
  });

  it('a lookup needs a token', async () => {
    const r = await sb.request('GET', '/v1/banking/transactions/00000000-0000-4000-8000-0000000000aa');
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});

describe('errors that every money endpoint can answer', () => {
  const calls = (t: string | null) => [
    sb.request('POST', '/v1/banking/cash-in/pix', { token: t, body: cashInBody() }),
    sb.request('POST', '/v1/banking/cash-out/pix', {
      token: t,
      body: cashOutBody(),
      headers: { 'x-idempotency-key': '0f8fad5b-d9cb-469f-a165-70867728950e' },
    }),
    sb.request('GET', '/v1/banking/transactions/00000000-0000-4000-8000-0000000000aa', { token: t }),
    sb.request('GET', '/v1/banking/balance', { token: t }),
  ];

  it('401 INVALID_TOKEN for a token that is not ours', async () => {
    const real = await sb.token();
    const forged = real.slice(0, -10) + (real.at(-10) === 'a' ? 'b' : 'a') + real.slice(-9); // a signature character changed
    for (const r of await Promise.all(calls(forged))) expect([r.status, r.body.error.code]).toEqual([401, 'INVALID_TOKEN']);
  });

  it('403 MERCHANT_NOT_ACTIVE for a suspended merchant’s live token', async () => {
    const m = await createMerchant(sb, await sb.token(), 'Soon suspended');
    await setMerchantStatus(sb, m.id, 'SUSPENDED');
    for (const r of await Promise.all(calls(m.token))) expect([r.status, r.body.error.code]).toEqual([403, 'MERCHANT_NOT_ACTIVE']);
  });

  it('413 PAYLOAD_TOO_LARGE and 415 UNSUPPORTED_MEDIA_TYPE on the creating endpoints', async () => {
    const t = await sb.token();
    const huge = JSON.stringify({ ...cashInBody(), description: 'x'.repeat(1_100_000) });
    for (const p of ['/v1/banking/cash-in/pix', '/v1/banking/cash-out/pix']) {
      const big = await sb.request('POST', p, {
        token: t,
        raw: huge,
        headers: { 'content-type': 'application/json', 'x-idempotency-key': '0f8fad5b-d9cb-469f-a165-70867728950e' },
      });
      expect([big.status, big.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
      const xml = await sb.request('POST', p, {
        token: t,
        raw: '<pix/>',
        headers: { 'content-type': 'application/xml', 'x-idempotency-key': '0f8fad5b-d9cb-469f-a165-70867728950e' },
      });
      expect([xml.status, xml.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
  });

  it('401 TOKEN_EXPIRED once the sandbox clock passes the token’s 300 seconds', async () => {
    const t = await sb.token();
    await advance(sb, 301);
    for (const r of await Promise.all(calls(t))) expect([r.status, r.body.error.code]).toEqual([401, 'TOKEN_EXPIRED']);
  });
});
