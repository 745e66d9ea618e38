// A tenant's own reset (POST /_sandbox/accounts/{id}/reset, docs/control-api.md#reset-a-tenant): the
// tenant goes back to exactly its listing right after it was loaded from fixtures or created — its
// merchants, wallets, balances, settings, clock settings, webhook endpoints and delivery faults — with
// no transaction, delivery or idempotency record, keeping its id and credentials (its tokens still
// work); the other tenants are byte for byte untouched; the default account may be reset.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, createTransfer, errorShape } from '../helpers/control.js';
import { DEFAULT_ACCOUNT_ID, DEFAULT_CLIENT, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tenantListing } from '../helpers/tenant-listing.js';

const OTHER = { id: '00000000-0000-4000-8000-000000000002', client_id: 'other-client', client_secret: 'other-secret' };
let sb: TestSandbox;
// these tenants' clocks flow (the sandbox-wide one): their now is left out, their frozen state kept
const listing = async (id: string, token?: string): Promise<Record<string, unknown>> => {
  const l = await tenantListing((m, p, t) => sb.request(m, p, t ? { token: t } : {}), id, token ? { token } : {});
  const { now: _flows, ...clock } = l.clock as Record<string, unknown>;
  return { ...l, clock };
};

beforeAll(async () => {
  sb = await startTestSandbox();
  expect((await sb.request('POST', '/_sandbox/reset', { body: { fixtures: 'example-marketplace' } })).status).toBe(200);
});
afterAll(() => sb?.stop());

describe('a tenant loaded from fixtures', () => {
  it('goes back to its listing right after the load, keeping its credentials, and leaves the other tenant as it was', async () => {
    const token = await sb.token(DEFAULT_CLIENT);
    const loaded = await listing(DEFAULT_ACCOUNT_ID, token);
    const otherToken = await sb.token(OTHER);
    await createCharge(sb, otherToken, 321);
    const other = JSON.stringify(await listing(OTHER.id, otherToken));

    // everything a test does to its tenant
    const paid = await createCharge(sb, token, 5_000);
    expect((await sb.request('POST', `/_sandbox/charges/${paid.transactionId}/pay`, { body: {} })).status).toBe(200);
    const key = randomUUID();
    const cashOut = {
      type: 'pix_key',
      description: 'before reset',
      amount: '1000',
      details: { name: 'Recebedor', key: '11144477735', keyType: 'CPF' },
    };
    expect(
      (await sb.request('POST', '/v1/banking/cash-out/pix', { token, headers: { 'x-idempotency-key': key }, body: cashOut })).status,
    ).toBe(201);
    await createTransfer(sb, token, 250);
    await sb.request('POST', '/v1/merchants', {
      token,
      body: { name: 'Nova', document: '52998224725', document_type: 'CPF', email: 'n@example.com', phone: '11987654321' },
    });
    await sb.request('POST', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.1:9/hook', accountId: DEFAULT_ACCOUNT_ID } });
    await sb.request('POST', '/_sandbox/webhooks/faults', { body: { accountId: DEFAULT_ACCOUNT_ID, action: 'drop', times: 1 } });
    await sb.request('PATCH', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`, { body: { splitEnabled: false, autoPayAfterSeconds: 60 } });
    await sb.request('POST', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}/credit`, { body: { amount: -100 } });
    await sb.request('POST', '/_sandbox/clock/freeze', { body: { accountId: DEFAULT_ACCOUNT_ID } });

    const r = await sb.request('POST', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}/reset`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: DEFAULT_ACCOUNT_ID, client_id: 'sandbox-client', splitEnabled: true, autoPayAfterSeconds: 5 });
    const after = await listing(DEFAULT_ACCOUNT_ID, token); // the token from before the reset still works
    expect(after).toEqual(loaded); // its clock unfrozen, as loaded
    expect(after.transactions).toEqual([]);
    expect(after.deliveries).toEqual([]);
    expect(JSON.stringify(await listing(OTHER.id, otherToken))).toBe(other);

    // the idempotency record went with the transfer: the same key makes a new one
    const replay = await sb.request('POST', '/v1/banking/cash-out/pix', { token, headers: { 'x-idempotency-key': key }, body: cashOut });
    expect(replay.status).toBe(201);
    expect((await sb.request('GET', `/_sandbox/transactions?accountId=${DEFAULT_ACCOUNT_ID}`)).body).toHaveLength(1);
  });
});

describe('a tenant created through the control API', () => {
  it('goes back to its opening balance and settings, with no merchant', async () => {
    const t = { client_id: 'created-later', client_secret: 'created-later-secret' };
    const made = await sb.request('POST', '/_sandbox/accounts', { body: { ...t, name: 'Later', balance: 12_345, settleAfterSeconds: 0 } });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    const token = await sb.token(t);
    const created = await listing(id, token);
    await createCharge(sb, token, 100);
    await sb.request('POST', '/v1/merchants', {
      token,
      body: { name: 'Loja', document: '11144477735', document_type: 'CPF', email: 'l@example.com', phone: '11987654321' },
    });
    await sb.request('PATCH', `/_sandbox/accounts/${id}`, { body: { name: 'Renamed' } });
    expect((await sb.request('POST', `/_sandbox/accounts/${id}/reset`)).status).toBe(200);
    const after = await listing(id, token);
    expect(after).toEqual(created);
    expect((after.account as { balance: number }).balance).toBe(12_345);
  });

  it('answers 404 for an unknown account', async () => {
    const r = await sb.request('POST', '/_sandbox/accounts/99999999-0000-4000-8000-000000000009/reset');
    expect(r.status).toBe(404);
    expect(errorShape(r).error.code).toBe('NOT_FOUND');
  });
});
