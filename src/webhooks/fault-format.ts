// Wire shapes of webhook delivery faults and of the send log (docs/webhooks.md#delivery-faults,
// docs/webhooks.md#sending-any-body). Free of express, so the typed client can name them.
import type { Wire } from '../schemas/from-schema.js';
import type { webhookFaultSchema, webhookSendSchema } from '../schemas/webhook-responses.js';
import type { WebhookFault, WebhookSend } from '../store/model.js';

export function formatWebhookFault(f: Readonly<WebhookFault>): Wire<typeof webhookFaultSchema> {
  const { id, accountId, endpointId, eventType, transactionId, action, times, remaining, seconds, createdAt } = f;
  return { id, accountId, endpointId, eventType, transactionId, action, times, remaining, seconds, createdAt };
}

export function formatWebhookSend(s: Readonly<WebhookSend>): Wire<typeof webhookSendSchema> {
  const { id, accountId, endpointId, url, signature, eventId, body, attempt, createdAt } = s;
  return { id, accountId, endpointId, url, signature, eventId, body, attempt, createdAt };
}
