// Webhook delivery faults (docs/webhooks.md#delivery-faults) through a real receiver that verifies
// every signature with the endpoint's secret (401 when it does not verify, as a careful app would):
// each action, the log's marks, `times`, first match in creation order, a deleted fault, bad input.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { advance, cashIn, deliveries, pay, register, until } from '../helpers/webhook-steps.js';
import { verifySignature } from '../../src/webhooks/verify.js';

let sb: TestSandbox;
let rx: Receiver;
let token: string;
let ep: { id: string; secret: string };

const verifies = (h: { raw: string; headers: Record<string, unknown> }, toleranceSeconds?: number) =>
  verifySignature({ payload: h.raw, header: h.headers['x-sandbox-signature'] as string, secret: ep.secret, toleranceSeconds });
const tOf = (h: { headers: Record<string, unknown> }) => Number(/t=(\d+)/.exec(String(h.headers['x-sandbox-signature']))![1]);

async function addFault(body: Record<string, unknown>): Promise<any> {
  const r = await sb.request('POST', '/_sandbox/webhooks/faults', { body: { endpointId: ep.id, ...body } });
  if (r.status !== 201) throw new Error(`fault failed: ${r.status} ${r.text}`);
  return r.body;
}
const faults = async () => (await sb.request('GET', '/_sandbox/webhooks/faults')).body as any[];
/** resolves false when nothing (matching) arrives within `ms` */
const nothingWithin = (ms: number, filter?: (r: any) => boolean) =>
  rx.waitFor(1, filter, ms).then(
    () => false,
    () => true,
  );

/** Once the first attempt of the transaction's delivery is recorded, the clock moves past its retry: both hits. */
async function retried(transactionId: string) {
  await until(
    () => deliveries(sb, `transactionId=${transactionId}`),
    (ds) => ds[0]?.attempts.length === 1,
  );
  await advance(sb, 10);
  return rx.waitFor(2);
}

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startTestSandbox();
  token = await sb.token();
});
afterAll(async () => {
  await sb.stop();
  await rx.close();
});
beforeEach(async () => {
  await sb.request('DELETE', '/_sandbox/webhooks/faults');
  await sb.request('DELETE', '/_sandbox/webhooks');
  rx.received.length = 0;
  ep = await register(sb, { url: rx.url });
  rx.behave((_n, r) => (verifies(r) ? undefined : { status: 401 }));
});

describe('webhook delivery faults', () => {
  it('duplicate: two copies with one event id, the same body, both validly signed; the fault is spent', async () => {
    const fault = await addFault({ action: 'duplicate', eventType: 'cashin.created' });
    expect(fault).toMatchObject({ action: 'duplicate', times: 1, remaining: 1, seconds: null, eventType: 'cashin.created' });
    const id = await cashIn(sb, token);
    const hits = await rx.waitFor(2);
    expect(hits.map((h) => h.headers['x-sandbox-event-id'])).toEqual([hits[0]!.body.id, hits[0]!.body.id]);
    expect(hits[1]!.raw).toBe(hits[0]!.raw);
    expect(hits.every((h) => verifies(h))).toBe(true);
    const log = await until(
      () => deliveries(sb, `transactionId=${id}`),
      (ds) => ds.length === 2 && ds.every((d) => d.status === 'DELIVERED'),
    );
    expect(new Set(log.map((d) => d.eventId)).size).toBe(1);
    for (const d of log) {
      expect(d.fault).toEqual({ id: fault.id, action: 'duplicate' });
      expect(d.attempts[0].fault).toEqual({ id: fault.id, action: 'duplicate' });
    }
    expect(await faults()).toEqual([]);
  });

  it('reorder: cashin.paid arrives before cashin.created, which follows right after it', async () => {
    const fault = await addFault({ action: 'reorder', eventType: 'cashin.created' });
    const id = await cashIn(sb, token);
    expect(await nothingWithin(300)).toBe(true); // held back, waiting for the next event
    await pay(sb, id);
    const hits = await rx.waitFor(2);
    expect(hits.map((h) => h.body.type)).toEqual(['cashin.paid', 'cashin.created']);
    expect(hits.every((h) => verifies(h))).toBe(true);
    const log = await until(
      () => deliveries(sb, `transactionId=${id}`),
      (ds) => ds.every((d) => d.status === 'DELIVERED'),
    );
    const created = log.find((d) => d.eventType === 'cashin.created');
    expect(created.fault).toEqual({ id: fault.id, action: 'reorder' });
    expect(created.attempts).toMatchObject([{ statusCode: 200, fault: { id: fault.id, action: 'reorder' } }]);
    expect(log.find((d) => d.eventType === 'cashin.paid').fault).toBeUndefined();
  });

  it('reorder: with no next event within 60 s of the sandbox clock, the held event goes out on its own', async () => {
    await addFault({ action: 'reorder' });
    await cashIn(sb, token);
    await advance(sb, 59);
    expect(rx.received).toHaveLength(0);
    await advance(sb, 1);
    expect(rx.received.map((h) => h.body.type)).toEqual(['cashin.created']);
  });

  it('bad-signature: the first attempt fails verification, the retry is signed properly and passes', async () => {
    const fault = await addFault({ action: 'bad-signature' });
    const id = await cashIn(sb, token);
    const [first] = await rx.waitFor(1);
    expect(verifies(first!)).toBe(false);
    expect(String(first!.headers['x-sandbox-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const hits = await retried(id);
    expect(verifies(hits[1]!)).toBe(true);
    expect(hits[1]!.raw).toBe(first!.raw);
    const [d] = await deliveries(sb, `transactionId=${id}`);
    expect(d).toMatchObject({ status: 'DELIVERED', fault: { id: fault.id, action: 'bad-signature' } });
    expect(d.attempts).toMatchObject([{ statusCode: 401, fault: { action: 'bad-signature' } }, { statusCode: 200 }]);
    expect(d.attempts[1].fault).toBeUndefined();
  });

  it('stale-signature: the first attempt is correctly signed over a t at least 5 minutes old', async () => {
    await addFault({ action: 'stale-signature' });
    const id = await cashIn(sb, token);
    const [first] = await rx.waitFor(1);
    expect(Date.now() / 1000 - tOf(first!)).toBeGreaterThanOrEqual(300);
    expect(verifies(first!)).toBe(false); // outside the usual 5-minute tolerance
    expect(verifies(first!, Infinity)).toBe(true); // yet the HMAC itself is right
    const hits = await retried(id);
    expect(verifies(hits[1]!)).toBe(true);
    expect(Math.abs(Date.now() / 1000 - tOf(hits[1]!))).toBeLessThan(60);
  });

  it('drop: nothing arrives within 1.5 s and the log says DROPPED; the next event is not held back by it', async () => {
    const fault = await addFault({ action: 'drop', eventType: 'cashin.created' });
    const id = await cashIn(sb, token);
    expect(await nothingWithin(1500)).toBe(true);
    const [d] = await deliveries(sb, `transactionId=${id}`);
    expect(d).toMatchObject({ status: 'DROPPED', attempts: [], nextAttemptAt: null, fault: { id: fault.id, action: 'drop' } });
    expect((await deliveries(sb, 'status=DROPPED')).map((x) => x.id)).toEqual([d.id]);
    await pay(sb, id);
    expect((await rx.waitFor(1)).map((h) => h.body.type)).toEqual(['cashin.paid']);
  });

  it('delay: nothing before the delay on the sandbox clock; the delivery goes when the clock is advanced past it', async () => {
    const fault = await addFault({ action: 'delay', seconds: 30 });
    expect(fault).toMatchObject({ action: 'delay', seconds: 30 });
    const id = await cashIn(sb, token);
    expect(await nothingWithin(300)).toBe(true);
    await advance(sb, 29);
    expect(rx.received).toHaveLength(0);
    await advance(sb, 1); // the attempt is made before the clock call answers
    expect(rx.received.map((h) => h.body.type)).toEqual(['cashin.created']);
    expect(verifies(rx.received[0]!)).toBe(true);
    const [d] = await until(
      () => deliveries(sb, `transactionId=${id}`),
      (ds) => ds[0]?.status === 'DELIVERED',
    );
    expect(d.attempts).toMatchObject([{ statusCode: 200, fault: { id: fault.id, action: 'delay' } }]);
  });

  it('a deleted fault does nothing', async () => {
    const fault = await addFault({ action: 'drop' });
    expect((await sb.request('DELETE', `/_sandbox/webhooks/faults/${fault.id}`)).status).toBe(204);
    expect((await sb.request('DELETE', `/_sandbox/webhooks/faults/${fault.id}`)).status).toBe(404);
    const id = await cashIn(sb, token);
    expect((await rx.waitFor(1)).map((h) => h.body.type)).toEqual(['cashin.created']);
    const [d] = await until(
      () => deliveries(sb, `transactionId=${id}`),
      (ds) => ds[0]?.status === 'DELIVERED',
    );
    expect(d.fault).toBeUndefined();
  });

  it('times counts down one delivery at a time; the first matching fault in creation order applies', async () => {
    const dup = await addFault({ action: 'duplicate', times: 2 });
    const drop = await addFault({ action: 'drop' });
    await cashIn(sb, token, 1001);
    await rx.waitFor(2);
    expect((await faults()).map((f) => [f.id, f.remaining])).toEqual([
      [dup.id, 1],
      [drop.id, 1],
    ]);
    await cashIn(sb, token, 1002);
    await rx.waitFor(4);
    expect((await faults()).map((f) => f.id)).toEqual([drop.id]); // spent, the duplicate fault is gone
    const id = await cashIn(sb, token, 1003);
    expect(await nothingWithin(300, (h) => h.body.data.transactionId === id)).toBe(true);
    expect((await deliveries(sb, `transactionId=${id}`))[0].status).toBe('DROPPED');
    expect(await faults()).toEqual([]);
  });

  it('bad input changes nothing and names every problem; an unknown endpoint is 404', async () => {
    const bad = async (body: unknown) => {
      const r = await sb.request('POST', '/_sandbox/webhooks/faults', { body });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      return (r.body.error.details as { path: string }[]).map((d) => d.path).sort();
    };
    expect(await bad({ action: 'explode', times: -1 })).toEqual(['/action', '/times']);
    expect(await bad({ action: 'drop', seconds: 5, times: 1.5 })).toEqual(['/seconds', '/times']);
    expect(await bad({ action: 'delay' })).toEqual(['/seconds']);
    expect(await bad({ action: 'delay', seconds: 0, times: 0 })).toEqual(['/seconds', '/times']);
    expect(await bad({})).toEqual(['/action']);
    const missing = await sb.request('POST', '/_sandbox/webhooks/faults', {
      body: { endpointId: '00000000-0000-4000-8000-00000000dead', action: 'drop' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect(await faults()).toEqual([]);
  });
});

describe('webhook faults in the store', () => {
  it('a restart keeps them, a reset clears them', async () => {
    const first = await startTestSandbox({ file: true });
    const dataDir = first.dataDir!;
    const r = await first.request('POST', '/_sandbox/webhooks/faults', { body: { action: 'delay', seconds: 5, times: 3 } });
    expect(r.status).toBe(201);
    await first.running.stop();
    const again = await startTestSandbox({ file: true, dataDir });
    try {
      expect((await again.request('GET', '/_sandbox/webhooks/faults')).body).toEqual([r.body]);
      expect((await again.request('POST', '/_sandbox/reset')).status).toBe(200);
      expect((await again.request('GET', '/_sandbox/webhooks/faults')).body).toEqual([]);
    } finally {
      await again.stop();
      await first.stop().catch(() => undefined);
    }
  });
});
