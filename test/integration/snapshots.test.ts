// Named snapshots through HTTP (docs/control-api.md#snapshots): a tenant's whole world saved, changed
// in every way a test changes it, and restored to exactly its listing at snapshot time while another
// tenant's listing stays byte for byte the same; the snapshots survive a restart; a whole-sandbox
// snapshot; names, conflicts, unknown accounts and snapshots; a whole-sandbox reset removes them.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, createTransfer, errorShape } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tenantListing, type Caller } from '../helpers/tenant-listing.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const FROZEN = { at: '2030-01-01T12:00:00.000Z', frozen: true };
const A = { id: 'aaaaaaaa-0000-4000-8000-00000000000a', client_id: 'snap-a', client_secret: 'snap-a-secret' };
const B = { id: 'bbbbbbbb-0000-4000-8000-00000000000b', client_id: 'snap-b', client_secret: 'snap-b-secret' };

let sb: TestSandbox;
let receiver: Receiver;
let dataDir: string;

const caller =
  (s: TestSandbox): Caller =>
  (method, p, token) =>
    s.request(method, p, token ? { token } : {});
const listing = async (s: TestSandbox, id: string, token?: string) => tenantListing(caller(s), id, token ? { token } : {});

async function tenant(s: TestSandbox, t: typeof A, name: string) {
  const r = await s.request('POST', '/_sandbox/accounts', { body: { ...t, name, balance: 500_000, splitEnabled: true, clock: FROZEN } });
  expect(r.status).toBe(201);
  return s.token(t);
}

/** Some of everything a test arranges: a merchant, charges (one paid), a transfer with its idempotency record, an endpoint and its deliveries. */
async function arrange(s: TestSandbox, t: typeof A, token: string) {
  const m = await s.request('POST', '/v1/merchants', {
    token,
    body: { name: 'Loja', document: '52998224725', document_type: 'CPF', email: 'loja@example.com', phone: '11987654321' },
  });
  expect(m.status).toBe(201);
  const endpoint = await s.request('POST', '/_sandbox/webhooks', { body: { url: receiver.url, accountId: t.id } });
  expect(endpoint.status).toBe(201);
  const paid = await createCharge(s, token, 1_500);
  await createCharge(s, token, 2_500);
  expect((await s.request('POST', `/_sandbox/charges/${paid.transactionId}/pay`, { body: {} })).status).toBe(200);
  await createTransfer(s, token, 700);
  await settled(s);
}

/** Every delivery attempted (none pending), so that a listing does not move under the test. */
async function settled(s: TestSandbox) {
  for (let i = 0; i < 200; i++) {
    const r = await s.request('GET', '/_sandbox/webhooks/deliveries?status=PENDING');
    if ((r.body as unknown[]).length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('deliveries stayed pending');
}

function firstDifference(a: unknown, b: unknown, at = ''): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const x = (a as any)[k];
      const y = (b as any)[k];
      if (JSON.stringify(x) !== JSON.stringify(y)) return firstDifference(x, y, `${at}/${k}`);
    }
  }
  console.log('DIFF', at, JSON.stringify(a)?.slice(0, 300), JSON.stringify(b)?.slice(0, 300));
}

beforeAll(async () => {
  receiver = await startReceiver();
  // a folder of the test's own: the restarts reuse it
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-snapshots-'));
  sb = await startTestSandbox({ file: true, dataDir });
});

afterAll(async () => {
  await sb?.stop();
  await receiver?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a tenant snapshot, restored', () => {
  let tokenA: string;
  let tokenB: string;
  let before: Record<string, unknown>;

  it('saves the whole world of a tenant, answering its counts and size', async () => {
    tokenA = await tenant(sb, A, 'Tenant A');
    tokenB = await tenant(sb, B, 'Tenant B');
    await arrange(sb, A, tokenA);
    await arrange(sb, B, tokenB);
    before = await listing(sb, A.id, tokenA);
    const r = await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'a.arranged-1', accountId: A.id } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'a.arranged-1', accountId: A.id, createdAt: FROZEN.at });
    expect(r.body.counts).toMatchObject({ accounts: 1, merchants: 1, wallets: 1, transactions: 3, webhookEndpoints: 1, idempotency: 1 });
    expect(r.body.counts.deliveries).toBeGreaterThanOrEqual(3);
    expect(r.body.bytes).toBeGreaterThan(1000);
    expect((await sb.request('GET', '/_sandbox/snapshots/a.arranged-1')).body).toEqual(r.body);
  });

  it('puts back exactly what the tenant held, and leaves the other tenant byte for byte as it was', async () => {
    const other = JSON.stringify(await listing(sb, B.id, tokenB));
    // everything a test changes: new money, a new merchant, a paid charge, an endpoint gone, a fault, a clock moved
    await createCharge(sb, tokenA, 9_900);
    const pay = (await sb.request('GET', `/_sandbox/transactions?accountId=${A.id}&status=WAITING_PAYMENT`)).body[0].id;
    expect((await sb.request('POST', `/_sandbox/charges/${pay}/pay`, { body: {} })).status).toBe(200);
    await createTransfer(sb, tokenA, 1_234);
    await sb.request('POST', `/_sandbox/accounts/${A.id}/credit`, { body: { amount: 77 } });
    await sb.request('PATCH', `/_sandbox/accounts/${A.id}`, { body: { name: 'Renamed', settleAfterSeconds: 60 } });
    await sb.request('POST', '/v1/merchants', {
      token: tokenA,
      body: { name: 'Outra', document: '11144477735', document_type: 'CPF', email: 'o@example.com', phone: '11987654321' },
    });
    await sb.request('DELETE', `/_sandbox/webhooks?accountId=${A.id}`);
    await sb.request('POST', '/_sandbox/webhooks/faults', { body: { accountId: A.id, action: 'drop', times: 3 } });
    await sb.request('POST', '/_sandbox/clock/advance', { body: { seconds: 3600, accountId: A.id } });
    await settled(sb);
    expect(JSON.stringify(await listing(sb, A.id))).not.toBe(JSON.stringify(before));

    const r = await sb.request('POST', '/_sandbox/snapshots/a.arranged-1/restore');
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('a.arranged-1');
    // the same token still works: credentials are kept
    expect(await listing(sb, A.id, tokenA)).toEqual(before);
    expect(JSON.stringify(await listing(sb, B.id, tokenB))).toBe(other);
  });

  it('restores again, from its file, after a restart, and a crash-free restart keeps the restored state', async () => {
    await createCharge(sb, tokenA, 4_400);
    await sb.stop();
    sb = await startTestSandbox({ file: true, dataDir });
    const list = await sb.request('GET', '/_sandbox/snapshots');
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(['a.arranged-1']);
    expect((await sb.request('POST', '/_sandbox/snapshots/a.arranged-1/restore')).status).toBe(200);
    tokenA = await sb.token(A);
    tokenB = await sb.token(B);
    expect(await listing(sb, A.id, tokenA)).toEqual(before);
    await sb.stop();
    sb = await startTestSandbox({ file: true, dataDir });
    expect(await listing(sb, A.id, await sb.token(A))).toEqual(before);
  });
});

describe('names, conflicts and lists', () => {
  it('refuses a name that is not 1-64 letters, digits, . _ -, and an unknown account', async () => {
    for (const name of ['', 'a b', 'x'.repeat(65), 'a/b', 'é']) {
      const r = await sb.request('POST', '/_sandbox/snapshots', { body: { name } });
      expect(r.status, name).toBe(400);
      expect(errorShape(r).error.details[0]!.path).toBe('/name');
    }
    const r = await sb.request('POST', '/_sandbox/snapshots', {
      body: { name: 'ghost', accountId: '99999999-0000-4000-8000-000000000009' },
    });
    expect(r.status).toBe(404);
    expect((await sb.request('GET', '/_sandbox/snapshots/ghost')).status).toBe(404);
  });

  it('answers 409 CONFLICT for a name in use, and replaces it with replace: true', async () => {
    const first = await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'dup', accountId: A.id } });
    expect(first.status).toBe(201);
    const again = await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'dup', accountId: B.id } });
    expect(again.status).toBe(409);
    expect(errorShape(again).error.code).toBe('CONFLICT');
    const replaced = await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'dup', accountId: B.id, replace: true } });
    expect(replaced.status).toBe(201);
    expect(replaced.body.accountId).toBe(B.id);
    expect((await sb.request('GET', `/_sandbox/snapshots?accountId=${B.id}`)).body.map((s: { name: string }) => s.name)).toEqual(['dup']);
    expect((await sb.request('DELETE', '/_sandbox/snapshots/dup')).status).toBe(204);
    expect((await sb.request('DELETE', '/_sandbox/snapshots/dup')).status).toBe(404);
    expect((await sb.request('POST', '/_sandbox/snapshots/dup/restore')).status).toBe(404);
  });
});

describe('a whole-sandbox snapshot', () => {
  it('puts every tenant back, and a whole-sandbox reset removes every snapshot and its file', async () => {
    const tokenA = await sb.token(A);
    const tokenB = await sb.token(B);
    const before = [JSON.stringify(await listing(sb, A.id, tokenA)), JSON.stringify(await listing(sb, B.id, tokenB))];
    const saved = await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'everything' } });
    expect(saved.status).toBe(201);
    expect(saved.body.accountId).toBeNull();
    await createCharge(sb, tokenA, 1_111);
    await createCharge(sb, tokenB, 2_222);
    await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Later' } });
    expect((await sb.request('POST', '/_sandbox/snapshots/everything/restore')).status).toBe(200);
    const after = [JSON.stringify(await listing(sb, A.id, tokenA)), JSON.stringify(await listing(sb, B.id, tokenB))];
    firstDifference(JSON.parse(after[0]!), JSON.parse(before[0]!));
    firstDifference(JSON.parse(after[1]!), JSON.parse(before[1]!));
    expect(after).toEqual(before);
    expect((await sb.request('GET', '/_sandbox/accounts')).body.map((a: { name: string }) => a.name)).not.toContain('Later');

    const reset = await sb.request('POST', '/_sandbox/reset');
    expect(reset.status).toBe(200);
    expect((await sb.request('GET', '/_sandbox/snapshots')).body).toEqual([]);
    expect(await readdir(path.join(dataDir, 'snapshots'))).toEqual([]);
  });
});

describe('export', () => {
  it('answers a fixtures document that starts a new sandbox with the same lookups, balances and merchants', async () => {
    const tokenA = await tenant(sb, A, 'Tenant A again');
    await arrange(sb, A, tokenA);
    expect((await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'to-export', accountId: A.id } })).status).toBe(201);
    const exported = await sb.request('GET', '/_sandbox/snapshots/to-export/export');
    expect(exported.status).toBe(200);
    const file = path.join(dataDir, '..', `export-${Date.now()}.json`);
    await writeFile(file, JSON.stringify(exported.body));
    const loaded = await startTestSandbox({ fixtures: file });
    try {
      const there = await loaded.token(A);
      const here = await listing(sb, A.id, tokenA);
      const copy = await listing(loaded, A.id, there);
      for (const k of ['lookups', 'balance', 'transactions', 'clock'] as const) expect(copy[k], k).toEqual(here[k]);
      const merchants = (l: Record<string, unknown>) => (l.merchants as any[]).map(({ wallets, ...m }) => ({ ...m, wallets }));
      expect(merchants(copy)).toEqual(merchants(here));
    } finally {
      await loaded.stop();
    }
  });
});
