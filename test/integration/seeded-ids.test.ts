// One seeded random source (docs/decisions.md#d49-seeded-randomness): two fresh sandboxes started
// with the same --seed and answering the same calls in the same order hand out the same ids, payers
// and end-to-end ids; another seed, or none, hands out others; secrets and request ids never follow
// the seed; and a data file reopened under the same seed never gets the ids it already holds.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createCharge, createTransfer } from '../helpers/control.js';

/** What one run of the sequence handed out, by name: generated values only (no times, no URLs). */
type Run = { values: Record<string, unknown>; secrets: string[]; requestIds: string[] };

const jwtId = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { jti: string }).jti;

async function sequence(sb: TestSandbox, receiver: Receiver): Promise<Run> {
  const values: Record<string, unknown> = {};
  const secrets: string[] = [];
  const requestIds: string[] = [];
  const ok = async (method: string, path: string, opts: { body?: unknown; token?: string } = {}) => {
    const r = await sb.request(method, path, opts);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    requestIds.push(r.headers.get('x-request-id')!);
    return r.body;
  };

  const token = await sb.token();
  values.tokenJti = jwtId(token);
  const endpoint = await ok('POST', '/_sandbox/webhooks', { body: { url: receiver.url } });
  values.endpoint = endpoint.id;
  secrets.push(endpoint.secret);

  const first = await createCharge(sb, token, 1250);
  const second = await createCharge(sb, token, 990);
  values.charges = [first.transactionId, second.transactionId];
  const paid = await ok('POST', `/_sandbox/charges/${first.transactionId}/pay`, { body: {} });
  const lookup = (await ok('GET', `/v1/banking/transactions/${first.transactionId}`, { token })).data;
  values.payer = lookup.payer;
  values.chargeEndToEnd = lookup.end_to_end_id;
  expect(paid.endToEndId ?? lookup.end_to_end_id).toBe(lookup.end_to_end_id);

  const transfer = await createTransfer(sb, token, 700);
  values.transfer = transfer.transactionId;
  await ok('POST', '/_sandbox/clock/advance', { body: { seconds: 5 } }); // settles it (settleAfterSeconds 2)
  const settled = (await ok('GET', `/v1/banking/transactions/${transfer.transactionId}`, { token })).data;
  expect(settled.status).toBe('COMPLETED');
  values.transferEndToEnd = settled.end_to_end_id;

  const merchant = (
    await ok('POST', '/v1/merchants', {
      token,
      body: { name: 'Padaria', document: '11222333000181', document_type: 'CNPJ', email: 'p@example.com', phone: '11987654321' },
    })
  ).data;
  values.merchant = [merchant.merchant.id, merchant.wallet_id, merchant.credentials.client_id];
  secrets.push(merchant.credentials.client_secret);

  // the records behind them: ledger entries and events of each transaction, and the webhook deliveries
  for (const id of [first.transactionId, second.transactionId, transfer.transactionId]) {
    const detail = await ok('GET', `/_sandbox/transactions/${id}`);
    values[`ledger:${id}`] = detail.ledger.map((e: { id: string }) => e.id);
    values[`events:${id}`] = detail.events.map((e: { id: string }) => e.id);
  }
  const deliveries = await ok('GET', '/_sandbox/webhooks/deliveries?limit=1000');
  values.deliveries = deliveries.map((d: { id: string; eventId: string }) => [d.id, d.eventId]).sort();
  return { values, secrets, requestIds };
}

/** Every generated id, end-to-end id and payer account in a run: the values no two seeds should share. */
function generated(run: Run): string[] {
  const v = run.values as Record<string, any>;
  const ids = [
    v.tokenJti,
    v.endpoint,
    ...v.charges,
    v.transfer,
    ...v.merchant,
    v.chargeEndToEnd,
    v.transferEndToEnd,
    v.payer.account_number,
    ...Object.entries(v)
      .filter(([k]) => k.startsWith('ledger:') || k.startsWith('events:'))
      .flatMap(([, list]) => list as string[]),
    ...(v.deliveries as string[][]).flat(),
  ];
  for (const id of ids) expect(typeof id === 'string' && id.length > 0, `a generated value is missing: ${JSON.stringify(v)}`).toBe(true);
  return ids as string[];
}

async function runFresh(seed: number | undefined, receiver: Receiver): Promise<Run> {
  const sb = await startTestSandbox(seed === undefined ? {} : { seed });
  try {
    return await sequence(sb, receiver);
  } finally {
    await sb.stop();
  }
}

describe('with --seed, a fresh sandbox answers the same calls with the same ids', () => {
  let receiver: Receiver;
  let a: Run, b: Run, other: Run, unseeded: Run;
  beforeAll(async () => {
    receiver = await startReceiver();
    a = await runFresh(42, receiver);
    b = await runFresh(42, receiver);
    other = await runFresh(43, receiver);
    unseeded = await runFresh(undefined, receiver);
  });
  afterAll(() => receiver.close());

  it('the same seed gives identical ids, payers and end-to-end ids', () => {
    expect(generated(a).length).toBeGreaterThan(20);
    expect(b.values).toEqual(a.values);
    expect(a.values.payer).toMatchObject({ name: 'Cliente Teste', account_type: 'CACC' });
    expect(String(a.values.chargeEndToEnd)).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
  });

  it('ids are version 4 UUIDs', () => {
    for (const id of [...(a.values.charges as string[]), a.values.transfer, a.values.endpoint])
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('another seed, or none, gives other values', () => {
    const seen = new Set(generated(a));
    expect(generated(other).filter((v) => seen.has(v))).toEqual([]);
    expect(generated(unseeded).filter((v) => seen.has(v))).toEqual([]);
  });

  it('secrets and request ids never follow the seed', () => {
    expect(a.secrets).toHaveLength(2);
    for (const [i, secret] of a.secrets.entries()) expect(b.secrets[i]).not.toBe(secret);
    expect(a.requestIds.length).toBeGreaterThan(5);
    const seen = new Set(a.requestIds);
    expect(b.requestIds.filter((id) => seen.has(id))).toEqual([]);
  });
});

describe('a data file reopened under the same seed', () => {
  it('never hands out an id it already holds', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-seeded-'));
    try {
      const first = await startTestSandbox({ file: true, dataDir, seed: 7 });
      let before: string;
      try {
        before = (await createCharge(first, await first.token(), 100)).transactionId;
      } finally {
        await first.stop();
      }
      const again = await startTestSandbox({ file: true, dataDir, seed: 7 });
      try {
        const token = await again.token();
        const after = (await createCharge(again, token, 200)).transactionId;
        expect(after).not.toBe(before);
        const kept = await again.request('GET', `/v1/banking/transactions/${before}`, { token });
        expect(kept.status).toBe(200);
        expect(kept.body.data).toMatchObject({ id: before, status: 'WAITING_PAYMENT' });
      } finally {
        await again.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
