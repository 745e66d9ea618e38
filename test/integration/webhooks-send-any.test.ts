// POST /_sandbox/webhooks/send (docs/webhooks.md#sending-any-body): any JSON body reaches the
// endpoint byte for byte, signed as asked, once; the answer is the receiver's; the send is logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../../src/client/control-client.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { register } from '../helpers/webhook-steps.js';
import { verifySignature } from '../../src/webhooks/verify.js';

let sb: TestSandbox;
let rx: Receiver;
let ep: { id: string; secret: string };

const verifies = (h: { raw: string; headers: Record<string, unknown> }, toleranceSeconds?: number) =>
  verifySignature({ payload: h.raw, header: h.headers['x-sandbox-signature'] as string, secret: ep.secret, toleranceSeconds });

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startTestSandbox();
  ep = await register(sb, { url: rx.url });
  rx.behave((_n, r) => (verifies(r) ? { status: 202 } : { status: 401 }));
});
afterAll(async () => {
  await sb.stop();
  await rx.close();
});

const send = (body: Record<string, unknown>) => sb.request('POST', '/_sandbox/webhooks/send', { body });

describe('POST /_sandbox/webhooks/send', () => {
  it('a valid signature: the body arrives byte for byte with the usual headers, and the answer is the receiver’s', async () => {
    const body = { id: 'evt_forged_1', type: 'cashin.paid', note: 'ação às 12h ✓', nested: { n: [1, 2.5, null, true] } };
    const r = await send({ endpointId: ep.id, body });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ statusCode: 202, error: null, durationMs: expect.any(Number) });
    const hit = rx.received.at(-1)!;
    expect(hit.raw).toBe(JSON.stringify(body));
    expect(Buffer.from(hit.raw, 'utf8').equals(Buffer.from(JSON.stringify(body), 'utf8'))).toBe(true);
    expect(verifies(hit)).toBe(true);
    expect(hit.headers).toMatchObject({ 'content-type': 'application/json', 'x-sandbox-event-id': 'evt_forged_1' });
    expect(String(hit.headers['user-agent'])).toMatch(/^pix-sandbox\//);
  });

  it('a bad signature does not verify (the receiver’s 401 is the answer); a stale one is right but 10 minutes old', async () => {
    const before = rx.received.length;
    const bad = await send({ endpointId: ep.id, body: [1, 'two'], signature: 'bad' });
    expect(bad.body).toMatchObject({ statusCode: 401, error: null });
    const badHit = rx.received[before]!;
    expect(badHit.raw).toBe('[1,"two"]');
    expect(verifies(badHit, Infinity)).toBe(false);

    const stale = await send({ endpointId: ep.id, body: 'just a string', signature: 'stale' });
    expect(stale.body.statusCode).toBe(401);
    const staleHit = rx.received[before + 1]!;
    expect(staleHit.raw).toBe('"just a string"');
    const t = Number(/t=(\d+)/.exec(String(staleHit.headers['x-sandbox-signature']))![1]);
    expect(Date.now() / 1000 - t).toBeGreaterThanOrEqual(300);
    expect(verifies(staleHit, Infinity)).toBe(true);
    expect(rx.received).toHaveLength(before + 2); // one attempt each, never retried
  });

  it('is logged (newest first, with the bytes sent and the attempt)', async () => {
    const r = await sb.request('GET', `/_sandbox/webhooks/sends?endpointId=${ep.id}&limit=3`);
    expect(r.status).toBe(200);
    expect(r.body.map((s: any) => [s.signature, s.body, s.attempt.statusCode])).toEqual([
      ['stale', '"just a string"', 401],
      ['bad', '[1,"two"]', 401],
      ['valid', rx.received[0]!.raw, 202],
    ]);
    expect(r.body[2]).toMatchObject({ endpointId: ep.id, eventId: 'evt_forged_1', url: rx.url });
  });

  it('a receiver that cannot be reached is an answer too: no status, the network error', async () => {
    const gone = await register(sb, { url: 'http://127.0.0.1:9/hook' });
    const r = await send({ endpointId: gone.id, body: {} });
    expect(r.status).toBe(200);
    expect(r.body.statusCode).toBeNull();
    expect(r.body.error).toMatch(/ECONNREFUSED/);
  });

  it('bad input names every problem; an unknown endpoint is 404', async () => {
    const r = await send({ signature: 'forged' });
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['/body', '/endpointId', '/signature']);
    const missing = await send({ endpointId: '00000000-0000-4000-8000-00000000dead', body: {} });
    expect(missing.status).toBe(404);
  });
});

describe('from code', () => {
  it('ControlClient: webhooks.faults add / list / remove / clear, webhooks.send and webhooks.sends', async () => {
    const client = new ControlClient({ baseUrl: sb.url });
    const f = await client.webhooks.faults.add({ endpointId: ep.id, action: 'delay', seconds: 5, times: 2 });
    expect(f).toMatchObject({ endpointId: ep.id, action: 'delay', seconds: 5, times: 2, remaining: 2 });
    expect((await client.webhooks.faults.list()).map((x) => x.id)).toEqual([f.id]);
    await client.webhooks.faults.remove(f.id);
    await client.webhooks.faults.add({ action: 'drop' });
    await client.webhooks.faults.clear();
    expect(await client.webhooks.faults.list()).toEqual([]);
    expect(await client.webhooks.send({ endpointId: ep.id, body: { hello: 'world' } })).toMatchObject({ statusCode: 202, error: null });
    expect((await client.webhooks.sends({ endpointId: ep.id, limit: 1 }))[0]).toMatchObject({
      body: '{"hello":"world"}',
      signature: 'valid',
    });
  });

  it('the log keeps the last 1,000 sends: the oldest go first', async () => {
    const other = await register(sb, { url: rx.url });
    const sends = async (q: string) => (await sb.request('GET', `/_sandbox/webhooks/sends?limit=1000&${q}`)).body as any[];
    await send({ endpointId: ep.id, body: { id: 'evt_before_the_bound' } });
    for (const id of ['evt_old_1', 'evt_old_2', 'evt_old_3']) await send({ endpointId: other.id, body: { id } });
    // then 1,000 more to the other endpoint: every send before them falls out of the log
    for (let i = 0; i < 1000; i += 25)
      await Promise.all(Array.from({ length: 25 }, (_, j) => send({ endpointId: other.id, body: { id: `evt_bound_${i + j}` } })));
    expect(await sends(`endpointId=${ep.id}`)).toEqual([]);
    const log = await sends(`endpointId=${other.id}`);
    expect(log).toHaveLength(1000);
    expect(log.every((s) => s.eventId.startsWith('evt_bound_'))).toBe(true);
  });
});
