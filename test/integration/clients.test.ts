// The programmatic API beyond the README example: token renewal, typed errors, merchant
// clients, idempotency keys, HTTPS with requireHttps, and the package's exports.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pkg from '../../src/index.js';
import { SandboxApiError, startSandbox, type Sandbox } from '../../src/index.js';

describe('startSandbox clients', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ tick: false });
  });
  afterAll(() => sb.stop());

  it('answers the URL and the default credentials, and the control client reaches the control API', async () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.httpsUrl).toBeNull();
    expect(sb.credentials).toEqual({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' });
    expect((await sb.control.health()).status).toBe('ok');
  });

  it('renews its token when a clock jump has expired the cached one', async () => {
    const first = await sb.client.token();
    expect(await sb.client.token()).toBe(first); // cached
    await sb.control.advanceClock(600);
    expect((await sb.client.getBalance()).statusCode).toBe(200);
    expect(await sb.client.token()).not.toBe(first);
  });

  it("moves, freezes and unfreezes one tenant's clock through the control client", async () => {
    const account = await sb.control.createAccount({ name: 'client clock', clock: { at: '2031-05-01T00:00:00.000Z', frozen: true } });
    expect(await sb.control.clock(account.id)).toMatchObject({ accountId: account.id, now: '2031-05-01T00:00:00.000Z', frozen: true });
    expect((await sb.control.advanceClock(30, { accountId: account.id })).now).toBe('2031-05-01T00:00:30.000Z');
    expect((await sb.control.advanceClockTo('2031-05-02T00:00:00.000Z', { accountId: account.id })).now).toBe('2031-05-02T00:00:00.000Z');
    expect((await sb.control.unfreezeClock(account.id)).frozen).toBe(false);
    expect((await sb.control.freezeClock(account.id)).frozen).toBe(true);
    const err = await sb.control.clock(randomUUID()).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('acts as one tenant with asTenant(credentials): its own arrangements and journal, 403 beyond it, deleted by the operator', async () => {
    const account = await sb.control.createAccount({ name: 'client tenant', balance: 1000 });
    const creds = { client_id: account.client_id, client_secret: account.client_secret };
    const mine = sb.control.asTenant(creds);
    const rule = await mine.rules.add({ id: 'mine', match: { type: 'CASH_OUT', amount: 5 }, outcome: { action: 'wait' } });
    expect(rule).toMatchObject({ id: 'mine', accountId: account.id });
    expect((await mine.rules.list()).map((r) => r.id)).toEqual(['mine']);
    expect((await sb.control.rules.list({ accountId: account.id })).map((r) => r.id)).toEqual(['mine']);
    expect((await mine.pixKeys.add({ key: 'a@b.test', keyType: 'EMAIL', owner: { name: 'A', document: '52998224725' } })).accountId).toBe(
      account.id,
    );
    expect((await mine.faults.add({ path: '/v1/elsewhere', status: 500 })).accountId).toBe(account.id);
    await sb.client.withCredentials(creds).getBalance();
    const journal = await mine.requests.list();
    expect(journal[0]).toMatchObject({ path: '/v1/banking/balance', accountId: account.id });
    // its token requests too (the control client's own among them)
    expect(journal.map((e) => e.accountId)).toEqual(journal.map(() => account.id));
    expect(await mine.accounts().catch((e: unknown) => e)).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    // its token is renewed when its own clock has expired it
    await mine.advanceClock(600);
    expect((await mine.clock()).accountId).toBe(account.id);
    await sb.control.deleteAccount(account.id);
    expect(await mine.transactions().catch((e: unknown) => e)).toMatchObject({ status: 401 });
    expect(await sb.control.deleteAccount(account.id).catch((e: unknown) => e)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('throws SandboxApiError with the status and code of the error', async () => {
    const err = await sb.client.getTransaction(randomUUID()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxApiError);
    expect(err).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    const raw = await sb.client.request('GET', '/v1/banking/transactions/not-a-uuid');
    expect(raw.status).toBe(400);
  });

  it('acts as a merchant with withCredentials', async () => {
    const created = await sb.client.merchants.create({
      name: 'Padaria',
      document: '11222333000181',
      document_type: 'CNPJ',
      email: 'p@example.com',
      phone: '11987654321',
    });
    const merchant = sb.client.withCredentials(created.data.credentials);
    expect((await merchant.merchantBalance()).data.balance).toBe(0);
    await expect(sb.client.merchantBalance()).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const page = await sb.client.merchants.list({ limit: 1 });
    expect(page.pagination).toMatchObject({ page: 1, limit: 1, total: 1 });
  });

  it('sends a new idempotency key per cash-out unless one is given, which then replays', async () => {
    const body = { description: 'x', amount: '100', details: { name: 'Maria', key: 'maria@example.com', keyType: 'EMAIL' } };
    const a = await sb.client.cashOut(body);
    const b = await sb.client.cashOut(body);
    expect(a.transactionId).not.toBe(b.transactionId);
    const key = randomUUID();
    const c = await sb.client.cashOut(body, { idempotencyKey: key });
    const d = await sb.client.cashOut(body, { idempotencyKey: key });
    expect(d).toEqual(c);
    expect(c['x-idempotency-key']).toBe(key);
  });

  it('exports verifySignature and the clients from the package entry', () => {
    expect(typeof pkg.verifySignature).toBe('function');
    expect(typeof pkg.PixClient).toBe('function');
    expect(typeof pkg.ControlClient).toBe('function');
  });
});

describe('startSandbox with requireHttps', () => {
  it('speaks HTTPS with the generated certificate trusted, while plain HTTP API calls are refused', async () => {
    const sb = await startSandbox({ requireHttps: true, tick: false });
    try {
      expect(sb.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(sb.certificate).toContain('BEGIN CERTIFICATE');
      const charge = await sb.client.cashIn({ amount: 500, description: 'tls', customer: { name: 'Ana', document: '52998224725' } });
      expect(charge.status).toBe('WAITING_PAYMENT');
      const plain = await fetch(`${sb.url}/v1/banking/balance`);
      expect(plain.status).toBe(403);
      expect((await plain.json()).error.code).toBe('HTTPS_REQUIRED');
      expect((await sb.control.pay(charge.transactionId)).status).toBe('PAID'); // control stays on HTTP
    } finally {
      await sb.stop();
    }
  });
});
