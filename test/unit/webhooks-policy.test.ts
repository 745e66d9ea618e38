// The delivery rules: retry schedule and per-transaction order.
import { describe, expect, it } from 'vitest';
import { afterAttempt, dueHeads, eventBody } from '../../src/domain/deliveries.js';
import { deliveryRecord, iso, T0 } from '../helpers/records.js';
import type { Delivery, WebhookEvent } from '../../src/store/model.js';

const events: Record<string, WebhookEvent> = {};
const eventOf = (id: string) => events[id];
/** every pending delivery is a candidate here; a transaction's deliveries are those of `list` */
const heads = (list: Delivery[], now: string) => dueHeads(list, (tid) => list.filter((d) => d.transactionId === tid), eventOf, now);

const delivery = deliveryRecord;

const attempt = (statusCode: number | null) => ({
  at: iso(0),
  statusCode,
  error: statusCode === null ? 'ECONNREFUSED' : null,
  durationMs: 3,
});

describe('afterAttempt', () => {
  it('a 2xx answer delivers; anything else waits the next step of the schedule, then the delivery is dead', () => {
    const schedule = [10, 30];
    expect(afterAttempt(delivery({}), attempt(204), schedule, T0)).toMatchObject({ status: 'DELIVERED', nextAttemptAt: null });
    let d = afterAttempt(delivery({}), attempt(500), schedule, T0);
    expect(d).toMatchObject({ status: 'PENDING', nextAttemptAt: iso(10) });
    d = afterAttempt(d, attempt(null), schedule, T0 + 10_000);
    expect(d).toMatchObject({ status: 'PENDING', nextAttemptAt: iso(40) });
    d = afterAttempt(d, attempt(302), schedule, T0 + 40_000);
    expect(d).toMatchObject({ status: 'DEAD', nextAttemptAt: null });
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, null, 302]);
  });
});

describe('dueHeads', () => {
  const ev = (id: string, type: WebhookEvent['type'], at: number) =>
    (events[id] = {
      seq: 1,
      id,
      type,
      accountId: 'a',
      transactionId: 't1',
      createdAt: iso(at),
      data: { transactionId: 't1', type: 'CASH_IN', status: 'PAID', amount: 1 },
    });

  it('lets only the oldest pending event of a transaction go to an endpoint, and only when it is due', () => {
    ev('e1', 'cashin.created', 0);
    ev('e2', 'cashin.paid', 0); // same millisecond: creation still comes first
    const created = delivery({ id: 'd1', eventId: 'e1', nextAttemptAt: iso(10) });
    const paid = delivery({ id: 'd2', eventId: 'e2', eventType: 'cashin.paid', nextAttemptAt: iso(0) });
    expect(heads([paid, created], iso(5))).toEqual([]);
    expect(heads([paid, created], iso(10))).toEqual([created]);
    expect(heads([paid, { ...created, status: 'DEAD' }], iso(5))).toEqual([paid]);
  });

  it('never holds back another endpoint or another transaction', () => {
    ev('e3', 'cashin.created', 1);
    const blocked = delivery({ id: 'd1', eventId: 'e1', nextAttemptAt: iso(100) });
    const otherEndpoint = delivery({ id: 'd3', endpointId: 'ep2', eventId: 'e2', eventType: 'cashin.paid' });
    const otherTx = delivery({ id: 'd4', transactionId: 't2', eventId: 'e3' });
    expect(
      heads([blocked, otherEndpoint, otherTx], iso(5))
        .map((d) => d.id)
        .sort(),
    ).toEqual(['d3', 'd4']);
  });

  it('the body sent is exactly id, type, createdAt and data', () => {
    expect(Object.keys(eventBody(ev('e9', 'cashin.paid', 0)))).toEqual(['id', 'type', 'createdAt', 'data']);
  });
});
