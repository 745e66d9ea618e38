// Named snapshots and a tenant's reset from where users reach them: the typed client
// (control.snapshots.*, control.resetAccount) of startSandbox, an export loaded back by startSandbox
// with the tenant's credentials, and the CLI (`snapshots save|list|restore|export|delete`,
// `accounts reset`) as built.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxApiError, startSandbox, type Sandbox } from '../../src/index.js';
import { cleanEnv } from '../helpers/process.js';

const BIN = path.resolve('dist/bin/pix-sandbox.js');
const CUSTOMER = { name: 'Ana Lima', document: '52998224725' };

let sb: Sandbox;
let tmp: string;
beforeAll(async () => {
  sb = await startSandbox({ tick: false });
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pix-snap-clients-'));
});
afterAll(async () => {
  await sb?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe('the typed client', () => {
  it('saves, lists, reads, restores, exports and removes snapshots, and resets a tenant', async () => {
    const tenant = await sb.control.createAccount({ name: 'Client tenant', balance: 10_000 });
    const charge = await sb.client.cashIn({ amount: 1_234, description: 'client', customer: CUSTOMER });
    const saved = await sb.control.snapshots.save('client-1');
    expect(saved).toMatchObject({ name: 'client-1', accountId: null });
    const mine = await sb.control.snapshots.save('client-tenant', { accountId: tenant.id });
    expect(mine).toMatchObject({ name: 'client-tenant', accountId: tenant.id, counts: { accounts: 1, transactions: 0 } });
    expect((await sb.control.snapshots.list({ accountId: tenant.id })).map((s) => s.name)).toEqual(['client-tenant']);
    expect(await sb.control.snapshots.get('client-tenant')).toEqual(mine);
    const taken = await sb.control.snapshots.save('client-tenant', { accountId: tenant.id }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(SandboxApiError);
    expect((taken as SandboxApiError).code).toBe('CONFLICT');

    await sb.control.pay(charge.transactionId);
    expect((await sb.control.snapshots.restore('client-1')).name).toBe('client-1');
    expect((await sb.client.getTransaction(charge.transactionId)).data.status).toBe('WAITING_PAYMENT');

    const doc = await sb.control.snapshots.export('client-1');
    expect(doc.transactions?.map((t) => t.id)).toContain(charge.transactionId);
    await sb.control.snapshots.remove('client-1');
    expect((await sb.control.snapshots.list()).map((s) => s.name)).toEqual(['client-tenant']);

    await sb.control.credit(tenant.id, 500);
    expect((await sb.control.resetAccount(tenant.id)).balance).toBe(10_000);
  });

  it('loads an export with startSandbox, given the credentials the export keeps only a hash of', async () => {
    const charge = await sb.client.cashIn({ amount: 4_321, description: 'exported', customer: CUSTOMER });
    await sb.control.snapshots.save('to-file', { accountId: '00000000-0000-4000-8000-000000000001' });
    const file = path.join(tmp, 'export.json');
    await writeFile(file, JSON.stringify(await sb.control.snapshots.export('to-file')));
    await expect(startSandbox({ fixtures: file })).rejects.toThrow(/holds no client_secret in clear/);
    const copy = await startSandbox({ fixtures: file, credentials: sb.credentials, tick: false });
    try {
      expect(await copy.client.getTransaction(charge.transactionId)).toEqual(await sb.client.getTransaction(charge.transactionId));
      expect(await copy.client.getBalance()).toEqual(await sb.client.getBalance());
    } finally {
      await copy.stop();
    }
  });
});

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args, '--base-url', sb.url],
      { env: cleanEnv({ NO_COLOR: '1' }), timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}
async function json(...args: string[]): Promise<any> {
  const r = await cli(...args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

describe('the CLI', () => {
  it('snapshots save|list|restore|export|delete and accounts reset', async () => {
    const account = await json('accounts', 'create', 'CLI snapshots');
    expect(await json('snapshots', 'save', 'cli-one', '--account', account.id)).toMatchObject({ name: 'cli-one', accountId: account.id });
    expect((await cli('snapshots', 'save', 'cli-one', '--account', account.id)).code).toBe(1);
    expect(await json('snapshots', 'save', 'cli-one', '--account', account.id, '--replace')).toMatchObject({ name: 'cli-one' });
    expect((await json('snapshots', 'list', '--account', account.id)).map((s: { name: string }) => s.name)).toEqual(['cli-one']);
    await json('accounts', 'credit', account.id, '700');
    expect(await json('snapshots', 'restore', 'cli-one')).toMatchObject({ name: 'cli-one' });
    expect((await sb.control.account(account.id)).balance).toBe(0);
    const out = path.join(tmp, 'cli-export.json');
    expect(await json('snapshots', 'export', 'cli-one', '--out', out)).toMatchObject({ name: 'cli-one', file: out });
    expect(JSON.parse(await readFile(out, 'utf8')).accounts[0].id).toBe(account.id);
    expect((await json('snapshots', 'export', 'cli-one')).accounts[0].id).toBe(account.id);
    expect(await json('snapshots', 'delete', 'cli-one')).toEqual({ name: 'cli-one', deleted: true });
    expect((await cli('snapshots', 'restore', 'cli-one')).stderr).toContain('404 NOT_FOUND');
    await json('accounts', 'credit', account.id, '300');
    expect(await json('accounts', 'reset', account.id)).toMatchObject({ id: account.id, balance: 0 });
    expect((await cli('snapshots')).code).toBe(2);
  });
});
