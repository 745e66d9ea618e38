// POST /v1/banking/cash-in/pix through real HTTP: the spec's fields, the BR Code of docs/decisions.md#d17-the-br-code
// read by an independent parser, the QR image read back by a decoder, the charge's location,
// expiry by the sandbox clock, payment with splits, and every validation rule.
import { parsePix } from 'pix-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isEndToEndId } from '../../src/domain/end-to-end.js';
import {
  advance,
  balanceOf,
  cashInBody,
  createAccount,
  createMerchant,
  decodeQrDataUrl,
  lookup,
  type TestMerchant,
} from '../helpers/money.js';
import { expectContractShape, walk } from '../helpers/brcode-check.js';
import { addRule, newestTransaction, pay, removeRule, setMerchantStatus } from '../helpers/control.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectContractBrCode(code: string, location: string, amount: string): void {
  expectContractShape(code, location, amount);
  const pix = parsePix(code) as { type?: string; url?: string; error?: boolean; countryCode?: string };
  expect(pix.error).toBeFalsy();
  expect(pix.type).toBe('DYNAMIC');
  expect(pix.url).toBe(location);
}

let sb: TestSandbox;
let token: string;
const cashIn = (body: unknown, t: string | null = token) => sb.request('POST', '/v1/banking/cash-in/pix', { token: t, body });

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.stop();
});
// tokens live 300 s by the sandbox clock, which these tests move forward
beforeEach(async () => {
  token = await sb.token();
});

describe('creating a charge', () => {
  it('answers 201 with exactly the spec fields: transactionId, amount, status, pixCode, qrCode, createdAt', async () => {
    const r = await cashIn(cashInBody({ externalId: 'order-42', expiration: 3600 }));
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['amount', 'createdAt', 'pixCode', 'qrCode', 'status', 'transactionId']);
    expect(r.body.transactionId).toMatch(UUID);
    expect(r.body.amount).toBe(1_050);
    expect(Number.isInteger(r.body.amount)).toBe(true);
    expect(r.body.status).toBe('WAITING_PAYMENT');
    expect(typeof r.body.pixCode).toBe('string');
    expect(r.body.qrCode).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(r.body.createdAt).toMatch(ISO);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('pixCode is a dynamic BR Code (D17) that pix-utils parses, whose location the sandbox serves', async () => {
    for (const amount of [1, 99, 1_050, 123_456, 1_000_000_000]) {
      const r = await cashIn(cashInBody({ amount }));
      expect(r.status).toBe(201);
      const location = `${new URL(sb.url).host}/pix/qr/v2/${r.body.transactionId}`;
      expectContractBrCode(r.body.pixCode, location, `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`);
      const loc = await sb.request('GET', `/pix/qr/v2/${r.body.transactionId}`); // no Authorization, as a payer's bank reads it
      expect(loc.status).toBe(200);
      expect(loc.body).toMatchObject({
        id: r.body.transactionId,
        amount,
        status: 'WAITING_PAYMENT',
        expiresAt: expect.stringMatching(ISO),
      });
    }
  });

  it('names the merchant (59) after the account, upper-case ASCII', async () => {
    const r = await cashIn(cashInBody());
    expect(walk(r.body.pixCode).find(([id]) => id === '59')![1]).toBe('SANDBOX DEFAULT ACCOUNT');
  });

  it('qrCode is a PNG that decodes to exactly pixCode', async () => {
    const r = await cashIn(cashInBody({ amount: 987_654 }));
    expect(decodeQrDataUrl(r.body.qrCode)).toBe(r.body.pixCode);
  });

  it('a new charge looks up as WAITING_PAYMENT with only id and status', async () => {
    const r = await cashIn(cashInBody());
    const l = await lookup(sb, token, r.body.transactionId);
    expect(l.status).toBe(200);
    expect(l.body).toEqual({ statusCode: 200, message: expect.any(String), data: { id: r.body.transactionId, status: 'WAITING_PAYMENT' } });
  });

  it('the location answers 404 for an unknown id, 400 for a non-UUID', async () => {
    expect((await sb.request('GET', '/pix/qr/v2/00000000-0000-4000-8000-00000000dead')).status).toBe(404);
    expect((await sb.request('GET', '/pix/qr/v2/nope')).body.error.code).toBe('VALIDATION_ERROR');
  });

  it('does not store the QR image (it is derived from pixCode)', async () => {
    const r = await cashIn(cashInBody());
    const stored = sb.running.ctx.store.transactions.get(r.body.transactionId)!;
    expect(JSON.stringify(stored)).not.toContain('data:image');
  });
});

describe('expiry and payment', () => {
  it('expires when the sandbox clock passes createdAt + expiration, and then looks up FAILED with CHARGE_EXPIRED', async () => {
    const before = await balanceOf(sb, token);
    const r = await cashIn(cashInBody({ expiration: 60 }));
    await advance(sb, 59);
    expect((await lookup(sb, token, r.body.transactionId)).body.data.status).toBe('WAITING_PAYMENT');
    await advance(sb, 1);
    const l = await lookup(sb, token, r.body.transactionId);
    expect(l.body.data).toEqual({
      id: r.body.transactionId,
      status: 'FAILED',
      error: { code: 'CHARGE_EXPIRED', message: expect.any(String) },
    });
    expect((await sb.request('GET', `/pix/qr/v2/${r.body.transactionId}`)).body.status).toBe('EXPIRED');
    expect(await balanceOf(sb, token)).toBe(before);
  });

  it('a paid charge looks up COMPLETED with end_to_end_id and payer, and credits the receiver', async () => {
    const before = await balanceOf(sb, token);
    const r = await cashIn(cashInBody({ amount: 2_500 }));
    expect(await balanceOf(sb, token)).toBe(before); // nothing before payment
    await pay(sb, r.body.transactionId);
    const l = await lookup(sb, token, r.body.transactionId);
    expect(Object.keys(l.body.data).sort()).toEqual(['end_to_end_id', 'id', 'payer', 'status']);
    expect(l.body.data.status).toBe('COMPLETED');
    expect(isEndToEndId(l.body.data.end_to_end_id)).toBe(true);
    expect(l.body.data.end_to_end_id).toHaveLength(32);
    expect(l.body.data.payer).toEqual({
      name: 'Maria Silva',
      document: '52998224725',
      ispb: expect.stringMatching(/^[0-9]{8}$/),
      account_number: expect.any(String),
      account_type: expect.any(String),
    });
    expect(await balanceOf(sb, token)).toBe(before + 2_500);
  });

  it('a charge is paid at most once', async () => {
    const r = await cashIn(cashInBody());
    await pay(sb, r.body.transactionId);
    const again = await sb.request('POST', `/_sandbox/charges/${r.body.transactionId}/pay`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
  });

  it('an outcome rule that pays at +5 s wins over the expiry at +60 s when the clock jumps an hour', async () => {
    await addRule(sb, {
      id: 'pay-777',
      match: { type: 'CASH_IN', amount: 777 },
      outcome: { action: 'pay', afterSeconds: 5, payer: { name: 'Rule Payer' } },
    });
    const r = await cashIn(cashInBody({ amount: 777, expiration: 60 }));
    await advance(sb, 3600);
    token = await sb.token();
    const l = await lookup(sb, token, r.body.transactionId);
    expect(l.body.data).toMatchObject({ status: 'COMPLETED', payer: { name: 'Rule Payer' } });
    const stored = (await sb.request('GET', `/_sandbox/transactions/${r.body.transactionId}`)).body;
    expect(stored.paidAt).toBe(new Date(Date.parse(r.body.createdAt) + 5_000).toISOString());
    await removeRule(sb, 'pay-777');
  });

  it("an account's autoPayAfterSeconds pays its charges by the clock", async () => {
    const acct = await createAccount(sb, { autoPayAfterSeconds: 10 });
    const r = await cashIn(cashInBody({ amount: 4_000 }), acct.token);
    await advance(sb, 9);
    expect((await lookup(sb, acct.token, r.body.transactionId)).body.data.status).toBe('WAITING_PAYMENT');
    await advance(sb, 1);
    expect((await lookup(sb, acct.token, r.body.transactionId)).body.data.status).toBe('COMPLETED');
    expect(await balanceOf(sb, acct.token)).toBe(4_000);
  });

  it('a merchant token charges for the merchant: its wallet is credited, not the account', async () => {
    const m = await createMerchant(sb, token);
    const accountBefore = await balanceOf(sb, token);
    const r = await cashIn(cashInBody({ amount: 3_000 }), m.token);
    expect(r.status).toBe(201);
    expect(walk(r.body.pixCode).find(([id]) => id === '59')![1]).toBe('LOJA TESTE');
    await pay(sb, r.body.transactionId);
    expect(await balanceOf(sb, m.token)).toBe(3_000);
    expect(await balanceOf(sb, token)).toBe(accountBefore);
  });
});

describe('splits', () => {
  let a: TestMerchant;
  let b: TestMerchant;
  beforeAll(async () => {
    const t = await sb.token();
    a = await createMerchant(sb, t, 'Split A');
    b = await createMerchant(sb, t, 'Split B');
  });
  const wallet = async (m: TestMerchant): Promise<number> => (await sb.request('GET', `/_sandbox/wallets/${m.walletId}`)).body.balance;

  it('credits each wallet its share only when paid, and the remainder to the receiver', async () => {
    const before = await balanceOf(sb, token);
    const [wa, wb] = [await wallet(a), await wallet(b)];
    const r = await cashIn(
      cashInBody({
        amount: 10_000,
        split: [
          { amount: 1_500, mode: 'FIXED', wallet_id: a.walletId },
          { amount: 33, mode: 'PERCENTAGE', wallet_id: b.walletId.toUpperCase() },
        ],
      }),
    );
    expect(r.status).toBe(201);
    expect([await wallet(a), await wallet(b)]).toEqual([wa, wb]);
    await pay(sb, r.body.transactionId);
    expect([(await wallet(a)) - wa, (await wallet(b)) - wb]).toEqual([1_500, 3_300]);
    expect(await balanceOf(sb, token)).toBe(before + 10_000 - 1_500 - 3_300);
  });

  it('takes a single object in place of an array, and skips a share that rounds to 0 cents', async () => {
    const before = await balanceOf(sb, token);
    const wa = await wallet(a);
    const r = await cashIn(cashInBody({ amount: 50, split: { amount: 1, mode: 'PERCENTAGE', wallet_id: a.walletId } }));
    expect(r.status).toBe(201);
    await pay(sb, r.body.transactionId);
    expect(await wallet(a)).toBe(wa);
    expect(await balanceOf(sb, token)).toBe(before + 50);
    const { ledger } = (await sb.request('GET', `/_sandbox/transactions/${r.body.transactionId}`)).body;
    expect(ledger.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([['CASH_IN', 50]]);
  });

  it('shares may add up to the whole amount; more is 422 SPLIT_EXCEEDS_AMOUNT', async () => {
    const ok = await cashIn(
      cashInBody({
        amount: 100,
        split: [
          { amount: 60, mode: 'FIXED', wallet_id: a.walletId },
          { amount: 40, mode: 'PERCENTAGE', wallet_id: b.walletId },
        ],
      }),
    );
    expect(ok.status).toBe(201);
    const r = await cashIn(
      cashInBody({
        amount: 100,
        split: [
          { amount: 60, mode: 'FIXED', wallet_id: a.walletId },
          { amount: 41, mode: 'PERCENTAGE', wallet_id: b.walletId },
        ],
      }),
    );
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('SPLIT_EXCEEDS_AMOUNT');
  });

  it('a wallet that is not of this account is 422 WALLET_NOT_FOUND', async () => {
    const unknown = await cashIn(cashInBody({ split: [{ amount: 1, mode: 'FIXED', wallet_id: '00000000-0000-4000-8000-00000000beef' }] }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toEqual({
      code: 'WALLET_NOT_FOUND',
      details: [{ path: '/split/0/wallet_id', message: expect.any(String) }],
    });
    const other = await createAccount(sb, { splitEnabled: true });
    const foreign = await cashIn(cashInBody({ split: [{ amount: 1, mode: 'FIXED', wallet_id: a.walletId }] }), other.token);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.code).toBe('WALLET_NOT_FOUND');
  });

  it('a wallet whose merchant is not ACTIVE is 422 WALLET_NOT_ACTIVE', async () => {
    const c = await createMerchant(sb, token, 'Split C');
    await setMerchantStatus(sb, c.id, 'SUSPENDED');
    const r = await cashIn(
      cashInBody({
        split: [
          { amount: 1, mode: 'FIXED', wallet_id: a.walletId },
          { amount: 1, mode: 'FIXED', wallet_id: c.walletId },
        ],
      }),
    );
    expect(r.status).toBe(422);
    expect(r.body.error).toMatchObject({ code: 'WALLET_NOT_ACTIVE', details: [{ path: '/split/1/wallet_id' }] });
  });

  it('an account without the feature answers 403 SPLIT_NOT_ENABLED, and creates nothing', async () => {
    const other = await createAccount(sb, { splitEnabled: false });
    const newest = await newestTransaction(sb);
    const r = await cashIn(cashInBody({ split: [{ amount: 1, mode: 'FIXED', wallet_id: a.walletId }] }), other.token);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('SPLIT_NOT_ENABLED');
    expect(await newestTransaction(sb)).toBe(newest);
  });

  it.each([
    ['an empty array', [], '/split'],
    [
      'eleven entries',
      Array.from({ length: 11 }, () => ({ amount: 1, mode: 'FIXED', wallet_id: '00000000-0000-4000-8000-000000000001' })),
      '/split',
    ],
    ['a FIXED amount of 0', [{ amount: 0, mode: 'FIXED', wallet_id: '00000000-0000-4000-8000-000000000001' }], '/split/0/amount'],
    ['a PERCENTAGE of 101', [{ amount: 101, mode: 'PERCENTAGE', wallet_id: '00000000-0000-4000-8000-000000000001' }], '/split/0/amount'],
    ['an unknown mode', [{ amount: 1, mode: 'SHARE', wallet_id: '00000000-0000-4000-8000-000000000001' }], '/split/0/mode'],
    ['a wallet_id that is not a UUID', [{ amount: 1, mode: 'FIXED', wallet_id: 'w1' }], '/split/0/wallet_id'],
    ['a missing wallet_id', [{ amount: 1, mode: 'FIXED' }], '/split/0/wallet_id'],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_name, split, path) => {
    const r = await cashIn(cashInBody({ split }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('refuses a wallet named twice with 400 VALIDATION_ERROR', async () => {
    const r = await cashIn(
      cashInBody({
        split: [
          { amount: 1, mode: 'FIXED', wallet_id: a.walletId },
          { amount: 2, mode: 'PERCENTAGE', wallet_id: a.walletId },
        ],
      }),
    );
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([{ path: '/split/1/wallet_id', message: expect.stringContaining('more than once') }]);
  });
});

describe('validation', () => {
  const customer = cashInBody().customer;
  it.each([
    ['amount missing', { amount: undefined }, '/amount'],
    ['amount 0', { amount: 0 }, '/amount'],
    ['amount with decimals', { amount: 10.5 }, '/amount'],
    ['amount as a string', { amount: '1050' }, '/amount'],
    ['amount above 1,000,000,000', { amount: 1_000_000_001 }, '/amount'],
    ['description missing', { description: undefined }, '/description'],
    ['description empty', { description: '' }, '/description'],
    ['description over 140 characters', { description: 'x'.repeat(141) }, '/description'],
    ['customer missing', { customer: undefined }, '/customer'],
    ['customer.name missing', { customer: { document: customer.document } }, '/customer/name'],
    ['customer.document missing', { customer: { name: 'A' } }, '/customer/document'],
    ['customer.document with punctuation', { customer: { name: 'A', document: '529.982.247-25' } }, '/customer/document'],
    ['customer.document with a wrong check digit', { customer: { name: 'A', document: '52998224724' } }, '/customer/document'],
    ['customer.document of one repeated digit', { customer: { name: 'A', document: '00000000000000' } }, '/customer/document'],
    ['customer.email invalid', { customer: { ...customer, email: 'maria@' } }, '/customer/email'],
    ['customer.phone without area code', { customer: { ...customer, phone: '987654321' } }, '/customer/phone'],
    ['expiration below 60', { expiration: 59 }, '/expiration'],
    ['expiration above 30 days', { expiration: 2_592_001 }, '/expiration'],
    ['expiration as a string', { expiration: '3600' }, '/expiration'],
    ['externalId over 64 characters', { externalId: 'x'.repeat(65) }, '/externalId'],
  ])('%s → 400 VALIDATION_ERROR naming the field', async (_name, over, path) => {
    const body = JSON.parse(JSON.stringify(cashInBody(over)));
    const r = await cashIn(body);
    expect(r.status).toBe(400);
    expect(r.body.statusCode).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(r.body.message).toMatch(new RegExp(path.slice(1).replace('/', '\\.')));
  });

  it('accepts the bounds: amount 1 and 1,000,000,000, expiration 60 and 2,592,000, a CNPJ customer', async () => {
    for (const over of [
      { amount: 1 },
      { amount: 1_000_000_000 },
      { expiration: 60 },
      { expiration: 2_592_000 },
      { customer: { name: 'Empresa', document: '11222333000181' } },
    ]) {
      expect((await cashIn(cashInBody(over))).status).toBe(201);
    }
  });

  it('ignores unknown fields and names them in x-sandbox-warnings', async () => {
    const r = await cashIn({ ...cashInBody(), color: 'blue' });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-sandbox-warnings')).toMatch(/\/color/);
  });

  it('needs a token (401), JSON (415) and valid JSON (400 INVALID_JSON)', async () => {
    const none = await cashIn(cashInBody(), null);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    const text = await sb.request('POST', '/v1/banking/cash-in/pix', { token, raw: 'amount=1', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const broken = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      raw: '{"amount":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.body.error.code).toBe('INVALID_JSON');
  });

  it('a refused request creates nothing', async () => {
    const newest = await newestTransaction(sb);
    await cashIn(cashInBody({ customer: { name: 'A', document: '52998224724' } }));
    expect(await newestTransaction(sb)).toBe(newest);
  });
});

it('the default account is the one the fixtures create', async () => {
  expect((await sb.request('GET', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`)).body.splitEnabled).toBe(true);
});
