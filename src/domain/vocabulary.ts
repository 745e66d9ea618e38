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

/** A document is also a key: a CPF or CNPJ key holds the owner's document. */
export const PIX_KEY_TYPES = [...DOCUMENT_TYPES, 'EMAIL', 'PHONE', 'RANDOM'] as const;
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

/** What moved money on a ledger entry (docs/api.md#money-and-the-ledger). */
export const LEDGER_KINDS = ['OPENING', 'ADJUSTMENT', 'CASH_IN', 'SPLIT', 'CASH_OUT', 'CASH_OUT_REVERSAL'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** What moves a charge out of WAITING_PAYMENT (the transitions of src/domain/transitions.ts). */
export const CHARGE_ACTIONS = ['pay', 'expire', 'cancel'] as const;
export type ChargeAction = (typeof CHARGE_ACTIONS)[number];
/** What moves a transfer out of PROCESSING. */
export const TRANSFER_ACTIONS = ['complete', 'fail'] as const;
export type TransferAction = (typeof TRANSFER_ACTIONS)[number];

/** What an outcome rule may do to each type of transaction it matches: an action of its type, or wait (docs/control-api.md#outcome-rules). */
export const OUTCOME_ACTIONS_BY_TYPE = {
  CASH_IN: [...CHARGE_ACTIONS, 'wait'],
  CASH_OUT: [...TRANSFER_ACTIONS, 'wait'],
} as const satisfies Record<TransactionType, readonly string[]>;
export type OutcomeAction = (typeof OUTCOME_ACTIONS_BY_TYPE)[TransactionType][number];
/** Every action of a rule, a charge's first. */
export const OUTCOME_ACTIONS: readonly OutcomeAction[] = [...new Set(Object.values(OUTCOME_ACTIONS_BY_TYPE).flat())];

/** DROPPED: a `drop` webhook fault kept it from being sent at all. */
export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'DEAD', 'DROPPED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What a webhook fault does to a delivery (docs/webhooks.md#delivery-faults). */
export const WEBHOOK_FAULT_ACTIONS = ['duplicate', 'reorder', 'delay', 'drop', 'bad-signature', 'stale-signature'] as const;
export type WebhookFaultAction = (typeof WEBHOOK_FAULT_ACTIONS)[number];

/** How an arbitrary webhook send is signed (docs/webhooks.md#sending-any-body). */
export const SEND_SIGNATURES = ['valid', 'bad', 'stale'] as const;
export type SendSignature = (typeof SEND_SIGNATURES)[number];

/** Where a webhook endpoint came from: the control API, or --webhook-url. */
export const ENDPOINT_SOURCES = ['api', 'config'] as const;
export type EndpointSource = (typeof ENDPOINT_SOURCES)[number];

/** The token endpoint's error codes (RFC 6749 §5.2) the sandbox answers (docs/api.md#tokens). */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'unsupported_grant_type',
  'unauthorized_client',
  // RFC 6749 §4.1.2.1's word for "temporarily overloaded": the rate limiter's 429 (docs/decisions.md#d81-the-token-endpoints-429)
  'temporarily_unavailable',
] as const;
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** "A, B or C": a list of words as a sentence names them. */
export const alternatives = (words: readonly string[]): string =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/**
 * The control lists of what a test arranges (/_sandbox/pix-keys, /rules, /faults): each entry a tenant's
 * own or sandbox-wide (docs/control-api.md#scoped-arrangements).
 */
export const SCOPED_ARRANGEMENTS = ['pix-keys', 'rules', 'faults'] as const;

/** The change stream's topics of one tenant's records: a stream that names an account hears that account's alone. */
export const TENANT_CHANGE_TOPICS = [
  'transactions',
  'balances',
  'merchants',
  'webhooks',
  'deliveries',
  'webhook-faults',
  'snapshots',
  ...SCOPED_ARRANGEMENTS,
  'requests',
] as const;

/**
 * What the change stream names (GET /_sandbox/changes, docs/control-api.md#the-change-stream): each
 * topic is a list of the control API that a change may have made stale.
 */
export const CHANGE_TOPICS = ['accounts', 'clock', ...TENANT_CHANGE_TOPICS] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

/** A class of answer statuses a verification may name instead of one status (docs/control-api.md#verifying-requests). */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** The integration report's checks, in the order it lists them (docs/report.md). */
export const REPORT_CHECKS = [
  'token-reuse',
  'expired-token-recovery',
  'idempotent-retry',
  'idempotency-key-reuse',
  'retry-after',
  'polling',
  'webhook-ack',
  'webhook-signature',
  'validation-errors',
  'plain-http',
  'failure-coverage',
] as const;
export type ReportCheckId = (typeof REPORT_CHECKS)[number];

/** A check's verdict (docs/report.md). */
export const REPORT_OUTCOMES = ['pass', 'fail', 'warn', 'not-exercised'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** The failure modes failure-coverage counts as met (docs/report.md#failure-coverage). */
export const FAILURE_MODES = [
  'transfer-failed',
  'charge-expired',
  'token-expired',
  'rate-limited',
  'server-error',
  'insufficient-funds',
  'webhook-retried',
  'webhook-duplicated',
  'webhook-reordered',
  'webhook-delayed',
  'webhook-probed',
] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];
