// An exported snapshot, committed as a file, starts a new sandbox through the command as shipped
// (`pix-sandbox serve --fixtures <file>`, a child process): the new sandbox answers the same public
// lookups, balances and merchant reads, for the account's token and its merchant's, with the
// credentials the tenant had (docs/control-api.md#exporting-a-snapshot). test/integration/snapshots.test.ts
// loads an export in process through a reset; this is the --fixtures path a CI job takes.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tenantListing, type Caller } from '../helpers/tenant-listing.js';
import { call, ensureBuilt, spawnSandbox, type ChildSandbox } from '../helpers/torture.js';

const A = { id: 'aaaaaaaa-0000-4000-8000-0000000000e1', client_id: 'export-a', client_secret: 'export-a-secret' };
const CUSTOMER = { name: 'Ana Lima', document: '52998224725' };

let sb: TestSandbox;
let child: ChildSandbox | null = null;
let tmp: string;

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pix-export-command-'));
});
afterAll(async () => {
  if (child && child.child.exitCode === null) child.child.kill('SIGKILL');
  await sb?.stop();
  await rm(tmp, { recursive: true, force: true });
});

/** Every public read a tenant's app makes: lookups of each transaction, balances, merchants, as the account and as its merchant. */
async function publicReads(base: string, ids: string[], merchantId: string, tokens: { account: string; merchant: string }) {
  const get = async (p: string, token: string) => {
    const r = await call(base, 'GET', p, { token });
    if (r.status !== 200) throw new Error(`GET ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return {
    lookups: await Promise.all(ids.map((id) => get(`/v1/banking/transactions/${id}`, tokens.account))),
    merchantLookups: await Promise.all(
      ids.map((id) => call(base, 'GET', `/v1/banking/transactions/${id}`, { token: tokens.merchant })),
    ).then((rs) => rs.map((r) => [r.status, r.body])),
    balance: await get('/v1/banking/balance', tokens.account),
    merchants: await get('/v1/merchants', tokens.account),
    merchant: await get(`/v1/merchants/${merchantId}`, tokens.account),
    merchantBalance: await get('/v1/merchants/balance', tokens.merchant),
  };
}

async function token(base: string, creds: { client_id: string; client_secret: string }): Promise<string> {
  const r = await call(base, 'POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...creds } });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.access_token as string;
}

describe('an exported snapshot given to `serve --fixtures`', () => {
  it('starts a sandbox that answers the same lookups, balances and merchant reads', async () => {
    await ok(
      sb.request('POST', '/_sandbox/accounts', {
        body: { ...A, name: 'Exported', balance: 250_000, clock: { at: '2030-03-01T09:00:00.000Z', frozen: true } },
      }),
    );
    const accountToken = await sb.token(A);
    const created = await ok(
      sb.request('POST', '/v1/merchants', {
        token: accountToken,
        body: { name: 'Loja', document: '11144477735', document_type: 'CPF', email: 'loja@example.com', phone: '11987654321' },
      }),
    );
    const merchantId = created.data.merchant.id as string;
    const merchantCreds = created.data.credentials as { client_id: string; client_secret: string };
    const merchantToken = await sb.token(merchantCreds);
    const charge = async (tok: string, amount: number) =>
      (await ok(sb.request('POST', '/v1/banking/cash-in/pix', { token: tok, body: { amount, description: 'export', customer: CUSTOMER } })))
        .transactionId as string;
    const ids = [await charge(accountToken, 1_500), await charge(merchantToken, 2_500), await charge(accountToken, 3_500)];
    for (const id of ids.slice(0, 2)) await ok(sb.request('POST', `/_sandbox/charges/${id}/pay`, { body: {} }));
    const transfer = await ok(
      sb.request('POST', '/v1/banking/cash-out/pix', {
        token: accountToken,
        headers: { 'x-idempotency-key': randomUUID() },
        body: { type: 'pix_key', description: 'export', amount: '700', details: { name: 'R', key: '11144477735', keyType: 'CPF' } },
      }),
    );
    ids.push(transfer.transactionId);
    await ok(sb.request('POST', '/_sandbox/clock/advance', { body: { seconds: 5, accountId: A.id } }));

    await ok(sb.request('POST', '/_sandbox/snapshots', { body: { name: 'for-ci', accountId: A.id } }));
    const file = path.join(tmp, 'for-ci.fixtures.json');
    await writeFile(file, JSON.stringify(await ok(sb.request('GET', '/_sandbox/snapshots/for-ci/export'))));
    const here = await publicReads(sb.url, ids, merchantId, { account: accountToken, merchant: merchantToken });
    expect(here.lookups.map((l) => l.data.status)).toEqual(['COMPLETED', 'COMPLETED', 'WAITING_PAYMENT', 'COMPLETED']);

    child = await spawnSandbox(['--port', '0', '--https-port', 'off', '--memory', '--fixtures', file]);
    const there = await publicReads(child.url, ids, merchantId, {
      account: await token(child.url, A),
      merchant: await token(child.url, merchantCreds),
    });
    expect(there).toEqual(here);
    // and the control API's whole view of the tenant: account, merchants and wallets, transactions with their ledger and events, clock
    const caller =
      (base: string): Caller =>
      (method, p, tok) =>
        call(base, method, p, tok ? { token: tok } : {});
    expect(await tenantListing(caller(child.url), A.id)).toEqual(await tenantListing(caller(sb.url), A.id));
  }, 60_000);
});
