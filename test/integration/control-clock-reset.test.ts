// The sandbox clock and reset, seen through the public API.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { advance, balance, createCharge, errorShape, lookup } from '../helpers/control.js';

describe('clock', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.stop());

  it('reads the clock and advances it; tokens expire by it after 300 s', async () => {
    const c0 = await sb.request('GET', '/_sandbox/clock');
    expect(c0.body.offsetSeconds).toBe(0);
    expect(Math.abs(Date.parse(c0.body.now) - Date.now())).toBeLessThan(5000);
    const token = await sb.token();
    expect((await sb.request('GET', '/v1/banking/balance', { token })).status).toBe(200);
    // a few seconds of margin: real time also passes between the token and this call (iat is whole seconds)
    const a = await advance(sb, 295);
    expect(a.offsetSeconds).toBe(295);
    expect((await sb.request('GET', '/v1/banking/balance', { token })).status).toBe(200);
    const b = await advance(sb, 6);
    expect(b.offsetSeconds).toBe(301);
    expect(Date.parse(b.now) - Date.parse(c0.body.now)).toBeGreaterThanOrEqual(301_000);
    const expired = await sb.request('GET', '/v1/banking/balance', { token });
    expect(expired.status).toBe(401);
    expect(errorShape(expired).error.code).toBe('TOKEN_EXPIRED');
    expect((await sb.request('GET', '/v1/banking/balance', { token: await sb.token() })).status).toBe(200);
  });

  it('runs what fell due before answering: an expiry is visible at once', async () => {
    const token = await sb.token();
    const c = await createCharge(sb, token, 77, { expiration: 60 });
    await advance(sb, 59);
    expect((await lookup(sb, token, c.transactionId)).body.data.status).toBe('WAITING_PAYMENT');
    await advance(sb, 1);
    expect((await lookup(sb, token, c.transactionId)).body.data).toMatchObject({ status: 'FAILED', error: { code: 'CHARGE_EXPIRED' } });
  });

  it('validates the advance: a positive integer of at most 30 days', async () => {
    for (const seconds of [0, -5, 1.5, '10', 2_592_001]) {
      const r = await sb.request('POST', '/_sandbox/clock/advance', { body: { seconds } });
      expect(r.status).toBe(400);
      expect(errorShape(r).error.details[0]?.path).toBe('/seconds');
    }
    expect(errorShape(await sb.request('POST', '/_sandbox/clock/advance', { body: {} })).error.details).toEqual([
      { path: '/seconds', message: 'is required (or give to, an instant)' },
    ]);
  });
});

describe('reset', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.stop());

  it('clears every record, the clock offset and the faults; every token issued before it is refused, new ones work', async () => {
    const tenant = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'gone soon', balance: 10 } });
    const tenantToken = await sb.token({ client_id: tenant.body.client_id, client_secret: tenant.body.client_secret });
    const token = await sb.token();
    await createCharge(sb, token, 500);
    await sb.request('POST', '/_sandbox/accounts/' + DEFAULT_ACCOUNT_ID + '/credit', { body: { amount: 5 } });
    await sb.request('POST', '/_sandbox/rules', { body: { match: { type: 'CASH_IN', amount: 1 }, outcome: { action: 'cancel' } } });
    await sb.request('POST', '/_sandbox/faults', { body: { path: '/v1/nowhere', status: 500 } });
    await advance(sb, 100);

    const r = await sb.request('POST', '/_sandbox/reset');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'reset', fixtures: 'configured', movedAsideTo: null, pixKeys: 5, rules: 8 });
    expect(r.body.accounts.map((a: any) => a.id)).toEqual([DEFAULT_ACCOUNT_ID]);
    expect((await sb.request('GET', '/_sandbox/clock')).body.offsetSeconds).toBe(0);
    expect((await sb.request('GET', '/_sandbox/transactions')).body).toEqual([]);
    expect((await sb.request('GET', '/_sandbox/faults')).body).toEqual([]);
    expect((await sb.request('GET', '/_sandbox/rules')).body.every((x: any) => x.id.startsWith('magic-'))).toBe(true);
    // the default account was made again with the same id: its token of before the reset is refused (a new generation)
    const revived = await sb.request('GET', '/v1/banking/balance', { token });
    expect([revived.status, errorShape(revived).error.code]).toEqual([401, 'INVALID_TOKEN']);
    expect(await balance(sb, await sb.token())).toBe(1_000_000); // a new token works, and the money is back to the opening balance
    const gone = await sb.request('GET', '/v1/banking/balance', { token: tenantToken });
    expect(gone.status).toBe(401);
    expect(errorShape(gone).error.code).toBe('INVALID_TOKEN');
  });

  it('loads a shipped fixture set by name', async () => {
    const r = await sb.request('POST', '/_sandbox/reset', { body: { fixtures: 'example-marketplace' } });
    expect(r.status).toBe(200);
    expect(r.body.fixtures).toBe('example-marketplace');
    expect(r.body.accounts).toHaveLength(2);
    const other = await sb.token({ client_id: 'other-client', client_secret: 'other-secret' });
    expect(await balance(sb, other)).toBe(100_000);
    const padaria = await sb.token({ client_id: 'padaria-client', client_secret: 'padaria-secret' });
    expect((await sb.request('GET', '/v1/merchants/balance', { token: padaria })).body.data.balance).toBe(0);
    const suspended = await sb.request('POST', '/v1/oauth/token', {
      body: { client_id: 'oficina-client', client_secret: 'oficina-secret' },
    });
    expect(suspended.body.error).toBe('unauthorized_client');
    const merchants = await sb.request('GET', `/_sandbox/merchants?accountId=${DEFAULT_ACCOUNT_ID}`);
    expect(merchants.body.map((m: any) => [m.name, m.status, m.wallets[0].balance])).toEqual([
      ['Padaria Pao Quente', 'ACTIVE', 0],
      ['Livraria Letras', 'ACTIVE', 25000],
      ['Oficina Suspensa', 'SUSPENDED', 1000],
    ]);
    // autoPayAfterSeconds 5 in this set
    const token = await sb.token();
    const c = await createCharge(sb, token, 100);
    await advance(sb, 5);
    expect((await lookup(sb, token, c.transactionId)).body.data.status).toBe('COMPLETED');
  });

  it('loads an inline fixture object; an invalid set or name answers 400 and changes nothing', async () => {
    const inline = {
      accounts: [
        {
          id: '00000000-0000-4000-8000-000000000009',
          name: 'Inline',
          client_id: 'inline-client',
          client_secret: 'inline-secret',
          balance: 777,
        },
      ],
    };
    const r = await sb.request('POST', '/_sandbox/reset', { body: { fixtures: inline } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ fixtures: 'inline', rules: 0, pixKeys: 0 });
    expect(await balance(sb, await sb.token({ client_id: 'inline-client', client_secret: 'inline-secret' }))).toBe(777);

    const before = await sb.request('GET', '/_sandbox/accounts');
    const bad = await sb.request('POST', '/_sandbox/reset', { body: { fixtures: { accounts: [{ id: 'x', name: '' }] } } });
    expect(bad.status).toBe(400);
    const paths = errorShape(bad).error.details.map((d) => d.path);
    expect(paths).toContain('/fixtures/accounts/0/id');
    expect(paths).toContain('/fixtures/accounts/0/client_id');
    for (const fixtures of ['../../etc/passwd', '/tmp/x.json', 'no-such-set', 42]) {
      const r2 = await sb.request('POST', '/_sandbox/reset', { body: { fixtures } });
      expect(r2.status).toBe(400);
      expect(errorShape(r2).error.details[0]?.path).toBe('/fixtures');
    }
    expect((await sb.request('GET', '/_sandbox/accounts')).body).toEqual(before.body);
  });
});

describe('reset with a data file', () => {
  it('moves the data file aside, and what follows the reset survives a restart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-reset-'));
    try {
      let sb = await startTestSandbox({ file: true, dataDir: dir });
      await sb.request('POST', '/_sandbox/accounts', { body: { name: 'before reset', client_id: 'before-reset' } });
      const r = await sb.request('POST', '/_sandbox/reset');
      expect(r.body.movedAsideTo).toMatch(/^db\.json\.reset-.*\.bak$/);
      expect(r.body.movedAsideTo).not.toContain(dir);
      await sb.request('POST', '/_sandbox/accounts', { body: { name: 'after reset', client_id: 'after-reset' } });
      await sb.stop();

      const files = await readdir(dir);
      expect(files).toContain(r.body.movedAsideTo);
      // the kept snapshot and its logs (`<name>.wal.<n>`)
      const kept = files.filter((f) => f.startsWith(r.body.movedAsideTo as string));
      const backup = (await Promise.all(kept.map((f) => readFile(path.join(dir, f), 'utf8')))).join('');
      expect(backup).toContain('before-reset');
      expect(backup).not.toContain('after-reset');

      sb = await startTestSandbox({ file: true, dataDir: dir });
      const ids = (await sb.request('GET', '/_sandbox/accounts')).body.map((a: any) => a.client_id);
      expect(ids).toEqual(['sandbox-client', 'after-reset']);
      await sb.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
