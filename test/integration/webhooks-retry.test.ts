// Retries on the sandbox clock (docs/decisions.md#d36-webhook-delivery): a failing receiver gets the event on a later
// attempt, every attempt is in the log, the schedule ends in DEAD, and the next event of a
// transaction waits for the one before it.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { advance, cashIn, deliveries, pay, register, until } from '../helpers/webhook-steps.js';
import { verifySignature } from '../../src/webhooks/verify.js';

let sb: TestSandbox | undefined;
let rx: Receiver | undefined;

afterEach(async () => {
  await sb?.stop();
  await rx?.close();
  sb = rx = undefined;
});

describe('webhook retries', () => {
  it('a receiver failing the first 2 attempts gets the event on the 3rd, after the default backoff; the log shows each attempt', async () => {
    rx = await startReceiver();
    sb = await startTestSandbox();
    const token = await sb.token();
    const ep = await register(sb, { url: rx.url });
    rx.behave((n) => (n <= 2 ? { status: n === 1 ? 500 : 502 } : undefined));

    const id = await cashIn(sb, token);
    const [first] = await until(
      () => deliveries(sb!, `transactionId=${id}`),
      (ds) => ds[0]?.attempts.length === 1,
    );
    expect(first).toMatchObject({ status: 'PENDING', attempts: [{ statusCode: 500, error: null }] });
    const wait = (x: { nextAttemptAt: string; attempts: { at: string }[] }) =>
      Date.parse(x.nextAttemptAt) - Date.parse(x.attempts.at(-1)!.at);
    // counted from when the attempt is recorded, a few ms after it started
    expect(wait(first)).toBeGreaterThanOrEqual(10_000);
    expect(wait(first)).toBeLessThan(11_000);

    await advance(sb, 9); // not yet due
    expect(rx.received).toHaveLength(1);
    await advance(sb, 1); // 10 s: the 2nd attempt runs before the clock call answers
    let [d] = await deliveries(sb, `transactionId=${id}`);
    expect(rx.received).toHaveLength(2);
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 502]);
    expect(wait(d)).toBeGreaterThanOrEqual(30_000);
    expect(wait(d)).toBeLessThan(31_000);

    await advance(sb, 30);
    [d] = await deliveries(sb, `transactionId=${id}`);
    expect(d.status).toBe('DELIVERED');
    expect(d.nextAttemptAt).toBeNull();
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 502, 200]);
    for (const a of d.attempts) {
      expect(a.error).toBeNull();
      expect(Number.isInteger(a.durationMs) && a.durationMs >= 0).toBe(true);
    }
    // attempt times follow the sandbox clock: 10 s, then 30 s later
    const at = d.attempts.map((a: { at: string }) => Date.parse(a.at));
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(10_000);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(30_000);

    expect(rx.received).toHaveLength(3);
    const ids = new Set(rx.received.map((r) => r.headers['x-sandbox-event-id']));
    expect(ids.size).toBe(1); // the same event each time: receivers de-duplicate by its id
    for (const r of rx.received)
      expect(verifySignature({ payload: r.raw, header: r.headers['x-sandbox-signature'] as string, secret: ep.secret })).toBe(true);
  });

  it('a network error is logged as such; the schedule ends in DEAD; the next event of the transaction waited for it; redelivery of the dead one works', async () => {
    rx = await startReceiver();
    const url = rx.url;
    await rx.down();
    sb = await startTestSandbox({ webhookRetrySchedule: [5] });
    const token = await sb.token();
    await register(sb, { url });

    const id = await cashIn(sb, token);
    await until(
      () => deliveries(sb!, `transactionId=${id}`),
      (ds) => ds[0]?.attempts.length === 1,
    );
    await pay(sb, id);
    await sb.running.ctx.runDue();
    let log = await deliveries(sb, `transactionId=${id}`);
    const paid = log.find((d) => d.eventType === 'cashin.paid');
    const created = log.find((d) => d.eventType === 'cashin.created');
    expect(created.attempts[0].statusCode).toBeNull();
    expect(created.attempts[0].error).toMatch(/ECONNREFUSED/);
    // cashin.paid is due, but waits for cashin.created of the same transaction
    expect(paid).toMatchObject({ status: 'PENDING', attempts: [] });

    await rx.up();
    rx.behave((_n, r) => (r.body.type === 'cashin.created' ? { status: 503 } : undefined));
    await advance(sb, 5); // created: 2nd and last attempt fails → DEAD; then paid goes, in the same call
    log = await deliveries(sb, `transactionId=${id}`);
    expect(log.find((d) => d.eventType === 'cashin.created')).toMatchObject({ status: 'DEAD', nextAttemptAt: null });
    expect(log.find((d) => d.eventType === 'cashin.created').attempts.map((a: { statusCode: number | null }) => a.statusCode)).toEqual([
      null,
      503,
    ]);
    expect(log.find((d) => d.eventType === 'cashin.paid')).toMatchObject({ status: 'DELIVERED' });
    expect(rx.received.map((r) => r.body.type)).toEqual(['cashin.created', 'cashin.paid']);

    rx.behave(() => undefined);
    const again = await sb.request('POST', `/_sandbox/webhooks/deliveries/${created.id}/redeliver`);
    expect(again.status).toBe(201);
    await rx.waitFor(3);
    expect(rx.received[2]!.body.id).toBe(rx.received[0]!.body.id);
    log = await until(
      () => deliveries(sb!, `transactionId=${id}&eventType=cashin.created`),
      (ds) => ds[0]?.status === 'DELIVERED',
    );
    expect(log.map((d) => d.status)).toEqual(['DELIVERED', 'DEAD']); // the dead one stays in the log
  });

  it('redelivering a PENDING delivery brings its next attempt forward instead of queueing a copy', async () => {
    rx = await startReceiver();
    sb = await startTestSandbox();
    const token = await sb.token();
    await register(sb, { url: rx.url });
    rx.behave((n) => (n === 1 ? { status: 500 } : undefined));
    const id = await cashIn(sb, token);
    const [d] = await until(
      () => deliveries(sb!, `transactionId=${id}`),
      (ds) => ds[0]?.attempts.length === 1,
    );
    const r = await sb.request('POST', `/_sandbox/webhooks/deliveries/${d.id}/redeliver`);
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(d.id);
    const [done] = await until(
      () => deliveries(sb!, `transactionId=${id}`),
      (ds) => ds[0]?.status === 'DELIVERED',
    );
    expect(done.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(await deliveries(sb, `transactionId=${id}`)).toHaveLength(1);
  });
});
