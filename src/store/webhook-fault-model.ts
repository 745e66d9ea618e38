// The records of webhook delivery faults and arbitrary sends (docs/webhooks.md#delivery-faults),
// part of the one data model (model.ts re-exports them).
import type { EventType, WebhookFaultAction } from '../domain/vocabulary.js';
import type { DeliveryAttempt, Stored } from './model.js';

/** Which webhook fault touched a delivery or an attempt. */
export interface FaultMark {
  id: string;
  action: WebhookFaultAction;
}

/** A fault injected into webhook deliveries (docs/webhooks.md#delivery-faults); not the HTTP `Fault` of model.ts. */
export interface WebhookFault extends Stored {
  id: string;
  /** the tenant whose deliveries it may touch (its endpoint's account) */
  accountId: string;
  endpointId: string | null;
  eventType: EventType | null;
  transactionId: string | null;
  action: WebhookFaultAction;
  /** as given (default 1) */
  times: number;
  /** deliveries it still applies to; the fault is removed when this reaches 0 */
  remaining: number;
  /** `delay` only: how long the first attempt waits, on the tenant's clock */
  seconds: number | null;
  createdAt: string;
}

/** One `POST /_sandbox/webhooks/send`: an arbitrary body, signed as asked, sent once (docs/webhooks.md#sending-any-body). */
export interface WebhookSend extends Stored {
  id: string;
  accountId: string;
  endpointId: string;
  url: string;
  signature: 'valid' | 'bad' | 'stale';
  /** the x-sandbox-event-id it carried */
  eventId: string;
  /** the exact bytes sent (UTF-8) */
  body: string;
  attempt: DeliveryAttempt;
  createdAt: string;
}
