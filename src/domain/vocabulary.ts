// The closed lists of words the sandbox speaks: every status, type and action, written out once. The
// store model's unions, the request and response schemas, fixtures, scenarios and the dashboard (through
// the module the server serves it) all read these arrays, so a new word is added here and nowhere else.

export const CHARGE_STATUSES = ['WAITING_PAYMENT', 'PAID', 'EXPIRED', 'CANCELLED'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

export const TRANSFER_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSACTION_STATUSES = [...CHARGE_STATUSES, ...TRANSFER_STATUSES] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_TYPES = ['CASH_IN', 'CASH_OUT'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const MERCHANT_STATUSES = ['ACTIVE', 'INACTIVE', 'SUSPENDED'] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];

export const DOCUMENT_TYPES = ['CPF', 'CNPJ'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export const SPLIT_MODES = ['FIXED', 'PERCENTAGE'] as const;
export type SplitMode = (typeof SPLIT_MODES)[number];

/** One per transaction status change, creation included (docs/decisions.md#d33-webhook-events). */
export const EVENT_TYPES = [
  'cashin.created',
  'cashin.paid',
  'cashin.expired',
  'cashin.cancelled',
  'cashout.created',
  'cashout.completed',
  'cashout.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** DROPPED: a `drop` webhook fault kept it from being sent at all. */
export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'DEAD', 'DROPPED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What a webhook fault does to a delivery (docs/webhooks.md#delivery-faults). */
export const WEBHOOK_FAULT_ACTIONS = ['duplicate', 'reorder', 'delay', 'drop', 'bad-signature', 'stale-signature'] as const;
export type WebhookFaultAction = (typeof WEBHOOK_FAULT_ACTIONS)[number];

/** The change stream's topics of one tenant's records: a stream that names an account hears that account's alone. */
export const TENANT_CHANGE_TOPICS = ['transactions', 'balances', 'merchants', 'webhooks', 'deliveries', 'webhook-faults'] as const;

/**
 * What the change stream names (GET /_sandbox/changes, docs/control-api.md#the-change-stream): each
 * topic is a list of the control API that a change may have made stale.
 */
export const CHANGE_TOPICS = ['accounts', 'clock', ...TENANT_CHANGE_TOPICS, 'pix-keys', 'rules', 'faults', 'requests'] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];
