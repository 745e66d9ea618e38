// Merchants through real HTTP: the spec's exact wire shapes (created_at on creation, createdAt
// on read and list), pagination and order, PATCH limits, documents, principals and ids.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCnpj, generateCpf } from '../../src/domain/documents.js';
import { control, creditWallet, setMerchantStatus } from '../helpers/control.js';
import { createAccount } from '../helpers/money.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const cpf = () => generateCpf(random);
const cnpj = () => generateCnpj(random);
/** a CPF with its last check digit changed */
const badCpf = () => {
  const good = cpf();
  return good.slice(0, 10) + String((Number(good[10]) + 1) % 10);
};

const merchantBody = (over: Record<string, unknown> = {}) => ({
  name: 'Padaria Pão Quente',
  document: cpf(),
  document_type: 'CPF',
  email: 'contato@padaria.example',
  phone: '11987654321',
  ...over,
});

let sb: TestSandbox;
let token: string;

async function create(tok: string, over: Record<string, unknown> = {}) {
  const r = await sb.request('POST', '/v1/merchants', { token: tok, body: merchantBody(over) });
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.body.data as {
    merchant: { id: string; created_at: string };
    wallet_id: string;
    credentials: { client_id: string; client_secret: string };
  };
}

beforeAll(async () => {
  sb = await startTestSandbox();
  token = await sb.token();
});
afterAll(async () => {
  await sb.stop();
});

describe('POST /v1/merchants', () => {
  it('answers 201 with the spec envelope: data.merchant (snake_case dates), wallet_id and credentials', async () => {
    const body = merchantBody();
    const r = await sb.request('POST', '/v1/merchants', { token, body });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'message', 'statusCode']);
    expect(r.body.statusCode).toBe(201);
    expect(typeof r.body.message).toBe('string');
    expect(Object.keys(r.body.data).sort()).toEqual(['credentials', 'merchant', 'wallet_id']);
    const m = r.body.data.merchant;
    expect(Object.keys(m).sort()).toEqual([
      'created_at',
      'document',
      'document_type',
      'email',
      'id',
      'name',
      'phone',
      'status',
      'updated_at',
    ]);
    expect(m).toMatchObject({
      name: body.name,
      document: body.document,
      document_type: 'CPF',
      email: body.email,
      phone: body.phone,
      status: 'ACTIVE',
    });
    expect(m.id).toMatch(UUID);
    expect(m.created_at).toMatch(ISO);
    expect(m.updated_at).toBe(m.created_at);
    expect(r.body.data.wallet_id).toMatch(UUID);
    const creds = r.body.data.credentials;
    expect(Object.keys(creds).sort()).toEqual(['client_id', 'client_secret']);
    expect(typeof creds.client_id).toBe('string');
    expect(typeof creds.client_secret).toBe('string');
    expect(creds.client_id).not.toBe('sandbox-client');
    // the secret is stored only as a hash
    const stored = sb.running.ctx.store.merchants.get(m.id)!;
    expect(stored.secretHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(sb.running.ctx.store.toData())).not.toContain(creds.client_secret);
  });

  it('accepts a CNPJ and gives every merchant its own credentials and wallet', async () => {
    const a = await create(token, { document: cnpj(), document_type: 'CNPJ' });
    const b = await create(token);
    expect(a.credentials.client_id).not.toBe(b.credentials.client_id);
    expect(a.credentials.client_secret).not.toBe(b.credentials.client_secret);
    expect(a.wallet_id).not.toBe(b.wallet_id);
  });

  it('ignores unknown fields and names them in x-sandbox-warnings', async () => {
    const r = await sb.request('POST', '/v1/merchants', { token, body: merchantBody({ nickname: 'x', status: 'SUSPENDED' }) });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-sandbox-warnings')).toContain('/nickname');
    expect(r.body.data.merchant.status).toBe('ACTIVE');
    expect(r.body.data.merchant).not.toHaveProperty('nickname');
  });

  it('lists every missing or malformed field with a JSON pointer', async () => {
    const r = await sb.request('POST', '/v1/merchants', {
      token,
      body: { document: '123.456.789-09', document_type: 'RG', email: 'nope', phone: '(11) 9876' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    const paths = r.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['/document', '/document_type', '/email', '/name', '/phone']);
  });

  it('rejects a CPF whose check digits are wrong', async () => {
    const r = await sb.request('POST', '/v1/merchants', { token, body: merchantBody({ document: badCpf() }) });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details).toEqual([{ path: '/document', message: expect.stringContaining('check digits') }]);
  });

  it('rejects a CPF made of one repeated digit and a CNPJ with wrong check digits', async () => {
    const rep = await sb.request('POST', '/v1/merchants', { token, body: merchantBody({ document: '11111111111' }) });
    expect(rep.status).toBe(400);
    const good = cnpj();
    const bad = good.slice(0, 12) + String((Number(good[12]) + 1) % 10) + good[13];
    const r = await sb.request('POST', '/v1/merchants', { token, body: merchantBody({ document: bad, document_type: 'CNPJ' }) });
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].path).toBe('/document');
  });

  it('rejects a document_type that does not agree with the document length', async () => {
    const r = await sb.request('POST', '/v1/merchants', { token, body: merchantBody({ document: cpf(), document_type: 'CNPJ' }) });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.error.details[0].path).toBe('/document_type');
    const r2 = await sb.request('POST', '/v1/merchants', { token, body: merchantBody({ document: cnpj(), document_type: 'CPF' }) });
    expect(r2.status).toBe(400);
    expect(r2.body.error.details[0].path).toBe('/document_type');
  });

  it('answers 409 DOCUMENT_ALREADY_REGISTERED for a second merchant with the same document in the account', async () => {
    const document = cpf();
    await create(token, { document });
    const r = await sb.request('POST', '/v1/merchants', { token, body: merchantBody({ document, name: 'Other' }) });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ statusCode: 409, error: { code: 'DOCUMENT_ALREADY_REGISTERED' } });
    // another account may register the same document
    const other = await createAccount(sb);
    expect((await sb.request('POST', '/v1/merchants', { token: other.token, body: merchantBody({ document }) })).status).toBe(201);
  });

  it('creates exactly one merchant when the same document arrives concurrently', async () => {
    const document = cpf();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => sb.request('POST', '/v1/merchants', { token, body: merchantBody({ document }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });
});

describe('GET /v1/merchants', () => {
  let acct: { id: string; token: string };
  const ids: string[] = [];
  beforeAll(async () => {
    acct = await createAccount(sb);
    // several creations within one millisecond are likely here: order must still be stable
    for (let i = 0; i < 3; i++) {
      const batch = await Promise.all(Array.from({ length: 4 }, (_, j) => create(acct.token, { name: `M${i}-${j}` })));
      ids.push(...batch.map((b) => b.merchant.id));
    }
  });

  it('answers data and pagination with the spec field names (createdAt) and no envelope', async () => {
    const r = await sb.request('GET', '/v1/merchants', { token: acct.token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'pagination']);
    expect(r.body.pagination).toEqual({ page: 1, limit: 10, total: 12, totalPages: 2 });
    expect(r.body.data).toHaveLength(10);
    for (const m of r.body.data) {
      expect(Object.keys(m).sort()).toEqual(['createdAt', 'document', 'document_type', 'email', 'merchantId', 'name', 'phone', 'status']);
      expect(m.merchantId).toMatch(UUID);
      expect(m.createdAt).toMatch(ISO);
    }
  });

  it('orders by createdAt then id, stable across pages', async () => {
    const full = await sb.request('GET', '/v1/merchants?limit=100', { token: acct.token });
    const all = full.body.data as { merchantId: string; createdAt: string }[];
    expect(all.map((m) => m.merchantId).sort()).toEqual([...ids].sort());
    const expected = [...all].sort((a, b) =>
      a.createdAt === b.createdAt ? (a.merchantId < b.merchantId ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
    );
    expect(all).toEqual(expected);
    const paged: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const r = await sb.request('GET', `/v1/merchants?page=${page}&limit=3`, { token: acct.token });
      expect(r.body.pagination).toEqual({ page, limit: 3, total: 12, totalPages: 4 });
      paged.push(...r.body.data.map((m: { merchantId: string }) => m.merchantId));
    }
    expect(paged).toEqual(all.map((m) => m.merchantId));
  });

  it('answers an empty page past the end with correct pagination', async () => {
    const r = await sb.request('GET', '/v1/merchants?page=9&limit=5', { token: acct.token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], pagination: { page: 9, limit: 5, total: 12, totalPages: 3 } });
  });

  it('filters by status', async () => {
    await setMerchantStatus(sb, ids[0]!, 'INACTIVE');
    await setMerchantStatus(sb, ids[1]!, 'SUSPENDED');
    const inactive = await sb.request('GET', '/v1/merchants?status=INACTIVE', { token: acct.token });
    expect(inactive.body.data.map((m: { merchantId: string }) => m.merchantId)).toEqual([ids[0]]);
    expect(inactive.body.pagination).toEqual({ page: 1, limit: 10, total: 1, totalPages: 1 });
    const active = await sb.request('GET', '/v1/merchants?status=ACTIVE&limit=100', { token: acct.token });
    expect(active.body.pagination.total).toBe(10);
    expect(active.body.data.every((m: { status: string }) => m.status === 'ACTIVE')).toBe(true);
  });

  it('refuses limit above 100 (not clamped), page 0, non-numbers and unknown statuses', async () => {
    const over = await sb.request('GET', '/v1/merchants?limit=101', { token: acct.token });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: '/query/limit' }] });
    for (const q of ['limit=0', 'page=0', 'page=abc', 'limit=1.5', 'status=active', 'status=DELETED']) {
      const r = await sb.request('GET', `/v1/merchants?${q}`, { token: acct.token });
      expect(r.status, q).toBe(400);
      expect(r.body.error.code, q).toBe('VALIDATION_ERROR');
    }
    expect((await sb.request('GET', '/v1/merchants?limit=100', { token: acct.token })).status).toBe(200);
  });

  it("lists only the token's account merchants", async () => {
    const r = await sb.request('GET', '/v1/merchants?limit=100', { token });
    const listed = new Set(r.body.data.map((m: { merchantId: string }) => m.merchantId));
    expect(ids.some((id) => listed.has(id))).toBe(false);
  });
});

describe('GET /v1/merchants/{merchantId}', () => {
  it('answers the merchant with its wallets and camelCase dates, no envelope', async () => {
    const c = await create(token);
    // the balance is the ledger's sum for the wallet
    await creditWallet(sb, c.wallet_id, 1234);
    const r = await sb.request('GET', `/v1/merchants/${c.merchant.id}`, { token });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      'createdAt',
      'document',
      'document_type',
      'email',
      'merchantId',
      'name',
      'phone',
      'status',
      'updatedAt',
      'wallets',
    ]);
    expect(r.body.merchantId).toBe(c.merchant.id);
    expect(r.body.createdAt).toBe(c.merchant.created_at);
    expect(r.body.updatedAt).toMatch(ISO);
    expect(r.body.wallets).toEqual([{ walletId: c.wallet_id, name: expect.any(String), balance: 1234, currency: 'BRL' }]);
  });

  it('answers 404 for an unknown UUID and for another account’s merchant, 400 for a non-UUID', async () => {
    const unknown = await sb.request('GET', `/v1/merchants/${randomUUID()}`, { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const other = await createAccount(sb);
    const theirs = await create(other.token);
    const r = await sb.request('GET', `/v1/merchants/${theirs.merchant.id}`, { token });
    expect(r.status).toBe(404);
    expect((await sb.request('PATCH', `/v1/merchants/${theirs.merchant.id}`, { token, body: { name: 'x' } })).status).toBe(404);
    const bad = await sb.request('GET', '/v1/merchants/not-a-uuid', { token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: '/params/merchantId' }] });
  });
});

describe('PATCH /v1/merchants/{merchantId}', () => {
  it('changes only the fields sent and answers the spec shape with updatedAt', async () => {
    const c = await create(token, { email: 'old@shop.example' });
    await control(sb, 'POST', '/_sandbox/clock/advance', { seconds: 5 });
    const r = await sb.request('PATCH', `/v1/merchants/${c.merchant.id}`, { token, body: { name: 'New name' } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      'document',
      'document_type',
      'email',
      'merchantId',
      'name',
      'phone',
      'status',
      'updatedAt',
    ]);
    expect(r.body).toMatchObject({ merchantId: c.merchant.id, name: 'New name', email: 'old@shop.example', status: 'ACTIVE' });
    expect(r.body.updatedAt > c.merchant.created_at).toBe(true);
    const r2 = await sb.request('PATCH', `/v1/merchants/${c.merchant.id}`, {
      token,
      body: { email: 'new@shop.example', phone: '2133334444' },
    });
    expect(r2.body).toMatchObject({ name: 'New name', email: 'new@shop.example', phone: '2133334444' });
    const read = await sb.request('GET', `/v1/merchants/${c.merchant.id}`, { token });
    expect(read.body).toMatchObject({ name: 'New name', email: 'new@shop.example', phone: '2133334444', updatedAt: r2.body.updatedAt });
  });

  it.each(['document', 'document_type', 'status'])('refuses %s with a VALIDATION_ERROR saying it cannot be changed', async (field) => {
    const c = await create(token);
    const value = field === 'status' ? 'SUSPENDED' : field === 'document_type' ? 'CNPJ' : cpf();
    const r = await sb.request('PATCH', `/v1/merchants/${c.merchant.id}`, { token, body: { name: 'x', [field]: value } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('VALIDATION_ERROR');
    expect(r.body.message).toContain(field);
    expect(r.body.message).toContain('cannot be changed');
    expect(r.body.error.details).toEqual([{ path: `/${field}`, message: expect.stringContaining('cannot be changed') }]);
    expect((await sb.request('GET', `/_sandbox/merchants/${c.merchant.id}`)).body.name).not.toBe('x');
  });

  it('needs at least one of name, email, phone and validates them', async () => {
    const c = await create(token);
    for (const body of [{}, { nickname: 'x' }]) {
      const r = await sb.request('PATCH', `/v1/merchants/${c.merchant.id}`, { token, body });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/at least one of name, email, phone/);
    }
    const bad = await sb.request('PATCH', `/v1/merchants/${c.merchant.id}`, { token, body: { email: 'no-at-sign', phone: '123' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['/email', '/phone']);
    expect((await sb.request('PATCH', `/v1/merchants/${randomUUID()}`, { token, body: { name: 'x' } })).status).toBe(404);
    expect((await sb.request('PATCH', '/v1/merchants/123', { token, body: { name: 'x' } })).status).toBe(400);
  });
});

describe('principals', () => {
  it('refuses merchant tokens on merchant management with 403 FORBIDDEN', async () => {
    const c = await create(token);
    const mt = await sb.token(c.credentials);
    const calls: [string, string, unknown?][] = [
      ['POST', '/v1/merchants', merchantBody()],
      ['GET', '/v1/merchants'],
      ['GET', `/v1/merchants/${c.merchant.id}`],
      ['PATCH', `/v1/merchants/${c.merchant.id}`, { name: 'x' }],
    ];
    for (const [method, p, body] of calls) {
      const r = await sb.request(method, p, { token: mt, body });
      expect(r.status, `${method} ${p}`).toBe(403);
      expect(r.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('gives a merchant token its main wallet balance at /v1/merchants/balance; an account token gets 403', async () => {
    const c = await create(token);
    const mt = await sb.token(c.credentials);
    const zero = await sb.request('GET', '/v1/merchants/balance', { token: mt });
    expect(zero.status).toBe(200);
    expect(zero.body).toEqual({ statusCode: 200, message: expect.any(String), data: { balance: 0 } });
    await creditWallet(sb, c.wallet_id, 4321);
    expect((await sb.request('GET', '/v1/merchants/balance', { token: mt })).body.data.balance).toBe(4321);
    const acc = await sb.request('GET', '/v1/merchants/balance', { token });
    expect(acc.status).toBe(403);
    expect(acc.body.error.code).toBe('FORBIDDEN');
  });

  it('needs a token on every merchant route', async () => {
    for (const [method, p] of [
      ['GET', '/v1/merchants'],
      ['POST', '/v1/merchants'],
      ['GET', '/v1/merchants/balance'],
      ['GET', `/v1/merchants/${randomUUID()}`],
    ]) {
      const r = await sb.request(method!, p!, {});
      expect(r.status, `${method} ${p}`).toBe(401);
      expect(r.body.error.code).toBe('UNAUTHORIZED');
    }
  });
});
