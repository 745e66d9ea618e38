// Plain store records for the unit tests of pure rules: times as seconds after T0.
import type { Delivery } from '../../src/store/model.js';

export const T0 = Date.parse('2026-01-01T00:00:00.000Z');
export const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();

/** A PENDING delivery of event e1 (cashin.created of t1) to ep1, due at T0, with `over` on top. */
export function deliveryRecord(over: Partial<Delivery> = {}): Delivery {
  return {
    seq: 1,
    id: 'd1',
    accountId: 'a1',
    endpointId: 'ep1',
    eventId: 'e1',
    eventType: 'cashin.created',
    transactionId: 't1',
    status: 'PENDING',
    attempts: [],
    nextAttemptAt: iso(0),
    createdAt: iso(0),
    ...over,
  };
}
