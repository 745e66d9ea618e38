// Wire shapes of the webhook control API (docs/webhooks.md#endpoints), typed by their schemas
// (src/schemas/webhook-responses.ts).
import type { Wire } from '../schemas/from-schema.js';
import type { deliveryDetailSchema, deliverySchema, webhookEndpointSchema } from '../schemas/webhook-responses.js';
import type { Delivery, WebhookEndpoint, WebhookEvent } from '../store/model.js';
import { eventBody } from '../domain/deliveries.js';

export function formatEndpoint(e: Readonly<WebhookEndpoint>): Wire<typeof webhookEndpointSchema> {
  return { id: e.id, url: e.url, events: e.events, accountId: e.accountId, secret: e.secret, source: e.source, createdAt: e.createdAt };
}

export function formatDelivery(d: Readonly<Delivery>, endpoint?: Readonly<WebhookEndpoint>): Wire<typeof deliverySchema> {
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
): Wire<typeof deliveryDetailSchema> {
  return { ...formatDelivery(d, endpoint), event: event ? eventBody(event) : null };
}
