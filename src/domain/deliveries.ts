// The delivery rules, as plain functions over records: which deliveries may go now, and what
// an attempt's outcome does to a delivery (docs/decisions.md#d36-webhook-delivery: 2xx is success; anything else is
// retried on the schedule, then dead).
import type { Delivery, DeliveryAttempt, WebhookEvent } from '../store/model.js';
import { isHeld } from './webhook-faults.js';

/** The body sent to receivers: exactly the event's public fields. */
export function eventBody(e: Readonly<Pick<WebhookEvent, 'id' | 'type' | 'createdAt' | 'data'>>): {
  id: string;
  type: WebhookEvent['type'];
  createdAt: string;
  data: WebhookEvent['data'];
} {
  return { id: e.id, type: e.type, createdAt: e.createdAt, data: e.data };
}

const isSuccess = (statusCode: number | null): boolean => statusCode !== null && statusCode >= 200 && statusCode < 300;

/** The delivery after one more attempt: DELIVERED, PENDING until the next retry, or DEAD when the schedule is spent. */
export function afterAttempt(d: Readonly<Delivery>, attempt: DeliveryAttempt, schedule: readonly number[], nowMs: number): Delivery {
  const attempts = [...d.attempts, attempt];
  if (isSuccess(attempt.statusCode)) return { ...d, attempts, status: 'DELIVERED', nextAttemptAt: null };
  const wait = schedule[attempts.length - 1];
  if (wait === undefined) return { ...d, attempts, status: 'DEAD', nextAttemptAt: null };
  return { ...d, attempts, status: 'PENDING', nextAttemptAt: new Date(nowMs + wait * 1000).toISOString() };
}

// a creation event precedes the status change that follows it, even within one millisecond
const rank = (d: Readonly<Delivery>): number => (d.eventType.endsWith('.created') ? 0 : 1);

export type EventOf = (id: string) => Readonly<WebhookEvent> | undefined;

/** Orders two deliveries of one transaction by their event's time of occurrence. */
export function occursBefore(a: Readonly<Delivery>, b: Readonly<Delivery>, eventOf: EventOf): boolean {
  const ta = eventOf(a.eventId)?.createdAt ?? a.createdAt;
  const tb = eventOf(b.eventId)?.createdAt ?? b.createdAt;
  if (ta !== tb) return ta < tb;
  if (rank(a) !== rank(b)) return rank(a) < rank(b);
  return a.createdAt < b.createdAt;
}

/**
 * The deliveries that may be attempted at `nowIso`. Per (endpoint, transaction) only the oldest
 * PENDING delivery may go: event N+1 of a transaction waits until event N is delivered or dead,
 * so a receiver never sees `cashin.paid` before `cashin.created`. Different transactions and
 * different endpoints never wait for each other. A delivery held by a `reorder` webhook fault
 * (domain/webhook-faults.ts) is the one exception: the events after it go first. `due` are the deliveries whose attempt falls due
 * by now (the rest cannot make a group due); `ofTransaction` gives a transaction's deliveries.
 */
export function dueHeads(
  due: Iterable<Readonly<Delivery>>,
  ofTransaction: (transactionId: string) => Iterable<Readonly<Delivery>>,
  eventOf: EventOf,
  nowIso: string,
): Readonly<Delivery>[] {
  const out: Readonly<Delivery>[] = [];
  const groups = new Set<string>();
  for (const d of due) {
    if (d.status !== 'PENDING' || d.nextAttemptAt === null || d.nextAttemptAt > nowIso) continue;
    const group = `${d.endpointId}|${d.transactionId}`;
    if (groups.has(group)) continue;
    groups.add(group);
    let head = d;
    for (const s of ofTransaction(d.transactionId))
      if (s.endpointId === d.endpointId && s.status === 'PENDING' && !isHeld(s, nowIso) && occursBefore(s, head, eventOf)) head = s;
    if (head.nextAttemptAt !== null && head.nextAttemptAt <= nowIso) out.push(head);
  }
  return out;
}
