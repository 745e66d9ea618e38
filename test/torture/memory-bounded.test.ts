// Memory stays bounded under a long run (issue 9). What a sandbox keeps besides the records a
// test created is pruned: the request journal is a ring of its capacity whose entries stay
// small whatever a client sends, idempotency records go once their 24 hours have passed on the
// sandbox clock, and finished webhook deliveries and their events are capped by count. Rounds of
// mixed traffic, each followed by a clock advance of 25 h, never let those collections pass
// their caps. The webhook caps are lowered for the run (the same code, smaller numbers), and the
// dispatcher's real-time pruning interval is passed by moving its clock, not by waiting.
// Size knobs: TORTURE_MEMORY_ROUNDS (default 6), TORTURE_MEMORY_OPS (cash-outs per round, default 250).
import { randomUUID } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { realClock } from '../../src/clock/clock.js';
import { LIMITS } from '../../src/webhooks/prune.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { cpf, knob, prng } from '../helpers/torture.js';

const ROUNDS = Math.max(2, knob('TORTURE_MEMORY_ROUNDS', 6));
const OPS = Math.max(10, knob('TORTURE_MEMORY_OPS', 250));
const CAPS = { deliveries: 400, events: 600, batch: 5_000 };

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1048576;
};

let sb: TestSandbox;
let rx: Receiver;
let token: string;
const saved = { ...LIMITS };
let realOffsetMs = 0;

beforeAll(async () => {
  Object.assign(LIMITS, CAPS);
  vi.spyOn(realClock, 'nowMs').mockImplementation(() => Date.now() + realOffsetMs);
  rx = await startReceiver();
  // the journal's former size: what the checks below fill and measure (its default, 10,000 per tenant, is the bench's: journal-memory)
  sb = await startTestSandbox({ journalSize: 500 });
  token = await sb.token();
  const r = await sb.request('POST', '/_sandbox/webhooks', { body: { url: rx.url } });
  expect(r.status).toBe(201);
});

afterAll(async () => {
  Object.assign(LIMITS, saved);
  vi.restoreAllMocks();
  await sb?.stop();
  await rx?.close();
});

async function pool<T>(n: number, width: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

async function settleDeliveries(): Promise<void> {
  const deadline = Date.now() + 20_000;
  const pending = () => sb.running.ctx.store.deliveries.count('byStatus', 'PENDING');
  while (pending() > 0) {
    if (Date.now() > deadline) throw new Error(`${pending()} deliveries still pending`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('memory stays bounded under a long run', () => {
  it(`keeps the journal, idempotency records and the delivery log under their caps over ${ROUNDS} rounds`, async () => {
    const rand = prng(knob('TORTURE_SEED', 3));
    const store = () => sb.running.ctx.store;
    const journal = sb.running.ctx.journal;
    const peaks = { journal: 0, idempotency: 0, finished: 0, events: 0 };
    let transactions = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      token = await sb.token(); // the last round's expired with the clock
      // cash-outs with fresh idempotency keys, and paid charges: events for the endpoint
      const outs = await pool(OPS, 12, () =>
        sb.request('POST', '/v1/banking/cash-out/pix', {
          token,
          headers: { 'x-idempotency-key': randomUUID() },
          body: { type: 'pix_key', description: 'long run', amount: '10', details: { name: 'Bia', key: cpf(rand), keyType: 'CPF' } },
        }),
      );
      expect(
        outs
          .filter((r) => r.status !== 201)
          .map((r) => `${r.status} ${r.text}`)
          .slice(0, 3),
      ).toEqual([]);
      const ins = await pool(Math.ceil(OPS / 2), 12, async () => {
        const c = await sb.request('POST', '/v1/banking/cash-in/pix', {
          token,
          body: { amount: 500, description: 'long run', customer: { name: 'Ana', document: cpf(rand) } },
        });
        await sb.request('POST', `/_sandbox/charges/${c.body.transactionId}/pay`, { body: {} });
        return c;
      });
      transactions += outs.length + ins.length;
      expect(store().idempotency.size).toBeGreaterThanOrEqual(OPS);
      await settleDeliveries();

      // a day and an hour later: every record of this round is past its 24 hours; the
      // dispatcher's pruning interval (10 s of real time) has passed too
      realOffsetMs += 11_000;
      const adv = await sb.request('POST', '/_sandbox/clock/advance', { body: { seconds: 25 * 3600 } });
      expect(adv.status).toBe(200);
      await settleDeliveries();
      await sb.running.ctx.runDue();

      const idem = store().idempotency.size;
      const finished = [...store().deliveries.scan()].filter((d) => d.status !== 'PENDING').length;
      const events = store().events.size;
      peaks.journal = Math.max(peaks.journal, journal.size);
      peaks.idempotency = Math.max(peaks.idempotency, idem);
      peaks.finished = Math.max(peaks.finished, finished);
      peaks.events = Math.max(peaks.events, events);
      expect(idem, `round ${round}: idempotency records past 24 h are gone`).toBe(0);
      expect(finished, `round ${round}: finished deliveries within the cap`).toBeLessThanOrEqual(CAPS.deliveries);
      expect(events, `round ${round}: events within the cap`).toBeLessThanOrEqual(CAPS.events);
      expect(journal.size, `round ${round}: journal within its capacity`).toBeLessThanOrEqual(journal.capacity);
    }
    // the run produced far more than the caps: they were enforced, not just never reached
    expect(transactions * 2).toBeGreaterThan(CAPS.events * 2);
    expect(journal.size).toBe(journal.capacity);
    expect(store().transactions.size).toBe(transactions);
    console.log(
      `memory-bounded: ${ROUNDS} rounds, ${transactions} transactions; peaks ${JSON.stringify(peaks)} (caps journal ${journal.capacity}, deliveries ${CAPS.deliveries}, events ${CAPS.events})`,
    );
  }, 180_000);

  it('keeps each journal entry small, so that a full journal of hostile bodies stays within tens of MB', async () => {
    const journal = sb.running.ctx.journal;
    // 270 KB bodies of 20,000 fields each: kept whole, 500 of them would hold hundreds of MB
    const fields: Record<string, number> = {};
    for (let i = 0; i < 20_000; i++) fields[`field${i}`] = i;
    const body = JSON.stringify(fields);
    token = await sb.token();
    const before = heapMb();
    // each body its own (the journal writes a text equal to the one before it once)
    await pool(journal.capacity + 50, 8, (i) =>
      sb.request('POST', '/v1/merchants', { token, raw: `{"n":${i},${body.slice(1)}`, headers: { 'content-type': 'application/json' } }),
    );
    const grown = heapMb() - before;
    // the journal keeps its entries outside the heap: its own bytes, and what the heap gained beside them
    const kept = journal.bytes / 1048576;
    expect(journal.size).toBe(journal.capacity);
    // the entries are of these requests, and what they keep of each body is cut short
    const newest = journal.list()[0]!;
    expect(newest.path).toBe('/v1/merchants');
    expect(Object.keys(newest.requestBody as object).length).toBeLessThan(600);
    console.log(
      `memory-bounded: a journal full of ${(body.length / 1024).toFixed(0)} KB bodies holds ${kept.toFixed(1)} MB (the heap grew ${grown.toFixed(1)} MB)`,
    );
    expect(kept + grown).toBeLessThan(40);
  }, 120_000);
});
