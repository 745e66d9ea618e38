// Deleting a tenant (docs/control-api.md#accounts): DELETE /_sandbox/accounts/{id} removes the account and
// everything of it (merchants, wallets, transactions, ledger entries, events, deliveries, idempotency
// records, endpoints, webhook faults, sends, its own rules, faults and keys, its journal) in one durable
// change; its tokens and its merchants' answer 401; the default account cannot be deleted; another
// tenant's world is the same, byte for byte, before and after, and after a restart.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionsOf, indexProblems, logLines } from '../helpers/store-checks.js';
import { errorShape, ok, tenantListing } from '../helpers/control.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let sb: TestSandbox;
let rx: Receiver;

interface Tenant {
  id: string;
  token: string;
  merchantToken: string;
  walletId: string;
}

/** A tenant holding a record of every kind the sandbox keeps, made through the API. */
async function populated(name: string): Promise<Tenant> {
  const a = await ok(sb.request('POST', '/_sandbox/accounts', { body: { name, balance: 50_000, splitEnabled: true } }));
  const token = await sb.token({ client_id: a.client_id, client_secret: a.client_secret });
  const m = await ok(
    sb.request('POST', '/v1/merchants', {
      token,
      body: { name: `${name} Loja`, document: '11222333000181', document_type: 'CNPJ', email: 'l@example.com', phone: '11999990000' },
    }),
  );
  const merchantToken = await sb.token(m.data.credentials);
  const walletId = m.data.wallet_id as string;
  await ok(sb.request('POST', '/_sandbox/webhooks', { body: { url: rx.url, accountId: a.id } }));
  await ok(sb.request('POST', `/_sandbox/accounts/${a.id}/credit`, { body: { amount: 700 } }));
  await ok(sb.request('POST', `/_sandbox/wallets/${walletId}/credit`, { body: { amount: 300 } }));
  const customer = { name: 'Ana Lima', document: '52998224725' };
  const c = await ok(sb.request('POST', '/v1/banking/cash-in/pix', { token, body: { amount: 5000, description: 'x', customer } }));
  await ok(sb.request('POST', `/_sandbox/charges/${c.transactionId}/pay`, { body: {} }));
  await ok(
    sb.request('POST', '/v1/banking/cash-in/pix', {
      token: merchantToken,
      body: { amount: 900, description: 'by the merchant', customer },
    }),
  );
  for (const amount of ['10', '20'])
    await ok(
      sb.request('POST', '/v1/banking/cash-out/pix', {
        token,
        headers: { 'x-idempotency-key': randomUUID() },
        body: { type: 'pix_key', description: 'out', amount, details: { name: 'Joao', key: '11144477735', keyType: 'CPF' } },
      }),
    );
  await ok(sb.request('POST', '/_sandbox/webhooks/faults', { body: { action: 'duplicate', accountId: a.id, times: 5 } }));
  const [endpoint] = await ok(sb.request('GET', `/_sandbox/webhooks?accountId=${a.id}`));
  await ok(sb.request('POST', '/_sandbox/webhooks/send', { body: { endpointId: endpoint.id, body: { id: `evt_${name}` } } }));
  await ok(
    sb.request('POST', '/_sandbox/rules', {
      body: { accountId: a.id, match: { type: 'CASH_IN', amount: 1 }, outcome: { action: 'wait' } },
    }),
  );
  await ok(
    sb.request('POST', '/_sandbox/pix-keys', {
      body: { accountId: a.id, key: 'k@tenant.test', keyType: 'EMAIL', owner: { name: 'K', document: '52998224725' } },
    }),
  );
  await ok(sb.request('POST', '/_sandbox/faults', { body: { accountId: a.id, path: '/v1/never', status: 500 } }));
  return { id: a.id, token, merchantToken, walletId };
}

/** Everything the operator and the tenant itself can read of a tenant: its listing, its wallet, each transaction in full, its balance. */
async function listing(t: Tenant): Promise<string> {
  const transactions = await ok(sb.request('GET', `/_sandbox/transactions?accountId=${t.id}`));
  const details = await Promise.all(transactions.map((tx: { id: string }) => ok(sb.request('GET', `/_sandbox/transactions/${tx.id}`))));
  const balance = await ok(sb.request('GET', '/v1/banking/balance', { token: t.token }));
  return (await tenantListing(sb, t.id, [`/_sandbox/wallets/${t.walletId}`])) + JSON.stringify([details, balance]);
}

/** Every record of the store that names the account or one of its wallets. */
function leftOf(id: string, walletIds: string[]): string[] {
  const names = [id, ...walletIds];
  const left: string[] = [];
  for (const [c, coll] of Object.entries(collectionsOf(sb.running.ctx.store)))
    for (const r of coll.scan()) if (names.some((n) => JSON.stringify(r).includes(n))) left.push(`${c} ${r.id}`);
  return left;
}

/** Until every delivery has had its say: the deletion is then the only change in its log line. */
async function settled(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const pending = await ok(sb.request('GET', '/_sandbox/webhooks/deliveries?status=PENDING'));
    if (pending.length === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('deliveries still pending');
}

beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx?.close());

describe('deleting a tenant', () => {
  it('removes it and everything of it in one durable change; its tokens answer 401; the other tenant is untouched, after a restart too', async () => {
    sb = await startTestSandbox({ file: true });
    const dir = sb.dataDir!;
    try {
      await deleteAndRestart(dir);
    } finally {
      await sb.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  async function deleteAndRestart(dir: string): Promise<void> {
    const gone = await populated('Gone');
    const kept = await populated('Kept');
    await sb.request('GET', '/v1/banking/balance', { token: gone.token }); // a journal entry of its own
    await settled();
    expect(leftOf(gone.id, [gone.walletId]).length).toBeGreaterThan(20);
    const keptBefore = await listing(kept);
    const log = path.join(dir, 'db.json.wal');
    const linesBefore = (await logLines(log)).length;

    const del = await sb.request('DELETE', `/_sandbox/accounts/${gone.id}`);
    expect(del.status).toBe(204);
    // one change, one line of the write-ahead log
    expect((await logLines(log)).length).toBe(linesBefore + 1);

    expect(leftOf(gone.id, [gone.walletId])).toEqual([]);
    expect(indexProblems(collectionsOf(sb.running.ctx.store))).toEqual([]);
    for (const token of [gone.token, gone.merchantToken]) {
      const r = await sb.request('GET', '/v1/banking/balance', { token });
      expect([r.status, errorShape(r).error.code]).toEqual([401, 'INVALID_TOKEN']);
    }
    expect((await sb.request('GET', `/_sandbox/accounts/${gone.id}`)).status).toBe(404);
    expect((await sb.request('DELETE', `/_sandbox/accounts/${gone.id}`)).status).toBe(404);
    // its journal went with it; the requests of its dead tokens belong to nobody
    const journal = await ok(sb.request('GET', '/_sandbox/requests?limit=10000'));
    expect(journal.filter((e: { accountId: string | null }) => e.accountId === gone.id)).toEqual([]);
    expect(journal[0]).toMatchObject({ status: 401, accountId: null });
    expect(await listing(kept)).toBe(keptBefore);

    await sb.running.stop();
    sb = await startTestSandbox({ file: true, dataDir: dir });
    expect(leftOf(gone.id, [gone.walletId])).toEqual([]);
    expect(await listing(kept)).toBe(keptBefore);
  }

  it('refuses the default account (409), a malformed id (400), and with a tenant token another tenant (404)', async () => {
    sb = await startTestSandbox();
    try {
      const def = await sb.request('DELETE', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`);
      expect([def.status, errorShape(def).error.code]).toEqual([409, 'INVALID_STATE']);
      expect((await sb.request('GET', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`)).status).toBe(200);
      expect((await sb.request('DELETE', '/_sandbox/accounts/nope')).status).toBe(400);
      const a = await ok(sb.request('POST', '/_sandbox/accounts', { body: { name: 'self' } }));
      const token = await sb.token({ client_id: a.client_id, client_secret: a.client_secret });
      const other = await sb.request('DELETE', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`, { token });
      expect([other.status, errorShape(other).error.code]).toEqual([404, 'NOT_FOUND']);
      // a tenant may delete itself: its token is dead from then on
      expect((await sb.request('DELETE', `/_sandbox/accounts/${a.id}`, { token })).status).toBe(204);
      expect((await sb.request('GET', `/_sandbox/accounts/${a.id}`, { token })).status).toBe(401);
    } finally {
      await sb.stop();
    }
  });
});
