// Wire shapes of the webhook control API (docs/webhooks.md#endpoints).
import type { Delivery, WebhookEndpoint, WebhookEvent } from '../store/model.js';
import { eventBody } from '../domain/deliveries.js';

export function formatEndpoint(e: Readonly<WebhookEndpoint>) {
  return { id: e.id, url: e.url, events: e.events, accountId: e.accountId, secret: e.secret, source: e.source, createdAt: e.createdAt };
}

export function formatDelivery(d: Readonly<Delivery>, endpoint?: Readonly<WebhookEndpoint>) {
  return {
    id: d.id,
    endpointId: d.endpointId,
    url: endpoint?.url ?? null,
    eventId: d.eventId,
    eventType: d.eventType,
    transactionId: d.transactionId,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.nextAttemptAt,
    createdAt: d.createdAt,
    ...(d.fault ? { fault: d.fault } : {}),
  };
}

/** One delivery with the exact body its attempts send. */
export function formatDeliveryDetail(
  d: Readonly<Delivery>,
  endpoint: Readonly<WebhookEndpoint> | undefined,
  event: Readonly<WebhookEvent> | undefined,
) {
  return { ...formatDelivery(d, endpoint), event: event ? eventBody(event) : null };
}
