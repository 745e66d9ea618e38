// Tenants, settings, adjustments and merchant status through the control API, each checked
// through the public API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { advance, balance, createCharge, createTransfer, errorShape, lookup } from '../helpers/control.js';

let sb: TestSandbox;
let defaultToken: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  defaultToken = await sb.token();
});
afterAll(() => sb.stop());

async function newTenant(body: Record<string, unknown> = {}) {
  const r = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Tenant', ...body } });
  expect(r.status).toBe(201);
  const token = await sb.token({ client_id: r.body.client_id, client_secret: r.body.client_secret });
  return { account: r.body, token };
}

describe('accounts', () => {
  it('creates a tenant with its own credentials, shown once, and an opening balance', async () => {
    const r = await sb.request('POST', '/_sandbox/accounts', {
      body: { name: 'Suite A', client_id: 'suite-a', client_secret: 'suite-a-secret', balance: 4321 },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Suite A',
      client_id: 'suite-a',
      client_secret: 'suite-a-secret',
      splitEnabled: false,
      autoPayAfterSeconds: null,
      settleAfterSeconds: 2,
      balance: 4321,
    });
    expect(r.body).not.toHaveProperty('secretHash');
    const token = await sb.token({ client_id: 'suite-a', client_secret: 'suite-a-secret' });
    expect(await balance(sb, token)).toBe(4321);

    const list = await sb.request('GET', '/_sandbox/accounts');
    expect(list.status).toBe(200);
    const listed = list.body.find((a: any) => a.id === r.body.id);
    expect(listed).toMatchObject({ client_id: 'suite-a', balance: 4321 });
    expect(listed).not.toHaveProperty('client_secret');
    expect(JSON.stringify(list.body)).not.toMatch(/scrypt|secretHash/);
    expect(list.body[0].id).toBe(DEFAULT_ACCOUNT_ID);
  });

  it('generates credentials when none are given, and refuses a client_id already in use', async () => {
    const { account } = await newTenant();
    expect(account.client_id).toMatch(/^acct_/);
    expect(typeof account.client_secret).toBe('string');
    const dup = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'dup', client_id: 'sandbox-client' } });
    expect(dup.status).toBe(400);
    expect(errorShape(dup).error.details).toEqual([{ path: '/client_id', message: 'is already used by another account or merchant' }]);
  });

  it('keeps tenants apart: another account’s transaction answers 404, never 403', async () => {
    const a = await newTenant({ balance: 10_000 });
    const mine = await createCharge(sb, a.token, 500);
    const theirs = await createCharge(sb, defaultToken, 600);
    expect((await lookup(sb, a.token, mine.transactionId)).status).toBe(200);
    const cross1 = await lookup(sb, a.token, theirs.transactionId);
    const cross2 = await lookup(sb, defaultToken, mine.transactionId);
    expect([cross1.status, cross2.status]).toEqual([404, 404]);
    expect(errorShape(cross1).error.code).toBe('NOT_FOUND');
    // its transfers move its own money only
    const before = await balance(sb, defaultToken);
    await createTransfer(sb, a.token, 1000);
    expect(await balance(sb, a.token)).toBe(9000);
    expect(await balance(sb, defaultToken)).toBe(before);
  });

  it('PATCH changes splitEnabled, autoPayAfterSeconds and settleAfterSeconds, with their effects', async () => {
    const t = await newTenant({ balance: 50_000 });
    const p = await sb.request('PATCH', `/_sandbox/accounts/${t.account.id}`, {
      body: { autoPayAfterSeconds: 10, settleAfterSeconds: 30, name: 'Renamed' },
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      id: t.account.id,
      name: 'Renamed',
      autoPayAfterSeconds: 10,
      settleAfterSeconds: 30,
      splitEnabled: false,
      balance: 50_000,
    });

    const charge = await createCharge(sb, t.token, 700);
    const transfer = await createTransfer(sb, t.token, 800);
    await advance(sb, 9);
    expect((await lookup(sb, t.token, charge.transactionId)).body.data.status).toBe('WAITING_PAYMENT');
    await advance(sb, 1);
    expect((await lookup(sb, t.token, charge.transactionId)).body.data.status).toBe('COMPLETED');
    expect((await lookup(sb, t.token, transfer.transactionId)).body.data.status).toBe('PROCESSING');
    await advance(sb, 20);
    expect((await lookup(sb, t.token, transfer.transactionId)).body.data.status).toBe('COMPLETED');

    // splitEnabled: off refuses a split, on accepts it
    const wallet = '00000000-0000-4000-8000-00000000ffff';
    const split = { split: { amount: 10, mode: 'FIXED', wallet_id: wallet } };
    const off = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token: t.token,
      body: { amount: 100, description: 'x', customer: { name: 'A', document: '12345678909' }, ...split },
    });
    expect(errorShape(off).error.code).toBe('SPLIT_NOT_ENABLED');
    await sb.request('PATCH', `/_sandbox/accounts/${t.account.id}`, { body: { splitEnabled: true } });
    const on = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token: t.token,
      body: { amount: 100, description: 'x', customer: { name: 'A', document: '12345678909' }, ...split },
    });
    expect(errorShape(on).error.code).toBe('WALLET_NOT_FOUND'); // past the feature check: the wallet is not theirs
  });

  it('an unknown account is 404 and a malformed id 400', async () => {
    const unknown = await sb.request('PATCH', '/_sandbox/accounts/9b2f9d0e-0000-4000-8000-000000000000', { body: { name: 'x' } });
    expect(errorShape(unknown).error.code).toBe('NOT_FOUND');
    const bad = await sb.request('POST', '/_sandbox/accounts/not-a-uuid/credit', { body: { amount: 1 } });
    expect(bad.status).toBe(400);
    expect(errorShape(bad).error.code).toBe('VALIDATION_ERROR');
  });
});

describe('credits and debits', () => {
  it('moves money into and out of an account, never below zero', async () => {
    const t = await newTenant();
    const up = await sb.request('POST', `/_sandbox/accounts/${t.account.id}/credit`, { body: { amount: 2500, description: 'top-up' } });
    expect(up.status).toBe(200);
    expect(up.body.balance).toBe(2500);
    expect(await balance(sb, t.token)).toBe(2500);
    const down = await sb.request('POST', `/_sandbox/accounts/${t.account.id}/credit`, { body: { amount: -1000 } });
    expect(down.body.balance).toBe(1500);
    const over = await sb.request('POST', `/_sandbox/accounts/${t.account.id}/credit`, { body: { amount: -1501 } });
    expect(over.status).toBe(422);
    expect(errorShape(over).error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(sb, t.token)).toBe(1500);
    const all = await sb.request('POST', `/_sandbox/accounts/${t.account.id}/credit`, { body: { amount: -1500 } });
    expect(all.body.balance).toBe(0);
  });

  it('moves money into and out of a merchant wallet, as the merchant sees it', async () => {
    const m = await sb.request('POST', '/v1/merchants', {
      token: defaultToken,
      body: { name: 'Loja Wallet', document: '11222333000181', document_type: 'CNPJ', email: 'w@loja.example', phone: '11999990000' },
    });
    expect(m.status).toBe(201);
    const walletId = m.body.data.wallet_id;
    const mToken = await sb.token(m.body.data.credentials);
    const c = await sb.request('POST', `/_sandbox/wallets/${walletId}/credit`, { body: { amount: 900 } });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ walletId, balance: 900, currency: 'BRL' });
    const mb = await sb.request('GET', '/v1/merchants/balance', { token: mToken });
    expect(mb.body.data.balance).toBe(900);
    const over = await sb.request('POST', `/_sandbox/wallets/${walletId}/credit`, { body: { amount: -901 } });
    expect(errorShape(over).error.code).toBe('INSUFFICIENT_FUNDS');
    expect((await sb.request('GET', '/v1/merchants/balance', { token: mToken })).body.data.balance).toBe(900);
    const missing = await sb.request('POST', '/_sandbox/wallets/00000000-0000-4000-8000-0000000000aa/credit', { body: { amount: 1 } });
    expect(errorShape(missing).error.code).toBe('NOT_FOUND');
  });
});

describe('merchant status', () => {
  it('SUSPENDED refuses tokens and splits; ACTIVE again restores them; the same status is 409', async () => {
    const m = await sb.request('POST', '/v1/merchants', {
      token: defaultToken,
      body: { name: 'Loja Status', document: '11144477735', document_type: 'CPF', email: 's@loja.example', phone: '11999990001' },
    });
    const id = m.body.data.merchant.id;
    const walletId = m.body.data.wallet_id;
    const creds = m.body.data.credentials;
    const live = await sb.token(creds);

    const s = await sb.request('PATCH', `/_sandbox/merchants/${id}`, { body: { status: 'SUSPENDED' } });
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ id, status: 'SUSPENDED', walletId, wallets: [{ walletId, balance: 0, currency: 'BRL' }] });
    expect(s.body).not.toHaveProperty('secretHash');

    const refused = await sb.request('GET', '/v1/merchants/balance', { token: live });
    expect(refused.status).toBe(403);
    expect(errorShape(refused).error.code).toBe('MERCHANT_NOT_ACTIVE');
    const tok = await sb.request('POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...creds } });
    expect(tok.status).toBe(400);
    expect(tok.body.error).toBe('unauthorized_client');
    const split = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token: defaultToken,
      body: {
        amount: 1000,
        description: 'x',
        customer: { name: 'A', document: '12345678909' },
        split: [{ amount: 10, mode: 'PERCENTAGE', wallet_id: walletId }],
      },
    });
    expect(split.status).toBe(422);
    expect(errorShape(split).error.code).toBe('WALLET_NOT_ACTIVE');

    const same = await sb.request('PATCH', `/_sandbox/merchants/${id}`, { body: { status: 'SUSPENDED' } });
    expect(same.status).toBe(409);
    expect(errorShape(same).error.code).toBe('INVALID_STATE');

    const inactive = await sb.request('PATCH', `/_sandbox/merchants/${id}`, { body: { status: 'INACTIVE' } });
    expect(inactive.body.status).toBe('INACTIVE');
    const back = await sb.request('PATCH', `/_sandbox/merchants/${id}`, { body: { status: 'ACTIVE' } });
    expect(back.body.status).toBe('ACTIVE');
    expect((await sb.request('GET', '/v1/merchants/balance', { token: live })).status).toBe(200);
    const pub = await sb.request('GET', `/v1/merchants/${id}`, { token: defaultToken });
    expect(pub.body.status ?? pub.body.data?.status).toBe('ACTIVE');
  });

  it('lists merchants with their wallets and balances, filtered by account', async () => {
    const all = await sb.request('GET', `/_sandbox/merchants?accountId=${DEFAULT_ACCOUNT_ID}`);
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThanOrEqual(2);
    for (const m of all.body) {
      expect(m.accountId).toBe(DEFAULT_ACCOUNT_ID);
      expect(m.wallets[0]).toMatchObject({ walletId: m.walletId, currency: 'BRL' });
      expect(typeof m.wallets[0].balance).toBe('number');
    }
    const none = await sb.request('GET', '/_sandbox/merchants?accountId=9b2f9d0e-0000-4000-8000-000000000000');
    expect(none.body).toEqual([]);
    const bad = await sb.request('GET', '/_sandbox/merchants?accountId=nope');
    expect(errorShape(bad).error.details[0]?.path).toBe('/query/accountId');
  });
});
