// POST /v1/banking/cash-out/pix through real HTTP: the spec's fields, the string amount, key
// kinds, idempotency (docs/decisions.md#d27-idempotency-of-cash-out) under concurrency, funds, and settlement by the key directory.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isEndToEndId } from '../../src/domain/end-to-end.js';
import { WalAdapter } from '../../src/store/wal-adapter.js';
import { addPixKey, creditAccount, creditWallet, newestTransaction } from '../helpers/control.js';
import { advance, balanceOf, cashOut, cashOutBody, createAccount, createMerchant, lookup } from '../helpers/money.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CPF = '52998224725';
const OTHER_CPF = '11144477735';

let sb: TestSandbox;
let token: string;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.stop();
});
beforeEach(async () => {
  token = await sb.token();
});

describe('creating a transfer', () => {
  it('answers 201 with exactly transactionId, amount (an integer), status, createdAt and x-idempotency-key, and debits at once', async () => {
    const before = await balanceOf(sb, token);
    const key = randomUUID();
    const r = await cashOut(sb, token, cashOutBody(), key);
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['amount', 'createdAt', 'status', 'transactionId', 'x-idempotency-key']);
    expect(r.body).toEqual({
      transactionId: expect.stringMatching(UUID),
      amount: 1_500,
      status: 'PROCESSING',
      createdAt: expect.any(String),
      'x-idempotency-key': key,
    });
    expect(new Date(r.body.createdAt).toISOString()).toBe(r.body.createdAt);
    expect(await balanceOf(sb, token)).toBe(before - 1_500);
    const l = await lookup(sb, token, r.body.transactionId);
    expect(l.body.data).toEqual({ id: r.body.transactionId, status: 'PROCESSING' });
  });

  it.each([
    ['a number', 1500],
    ['a decimal', '15.00'],
    ['a comma decimal', '15,00'],
    ['a sign', '-1500'],
    ['a plus sign', '+1500'],
    ['leading zeros', '01500'],
    ['zero', '0'],
    ['empty', ''],
    ['an exponent', '1e3'],
    ['spaces', ' 1500'],
    ['more than 1,000,000,000', '1000000001'],
  ])('refuses an amount that is %s, saying it is a string of cents', async (_name, amount) => {
    const r = await cashOut(sb, token, cashOutBody({ amount }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details).toContainEqual({ path: '/amount', message: expect.stringMatching(/string of cents/) });
    expect(r.body.message).toMatch(/^amount .*string of cents/);
  });

  it.each([
    ['cpf', CPF],
    ['Cpf', CPF],
    ['CNPJ', '11222333000181'],
    ['EMAIL', 'ana@example.com'],
    ['E-MAIL', 'Ana@Example.com'],
    ['e-mail', 'ana@example.com'],
    ['PHONE', '+5511987654321'],
    ['phone', '+551133334444'],
    ['RANDOM', '123e4567-e89b-12d3-a456-426614174000'],
    ['EVP', '123E4567-E89B-12D3-A456-426614174000'],
    ['random', 'f47ac10b-58cc-4372-a567-0e02b2c3d479'],
  ])('accepts keyType %s with a key of that kind', async (keyType, key) => {
    const r = await cashOut(sb, token, cashOutBody({ amount: '1' }, { keyType, key }));
    expect(r.status).toBe(201);
  });

  it.each([
    ['CPF', '52998224724'],
    ['CPF', '11111111111'],
    ['CPF', 'ana@example.com'],
    ['CNPJ', '11222333000180'],
    ['CNPJ', CPF],
    ['EMAIL', 'ana@'],
    ['EMAIL', `${'a'.repeat(72)}@b.com`],
    ['PHONE', '11987654321'],
    ['PHONE', '+1 5551234567'],
    ['RANDOM', 'not-a-uuid'],
  ])('refuses a %s key %s with 400 at /details/key', async (keyType, key) => {
    const r = await cashOut(sb, token, cashOutBody({}, { keyType, key }));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details.map((d: { path: string }) => d.path)).toEqual(['/details/key']);
  });

  it.each([
    ['type not pix_key', { type: 'bank_account' }, '/type'],
    ['description missing', { description: undefined }, '/description'],
    ['amount missing', { amount: undefined }, '/amount'],
    ['details missing', { details: undefined }, '/details'],
    ['details.name missing', { details: { key: CPF, keyType: 'CPF' } }, '/details/name'],
    ['details.key missing', { details: { name: 'A', keyType: 'CPF' } }, '/details/key'],
    ['details.keyType missing', { details: { name: 'A', key: CPF } }, '/details/keyType'],
    ['details.keyType unknown', { details: { name: 'A', key: CPF, keyType: 'IBAN' } }, '/details/keyType'],
    ['details.document malformed', { details: { name: 'A', key: CPF, keyType: 'CPF', document: '529.982.247-25' } }, '/details/document'],
    [
      'details.document with wrong check digits',
      { details: { name: 'A', key: CPF, keyType: 'CPF', document: '52998224724' } },
      '/details/document',
    ],
  ])('%s → 400 VALIDATION_ERROR', async (_name, over, path) => {
    const body = JSON.parse(JSON.stringify(cashOutBody(over)));
    const r = await cashOut(sb, token, body);
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('type may be left out: it defaults to pix_key, the only kind', async () => {
    const { type: _omitted, ...body } = cashOutBody({ amount: '1' });
    expect((await cashOut(sb, token, body)).status).toBe(201);
  });

  it('without enough balance answers 422 INSUFFICIENT_FUNDS and creates nothing', async () => {
    const poor = await createAccount(sb, { balance: 1_000 });
    const newest = await newestTransaction(sb, 'type=CASH_OUT');
    const key = randomUUID();
    const r = await cashOut(sb, poor.token, cashOutBody({ amount: '1001' }), key);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await newestTransaction(sb, 'type=CASH_OUT')).toBe(newest);
    expect(await balanceOf(sb, poor.token)).toBe(1_000);
    // the refusal is not remembered: the same key works once the money is there
    await creditAccount(sb, poor.id, 1);
    const again = await cashOut(sb, poor.token, cashOutBody({ amount: '1001' }), key);
    expect(again.status).toBe(201);
    expect(again.headers.get('x-sandbox-idempotent-replayed')).toBeNull();
    expect(await balanceOf(sb, poor.token)).toBe(0);
  });

  it('a merchant token debits the merchant wallet, not the account', async () => {
    const m = await createMerchant(sb, token);
    const accountBefore = await balanceOf(sb, token);
    const r = await cashOut(sb, m.token, cashOutBody({ amount: '10' }));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('INSUFFICIENT_FUNDS');
    await creditWallet(sb, m.walletId, 100);
    expect((await cashOut(sb, m.token, cashOutBody({ amount: '10' }))).status).toBe(201);
    expect(await balanceOf(sb, m.token)).toBe(90);
    expect(await balanceOf(sb, token)).toBe(accountBefore);
  });
});

describe('idempotency', () => {
  it('the header is required (400 MISSING_IDEMPOTENCY_KEY) and must be a UUID (400 INVALID_IDEMPOTENCY_KEY)', async () => {
    const none = await cashOut(sb, token, cashOutBody(), null);
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('MISSING_IDEMPOTENCY_KEY');
    for (const bad of ['abc', '123e4567e89b12d3a456426614174000', '123e4567-e89b-12d3-a456-42661417400g']) {
      const r = await cashOut(sb, token, cashOutBody(), bad);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    }
  });

  it('the same key and body replays the first answer with x-sandbox-idempotent-replayed and moves no money', async () => {
    const key = randomUUID();
    const first = await cashOut(sb, token, cashOutBody({ amount: '700' }), key);
    const balance = await balanceOf(sb, token);
    const newest = await newestTransaction(sb, 'type=CASH_OUT');
    // the same body with its keys in another order is the same request
    const { details, ...rest } = cashOutBody({ amount: '700' });
    const second = await cashOut(
      sb,
      token,
      { details: { keyType: details.keyType, key: details.key, name: details.name }, ...rest },
      key.toUpperCase(),
    );
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('x-sandbox-idempotent-replayed')).toBe('true');
    expect(first.headers.get('x-sandbox-idempotent-replayed')).toBeNull();
    expect(await balanceOf(sb, token)).toBe(balance);
    expect(await newestTransaction(sb, 'type=CASH_OUT')).toBe(newest);
  });

  it('a replay after settlement still answers the first answer', async () => {
    const key = randomUUID();
    const first = await cashOut(sb, token, cashOutBody({ amount: '5' }), key);
    await advance(sb, 5);
    token = await sb.token();
    expect((await lookup(sb, token, first.body.transactionId)).body.data.status).toBe('COMPLETED');
    const again = await cashOut(sb, token, cashOutBody({ amount: '5' }), key);
    expect(again.body).toEqual(first.body);
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    await cashOut(sb, token, cashOutBody({ amount: '100' }), key);
    const r = await cashOut(sb, token, cashOutBody({ amount: '101' }), key);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a request rejected by validation is not remembered', async () => {
    const key = randomUUID();
    expect((await cashOut(sb, token, cashOutBody({ amount: 100 }), key)).status).toBe(400);
    const ok = await cashOut(sb, token, cashOutBody({ amount: '100' }), key);
    expect(ok.status).toBe(201);
    expect(ok.headers.get('x-sandbox-idempotent-replayed')).toBeNull();
  });

  it('keys are scoped to the principal: another principal with the same key makes its own transfer', async () => {
    const key = randomUUID();
    const other = await createAccount(sb, { balance: 10_000 });
    const a = await cashOut(sb, token, cashOutBody({ amount: '100' }), key);
    const b = await cashOut(sb, other.token, cashOutBody({ amount: '100' }), key);
    expect(b.status).toBe(201);
    expect(b.headers.get('x-sandbox-idempotent-replayed')).toBeNull();
    expect(b.body.transactionId).not.toBe(a.body.transactionId);
  });

  it('keys are kept 24 hours by the sandbox clock, then pruned and free again', async () => {
    const key = randomUUID();
    const first = await cashOut(sb, token, cashOutBody({ amount: '3' }), key);
    await advance(sb, 86_399);
    token = await sb.token();
    expect((await cashOut(sb, token, cashOutBody({ amount: '3' }), key)).body).toEqual(first.body);
    const recordId = [...sb.running.ctx.store.idempotency.scan({ order: 'oldest' })].map((r) => r.id).find((id) => id.endsWith(key))!;
    expect(recordId).toBeDefined();
    await advance(sb, 2);
    expect(sb.running.ctx.store.idempotency.get(recordId)).toBeUndefined();
    token = await sb.token();
    const fresh = await cashOut(sb, token, cashOutBody({ amount: '3' }), key);
    expect(fresh.status).toBe(201);
    expect(fresh.body.transactionId).not.toBe(first.body.transactionId);
  });
});

describe('concurrency (real lowdb file)', () => {
  let fsb: TestSandbox;
  beforeAll(async () => {
    fsb = await startTestSandbox({ file: true });
  });
  afterAll(async () => {
    await fsb.stop();
  });

  it('100 concurrent requests with one key create exactly one transfer and one debit', async () => {
    const t = await fsb.token();
    const before = await balanceOf(fsb, t);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 100 }, () => cashOut(fsb, t, cashOutBody({ amount: '2500' }), key)));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('x-sandbox-idempotent-replayed') === 'true')).toHaveLength(99);
    const store = fsb.running.ctx.store;
    expect([...store.transactions.scan()].filter((x) => x.type === 'CASH_OUT')).toHaveLength(1);
    expect([...store.ledger.scan()].filter((e) => e.kind === 'CASH_OUT')).toHaveLength(1);
    expect(await balanceOf(fsb, t)).toBe(before - 2_500);
  });

  it('every answer, replays included, comes only once the transfer is on disk', async () => {
    const t = await fsb.token();
    const key = randomUUID();
    const onDisk = async (id: string) => {
      const files = await Promise.all(['db.json', 'db.json.wal'].map((f) => readFile(path.join(fsb.dataDir!, f), 'utf8').catch(() => '')));
      return files.some((text) => text.includes(id));
    };
    // slow disk: each append takes 150 ms more, so an answer given before its write would show
    // eslint-disable-next-line @typescript-eslint/unbound-method -- restored, and called with its own `this`
    const append = WalAdapter.prototype.append;
    WalAdapter.prototype.append = async function (this: WalAdapter, ops) {
      await new Promise((r) => setTimeout(r, 150));
      return append.call(this, ops);
    };
    try {
      const seen = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const r = await cashOut(fsb, t, cashOutBody({ amount: '10' }), key);
          return { r, durable: await onDisk(r.body.transactionId) };
        }),
      );
      expect(seen.filter((s) => s.r.headers.get('x-sandbox-idempotent-replayed') === 'true')).toHaveLength(19);
      expect(seen.every((s) => s.durable)).toBe(true);
    } finally {
      WalAdapter.prototype.append = append;
    }
  });

  it('concurrent transfers that together exceed the balance never overdraw it', async () => {
    const acct = await createAccount(fsb, { balance: 10_000 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => cashOut(fsb, acct.token, cashOutBody({ amount: '1000' }))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 422 && a.body.error.code === 'INSUFFICIENT_FUNDS')).toHaveLength(20);
    expect(await balanceOf(fsb, acct.token)).toBe(0);
    expect(fsb.running.ctx.store.balances.of(`account:${acct.id}`)).toBe(0);
  });
});

describe('settlement by the key directory (D26)', () => {
  it('stays PROCESSING until settleAfterSeconds have passed', async () => {
    const r = await cashOut(sb, token, cashOutBody({ amount: '10' }));
    await advance(sb, 1);
    expect((await lookup(sb, token, r.body.transactionId)).body.data.status).toBe('PROCESSING');
    await advance(sb, 1);
    expect((await lookup(sb, token, r.body.transactionId)).body.data.status).toBe('COMPLETED');
  });

  it('a CPF key with another details.document ends FAILED with an error, and the balance is restored', async () => {
    const before = await balanceOf(sb, token);
    const r = await cashOut(sb, token, cashOutBody({ amount: '4200' }, { key: CPF, keyType: 'CPF', document: OTHER_CPF }));
    expect(await balanceOf(sb, token)).toBe(before - 4_200);
    await advance(sb, 2);
    token = await sb.token();
    const l = await lookup(sb, token, r.body.transactionId);
    expect(l.body).toEqual({
      statusCode: 200,
      message: expect.any(String),
      data: { id: r.body.transactionId, status: 'FAILED', error: { code: 'DOCUMENT_MISMATCH', message: expect.any(String) } },
    });
    expect(await balanceOf(sb, token)).toBe(before);
  });

  it('a CPF key with the same details.document ends COMPLETED with receiver and end_to_end_id', async () => {
    const before = await balanceOf(sb, token);
    const r = await cashOut(sb, token, cashOutBody({ amount: '4200' }, { name: 'Maria', key: CPF, keyType: 'cpf', document: CPF }));
    await advance(sb, 2);
    token = await sb.token();
    const l = await lookup(sb, token, r.body.transactionId);
    expect(Object.keys(l.body.data).sort()).toEqual(['end_to_end_id', 'id', 'receiver', 'status']);
    expect(l.body.data.status).toBe('COMPLETED');
    expect(isEndToEndId(l.body.data.end_to_end_id)).toBe(true);
    expect(l.body.data.receiver).toEqual({
      name: 'Maria',
      document: CPF,
      ispb: expect.stringMatching(/^[0-9]{8}$/),
      account_number: expect.any(String),
      account_type: expect.any(String),
      key: CPF,
      keyType: 'CPF',
    });
    expect(await balanceOf(sb, token)).toBe(before - 4_200);
  });

  it('a key marked unknown in the directory ends FAILED with KEY_NOT_FOUND; a known key takes its owner', async () => {
    await addPixKey(sb, { key: 'ghost@example.com', keyType: 'EMAIL', owner: { name: 'Nobody', document: CPF }, unknown: true });
    await addPixKey(sb, { key: '+5511912345678', keyType: 'PHONE', owner: { name: 'Owner Name', document: OTHER_CPF, ispb: '60701190' } });
    const ghost = await cashOut(sb, token, cashOutBody({ amount: '10' }, { key: 'Ghost@Example.com', keyType: 'EMAIL' }));
    const phone = await cashOut(sb, token, cashOutBody({ amount: '10' }, { key: '+5511912345678', keyType: 'PHONE', document: OTHER_CPF }));
    await advance(sb, 2);
    token = await sb.token();
    expect((await lookup(sb, token, ghost.body.transactionId)).body.data.error.code).toBe('KEY_NOT_FOUND');
    expect((await lookup(sb, token, phone.body.transactionId)).body.data).toMatchObject({
      status: 'COMPLETED',
      receiver: { name: 'Owner Name', document: OTHER_CPF, ispb: '60701190', key: '+5511912345678', keyType: 'PHONE' },
    });
  });
});
