// Wire shapes of the webhook control API, typed by their schemas (src/schemas/webhook-responses.ts):
// endpoints and deliveries (docs/webhooks.md#endpoints), delivery faults and the send log
// (docs/webhooks.md#delivery-faults, docs/webhooks.md#sending-any-body).
import { eventBody } from '../domain/deliveries.js';
import type { Wire } from '../schemas/from-schema.js';
import type {
  deliveryDetailSchema,
  deliverySchema,
  webhookEndpointSchema,
  webhookFaultSchema,
  webhookSendSchema,
} from '../schemas/webhook-responses.js';
import type { Delivery, WebhookEndpoint, WebhookEvent, WebhookFault, WebhookSend } from '../store/model.js';

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

export function formatWebhookFault(f: Readonly<WebhookFault>): Wire<typeof webhookFaultSchema> {
  const { id, accountId, endpointId, eventType, transactionId, action, times, remaining, seconds, createdAt } = f;
  return { id, accountId, endpointId, eventType, transactionId, action, times, remaining, seconds, createdAt };
}

export function formatWebhookSend(s: Readonly<Omit<WebhookSend, 'seq'>>): Wire<typeof webhookSendSchema> {
  const { id, accountId, endpointId, url, signature, eventId, body, attempt, audit, createdAt } = s;
  return { id, accountId, endpointId, url, signature, eventId, body, attempt, ...(audit ? { audit } : {}), createdAt };
}
