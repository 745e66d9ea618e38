// Records a transaction's status change as an event, in the same commit as the change, and
// queues one delivery per matching webhook endpoint (the outbox). The dispatcher delivers
// after the commit; the request never waits for it. An event no endpoint wants is not kept:
// the transaction itself holds the state, and fire rebuilds an event from it on demand.
import type { Tx } from '../store/store.js';
import type { Delivery, EventType, New, Transaction, WebhookEvent } from '../store/model.js';
import { eventData, eventTypeFor } from '../domain/events.js';
import { applyWebhookFaults } from './webhook-faults.js';

export function emitEvent(
  tx: Tx,
  t: Readonly<Transaction>,
  now: string,
  newId: () => string,
  type: EventType = eventTypeFor(t),
): New<WebhookEvent> {
  const event: New<WebhookEvent> = { id: newId(), type, accountId: t.accountId, transactionId: t.id, createdAt: now, data: eventData(t) };
  const endpoints: string[] = [];
  for (const ep of tx.webhookEndpoints.find('byAccount', t.accountId, { order: 'oldest' }))
    if (!ep.events || ep.events.includes(type)) endpoints.push(ep.id);
  if (endpoints.length === 0) return event;
  tx.put('events', event);
  // a webhook fault of the tenant may shape each new delivery (`now` is the tenant's clock at the change)
  for (const ep of endpoints) applyWebhookFaults(tx, queueDelivery(tx, ep, event, now, newId), now, newId);
  return event;
}

export function queueDelivery(
  tx: Tx,
  endpointId: string,
  event: Pick<WebhookEvent, 'id' | 'type' | 'transactionId' | 'accountId'>,
  now: string,
  newId: () => string,
): Readonly<Delivery> {
  const d: New<Delivery> = {
    id: newId(),
    accountId: event.accountId,
    endpointId,
    eventId: event.id,
    eventType: event.type,
    transactionId: event.transactionId,
    status: 'PENDING',
    attempts: [],
    nextAttemptAt: now,
    createdAt: now,
  };
  return tx.put('deliveries', d);
}
