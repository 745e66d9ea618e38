// Webhooks: endpoints, the events of the outbox, their deliveries, delivery faults and arbitrary
// sends (docs/webhooks.md). Part of the one data model (./model.ts re-exports it). Each is declared
// once, by its JSON Schema in src/schemas/records.ts, which the control API's views project.
import type { Wire } from '../schemas/from-schema.js';
import type {
  deliveryAttemptSchema,
  deliveryRecordSchema,
  faultMarkSchema,
  webhookEndpointRecordSchema,
  webhookEventDataSchema,
  webhookEventRecordSchema,
  webhookFaultRecordSchema,
  webhookSendRecordSchema,
} from '../schemas/records.js';
import type { StoredAs } from './model-meta.js';

export type WebhookEndpoint = StoredAs<typeof webhookEndpointRecordSchema>;
export type WebhookEventData = Wire<typeof webhookEventDataSchema>;
export type WebhookEvent = StoredAs<typeof webhookEventRecordSchema>;
/** Which webhook fault touched a delivery or an attempt. */
export type FaultMark = Wire<typeof faultMarkSchema>;
export type DeliveryAttempt = Wire<typeof deliveryAttemptSchema>;
export type Delivery = StoredAs<typeof deliveryRecordSchema>;
/** A fault injected into webhook deliveries (docs/webhooks.md#delivery-faults); not the HTTP `Fault` of ./model-controls.ts. */
export type WebhookFault = StoredAs<typeof webhookFaultRecordSchema>;
/** One `POST /_sandbox/webhooks/send`: an arbitrary body, signed as asked, sent once (docs/webhooks.md#sending-any-body). */
export type WebhookSend = StoredAs<typeof webhookSendRecordSchema>;
