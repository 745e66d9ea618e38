// A webhook receiver down for an hour of sandbox time (issue 9). Two endpoints point at a real
// HTTP receiver on 127.0.0.1 that refuses connections for 3,600 s of sandbox time while
// transactions keep producing events; the clock is advanced in steps, and the sandbox (file
// store) is stopped and started again on the same data folder halfway. Once the receiver is
// back, every event reaches every endpoint that wanted it: each delivery ends DELIVERED with
// exactly one successful attempt, and no endpoint ever receives one event twice.
// Size knobs: TORTURE_OUTAGE_STEPS (clock steps across the hour, default 12),
// TORTURE_OUTAGE_PER_STEP (cash-ins and cash-outs created at each step, default 5).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { cpf, knob, prng } from '../helpers/torture.js';

const STEPS = Math.max(2, knob('TORTURE_OUTAGE_STEPS', 12));
const PER_STEP = knob('TORTURE_OUTAGE_PER_STEP', 5);
const OUTAGE_SECONDS = 3600;

let dataDir: string;
let sb: TestSandbox | undefined;
let rx: Receiver;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-torture-outage-'));
  rx = await startReceiver();
});

afterAll(async () => {
  await sb?.stop();
  await rx?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const start = () => startTestSandbox({ file: true, dataDir });

async function ok(p: Promise<{ status: number; text: string; body: any }>, status: number, what: string): Promise<any> {
  const r = await p;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

async function advance(s: TestSandbox, seconds: number): Promise<void> {
  await ok(s.request('POST', '/_sandbox/clock/advance', { body: { seconds } }), 200, 'clock advance');
}

async function allDeliveries(s: TestSandbox): Promise<any[]> {
  return ok(s.request('GET', '/_sandbox/webhooks/deliveries?limit=1000'), 200, 'deliveries');
}

describe('a webhook receiver down for an hour of sandbox time, with a restart in the middle', () => {
  it('gets every event once it is back, none twice', async () => {
    const rand = prng(knob('TORTURE_SEED', 5));
    await rx.down();
    sb = await start();
    const endpoints = [
      await ok(sb.request('POST', '/_sandbox/webhooks', { body: { url: `${rx.url}/a` } }), 201, 'register a'),
      await ok(
        sb.request('POST', '/_sandbox/webhooks', {
          body: { url: `${rx.url}/b`, events: ['cashin.paid', 'cashout.completed', 'cashout.failed'] },
        }),
        201,
        'register b',
      ),
    ];
    const charges: string[] = [];
    const transfers: string[] = [];
    const step = Math.ceil(OUTAGE_SECONDS / STEPS);
    let elapsed = 0;
    for (let i = 0; i < STEPS; i++) {
      if (i === Math.floor(STEPS / 2)) {
        // the restart: deliveries still pending are in the store, and so is the sandbox clock
        await sb.stop();
        sb = await start();
      }
      const token = await sb.token();
      for (let k = 0; k < PER_STEP; k++) {
        const charge = await ok(
          sb.request('POST', '/v1/banking/cash-in/pix', {
            token,
            body: { amount: 1000 + k, description: 'outage', customer: { name: 'Ana', document: cpf(rand) } },
          }),
          201,
          'cash-in',
        );
        charges.push(charge.transactionId);
        if (rand() < 0.7) await ok(sb.request('POST', `/_sandbox/charges/${charge.transactionId}/pay`, { body: {} }), 200, 'pay');
        const doc = cpf(rand);
        const transfer = await ok(
          sb.request('POST', '/v1/banking/cash-out/pix', {
            token,
            headers: { 'x-idempotency-key': randomUUID() },
            // some keys belong to another document: those transfers fail (cashout.failed)
            body: {
              type: 'pix_key',
              description: 'outage',
              amount: '250',
              details: { name: 'Bia', key: doc, keyType: 'CPF', document: rand() < 0.3 ? cpf(rand) : doc },
            },
          }),
          201,
          'cash-out',
        );
        transfers.push(transfer.transactionId);
      }
      await advance(sb, step);
      elapsed += step;
    }
    expect(elapsed).toBeGreaterThanOrEqual(OUTAGE_SECONDS);
    // an hour of sandbox time without one delivery: every attempt so far failed
    expect(rx.received).toHaveLength(0);
    const during = await allDeliveries(sb);
    expect(during.every((d) => d.status === 'PENDING')).toBe(true);
    // (a transaction's later event waits behind its first, so only the first ones were attempted)
    expect(during.every((d) => d.attempts.every((a: any) => a.statusCode === null))).toBe(true);
    expect(during.filter((d) => d.attempts.length >= 4).length).toBeGreaterThan(0);

    await rx.up();
    // past the longest wait of the retry schedule (1 h after the 5th attempt), in steps
    for (let t = 0; t < 4500; t += 600) await advance(sb, 600);
    const expected = during.length;
    const final = await (async () => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const ds = await allDeliveries(sb);
        if (ds.every((d) => d.status !== 'PENDING') || Date.now() > deadline) return ds;
        await advance(sb, 60);
      }
    })();

    // the log: every delivery DELIVERED, with exactly one successful attempt, the last one
    expect(final.length).toBe(expected);
    expect(final.filter((d) => d.status !== 'DELIVERED').map((d) => `${d.id} ${d.status}`)).toEqual([]);
    for (const d of final) {
      const successes = d.attempts.filter((a: any) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300);
      expect(successes, `delivery ${d.id}`).toHaveLength(1);
      expect(d.attempts[d.attempts.length - 1].statusCode).toBe(200);
    }
    const byEndpoint = (id: string) => final.filter((d) => d.endpointId === id);
    for (const ep of endpoints) {
      const delivered = byEndpoint(ep.id).map((d) => d.eventId);
      expect(new Set(delivered).size, 'one DELIVERED delivery per event and endpoint').toBe(delivered.length);
    }

    // the receiver: each endpoint got each of its events exactly once
    const received = (suffix: string) => rx.received.filter((r) => r.path.endsWith(suffix)).map((r) => r.body.id as string);
    const [a, b] = [received('/a'), received('/b')];
    expect(new Set(a).size, 'no event twice at endpoint a').toBe(a.length);
    expect(new Set(b).size, 'no event twice at endpoint b').toBe(b.length);
    expect(new Set(a)).toEqual(new Set(byEndpoint(endpoints[0].id).map((d) => d.eventId)));
    expect(new Set(b)).toEqual(new Set(byEndpoint(endpoints[1].id).map((d) => d.eventId)));

    // and those are every event the transactions produced: created + settled for each transfer,
    // created (+ paid) for each charge at a; only the filtered types at b
    const statuses = await Promise.all(
      [...charges, ...transfers].map(
        async (id) => (await ok(sb!.request('GET', `/_sandbox/transactions/${id}`), 200, 'transaction')).status as string,
      ),
    );
    const paid = statuses.slice(0, charges.length).filter((s) => s === 'PAID').length;
    const settled = statuses.slice(charges.length).filter((s) => s === 'COMPLETED' || s === 'FAILED').length;
    expect(settled).toBe(transfers.length);
    expect(a.length).toBe(charges.length + paid + transfers.length * 2);
    expect(b.length).toBe(paid + transfers.length);
    const types = rx.received.map((r) => r.body.type as string);
    expect(types).toContain('cashout.failed');
    console.log(
      `webhook-outage: ${charges.length} charges (${paid} paid), ${transfers.length} transfers, ${final.length} deliveries, ${rx.received.length} received once each after ${elapsed} s down`,
    );
  }, 120_000);
});
