// One attempt's limits (a hung receiver is cut at the deadline; stopping aborts), and the
// pruning that keeps the webhook log bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { cashIn, deliveries, register, until } from '../helpers/webhook-steps.js';
import { send, ATTEMPT_TIMEOUT_MS } from '../../src/webhooks/send.js';
import { prune } from '../../src/webhooks/prune.js';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

describe('one attempt', () => {
  it('is cut at the deadline when the receiver does not answer (5 s by default)', async () => {
    expect(ATTEMPT_TIMEOUT_MS).toBe(5000);
    rx.behave(() => ({ delayMs: 2000 }));
    const r = await send(rx.url, '{}', { 'content-type': 'application/json' }, new AbortController().signal, { timeoutMs: 150 });
    expect(r).toMatchObject({ statusCode: null, aborted: false });
    expect(r.error).toMatch(/timeout/);
    expect(r.durationMs).toBeGreaterThanOrEqual(140);
    expect(r.durationMs).toBeLessThan(1500);
  });

  it('reports the status of an answer, and is abandoned (not counted) when the sandbox stops', async () => {
    rx.behave(() => ({ status: 418 }));
    expect(await send(rx.url, '{}', {}, new AbortController().signal)).toMatchObject({ statusCode: 418, error: null, aborted: false });
    rx.behave(() => ({ delayMs: 2000 }));
    const ac = new AbortController();
    const pending = send(rx.url, '{}', {}, ac.signal);
    await rx.waitFor(3);
    ac.abort();
    expect(await pending).toMatchObject({ statusCode: null, aborted: true });
    expect((await send('not a url', '{}', {}, ac.signal)).error).toMatch(/invalid URL/);
  });
});

describe('pruning', () => {
  let sb: TestSandbox;
  afterAll(async () => {
    await sb?.stop();
  });

  it('removes the oldest finished deliveries beyond the cap, and events nothing refers to; never a PENDING delivery', async () => {
    rx.behave(() => undefined);
    sb = await startTestSandbox();
    const token = await sb.token();
    const ep = await register(sb, { url: rx.url });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await cashIn(sb, token, 2000 + i));
    await until(
      () => deliveries(sb),
      (ds) => ds.length === 4 && ds.every((d) => d.status === 'DELIVERED'),
    );
    await sb.request('DELETE', `/_sandbox/webhooks/${ep.id}`);
    await register(sb, { url: 'http://127.0.0.1:9/unreachable' });
    const waiting = await cashIn(sb, token, 2100);
    const ctx = sb.running.ctx;
    expect([...ctx.store.events.scan({ order: 'oldest' })].map((r) => r.id)).toHaveLength(5);

    const removed = await prune(ctx, { deliveries: 2, events: 3, batch: 100 });
    const left = await deliveries(sb);
    expect(left.map((d) => d.transactionId)).toEqual([waiting, ids[3], ids[2]]);
    expect(left[0].status).toBe('PENDING');
    // events: the two whose deliveries went are removed; 3 remain, all still referred to
    expect([...ctx.store.events.scan({ order: 'oldest' })].map((e) => e.transactionId)).toEqual([ids[2], ids[3], waiting]);
    expect(removed).toBe(4);
    expect(await prune(ctx, { deliveries: 2, events: 3, batch: 100 })).toBe(0);
  });
});
