// The outbox lives in the store (docs/architecture.md#the-outbox): a receiver that is down while the sandbox
// restarts still gets every event afterwards, in order; --webhook-url registers one endpoint,
// once, whatever the number of restarts.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { advance, cashIn, cashOut, deliveries, pay, register, until } from '../helpers/webhook-steps.js';
import { verifySignature } from '../../src/webhooks/verify.js';

let dataDir: string;
let sb: TestSandbox | undefined;
let rx: Receiver | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-webhooks-'));
});

afterEach(async () => {
  await sb?.stop();
  await rx?.close();
  sb = rx = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

describe('webhooks across a restart', () => {
  it('a receiver that is down while the sandbox restarts receives every event afterwards, in order', async () => {
    rx = await startReceiver();
    await rx.down();
    sb = await startTestSandbox({ file: true, dataDir });
    const token = await sb.token();
    const ep = await register(sb, { url: rx.url });
    const charge = await cashIn(sb, token);
    await pay(sb, charge);
    const transfer = await cashOut(sb, token);
    // the first attempts fail (connection refused) and are scheduled 10 s later by the sandbox clock
    await until(
      () => deliveries(sb!),
      (ds) => ds.filter((d) => d.attempts.length === 1).length === 2,
    );
    await sb.stop();

    await rx.up();
    sb = await startTestSandbox({ file: true, dataDir });
    const before = await deliveries(sb);
    expect(before.map((d) => d.status)).toEqual(['PENDING', 'PENDING', 'PENDING']);
    expect(before.filter((d) => d.attempts[0]?.error?.includes('ECONNREFUSED'))).toHaveLength(2);

    await advance(sb, 11); // past the first retry and the transfer's settlement (2 s)
    await rx.waitFor(4);
    const order = (id: string) => rx!.received.filter((r) => r.body.data.transactionId === id).map((r) => r.body.type);
    expect(order(charge)).toEqual(['cashin.created', 'cashin.paid']);
    expect(order(transfer)).toEqual(['cashout.created', 'cashout.completed']);
    for (const r of rx.received)
      expect(verifySignature({ payload: r.raw, header: r.headers['x-sandbox-signature'] as string, secret: ep.secret })).toBe(true);
    const after = await until(
      () => deliveries(sb!),
      (ds) => ds.length === 4 && ds.every((d) => d.status === 'DELIVERED'),
    );
    const created = after.find((d) => d.eventType === 'cashin.created');
    expect(created.attempts.map((a: { statusCode: number | null }) => a.statusCode)).toEqual([null, 200]);
  });

  it('deliveries still waiting at shutdown go out at the next start, without any clock change', async () => {
    rx = await startReceiver();
    rx.behave(() => ({ delayMs: 2000 })); // the receiver is slow: the attempt is in flight when the sandbox stops
    sb = await startTestSandbox({ file: true, dataDir });
    const token = await sb.token();
    await register(sb, { url: rx.url });
    const charge = await cashIn(sb, token);
    await rx.waitFor(1);
    await sb.stop(); // aborts the attempt in flight: it is not counted, the delivery stays PENDING
    rx.behave(() => undefined);

    sb = await startTestSandbox({ file: true, dataDir });
    await rx.waitFor(2);
    expect(rx.received[1]!.body.id).toBe(rx.received[0]!.body.id);
    const [d] = await until(
      () => deliveries(sb!, `transactionId=${charge}`),
      (ds) => ds[0]?.status === 'DELIVERED',
    );
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([200]);
  });

  it('--webhook-url registers one endpoint for the default account, once, and its secret is printed', async () => {
    rx = await startReceiver();
    sb = await startTestSandbox({ file: true, dataDir, webhookUrl: rx.url });
    const [ep] = (await sb.request('GET', '/_sandbox/webhooks')).body;
    expect(ep).toMatchObject({ url: rx.url, accountId: DEFAULT_ACCOUNT_ID, source: 'config', events: null });
    expect(sb.running.notes?.some((n) => n.includes(ep.secret) && n.includes(rx!.url))).toBe(true);
    const token = await sb.token();
    await cashIn(sb, token);
    const [got] = await rx.waitFor(1);
    expect(verifySignature({ payload: got!.raw, header: got!.headers['x-sandbox-signature'] as string, secret: ep.secret })).toBe(true);
    await sb.stop();

    sb = await startTestSandbox({ file: true, dataDir, webhookUrl: rx.url });
    expect((await sb.request('GET', '/_sandbox/webhooks')).body).toEqual([ep]);
    await sb.stop();

    sb = await startTestSandbox({ file: true, dataDir, webhookUrl: `${rx.url}/moved` });
    expect((await sb.request('GET', '/_sandbox/webhooks')).body).toEqual([{ ...ep, url: `${rx.url}/moved` }]);
    const reset = await sb.request('POST', '/_sandbox/reset');
    expect(reset.status).toBe(200);
    expect((await sb.request('GET', '/_sandbox/webhooks')).body).toEqual([
      expect.objectContaining({ id: ep.id, secret: ep.secret, url: `${rx.url}/moved` }),
    ]);
    await sb.stop();

    sb = await startTestSandbox({ file: true, dataDir });
    expect((await sb.request('GET', '/_sandbox/webhooks')).body).toEqual([]);
  });
});
