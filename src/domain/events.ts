// Webhook events (docs/decisions.md#d33-webhook-events): one per transaction status change, creation included.
import type { EventType, New, Transaction, WebhookEventData } from '../store/model.js';

const NAMES: Record<Transaction['status'], EventType | null> = {
  WAITING_PAYMENT: 'cashin.created',
  PAID: 'cashin.paid',
  EXPIRED: 'cashin.expired',
  CANCELLED: 'cashin.cancelled',
  PROCESSING: 'cashout.created',
  COMPLETED: 'cashout.completed',
  FAILED: 'cashout.failed',
};

export { EVENT_TYPES } from './vocabulary.js';

/** The event named by a transaction's current status. */
export const eventTypeFor = (t: Readonly<New<Transaction>>): EventType => NAMES[t.status]!;

/** The event's data: the transaction's own state, with the settlement fields that apply. */
export function eventData(t: Readonly<New<Transaction>>): WebhookEventData {
  const data: WebhookEventData = { transactionId: t.id, type: t.type, status: t.status, amount: t.amount };
  if (t.type === 'CASH_IN') {
    if (t.externalId !== undefined) data.externalId = t.externalId;
    if (t.endToEndId) data.end_to_end_id = t.endToEndId;
    if (t.payer) data.payer = t.payer;
  } else {
    if (t.endToEndId) data.end_to_end_id = t.endToEndId;
    if (t.receiver) data.receiver = t.receiver;
  }
  if (t.error) data.error = t.error;
  return data;
}
