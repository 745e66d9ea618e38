// The stored records whose wire shapes are projections of them, as JSON Schema: src/store/model.ts
// types each record from its schema here (adding the store's `seq`), and the answers that show a
// record pick their fields from the same schema (./control-responses.ts, ./webhook-responses.ts).
// So a field is added to a record once, and every view of it and every formatter is checked against it.
// Records no answer shows as they are (accounts, merchants, wallets, HTTP faults, idempotency
// records, meta) are plain interfaces in src/store/.
import {
  CHARGE_STATUSES,
  DELIVERY_STATUSES,
  ENDPOINT_SOURCES,
  EVENT_TYPES,
  LEDGER_KINDS,
  OUTCOME_ACTIONS,
  PIX_KEY_TYPES,
  SEND_SIGNATURES,
  SPLIT_MODES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  TRANSFER_STATUSES,
  WEBHOOK_FAULT_ACTIONS,
} from '../domain/vocabulary.js';
import { payerSchema, ruleMatchSchema, ruleOutcomeSchema } from './control.js';
import {
  arrayOf,
  bool,
  cents,
  documentDigits,
  endToEndId,
  extend,
  int,
  nullable,
  num,
  obj,
  oneOfWords,
  str,
  time,
  uuid,
} from './helpers.js';

// ---- transactions ----
const keyType = oneOfWords(PIX_KEY_TYPES);
/** A party of a settled PIX payment: the payer of a charge, or the receiver of a transfer. */
export const partySchema = obj({
  name: str,
  document: documentDigits,
  ispb: { type: 'string', pattern: '^[0-9]{8}$' },
  account_number: str,
  account_type: str,
});
export const receiverSchema = extend(partySchema, { key: str, keyType });
export const transactionErrorSchema = obj({ code: str, message: str });
export const customerSchema = obj({ name: str, document: documentDigits, email: str, phone: str }, ['email', 'phone']);
/** A fate decided at creation by an outcome rule (docs/decisions.md#d29-outcome-rules), carried out by the due-work runner. */
export const scheduledOutcomeSchema = obj(
  {
    ruleId: str,
    action: oneOfWords(OUTCOME_ACTIONS),
    /** when the action falls due; absent for `wait` */
    at: time,
    code: str,
    message: str,
    payer: payerSchema,
  },
  ['at', 'code', 'message', 'payer'],
);
/** `value` as requested (cents for FIXED, percent for PERCENTAGE); `share` the computed cents. */
export const splitShareSchema = obj({ walletId: uuid, mode: oneOfWords(SPLIT_MODES), value: int, share: cents });
export const transferDetailsSchema = obj({ name: str, document: documentDigits, key: str, keyType }, ['document']);

const transactionFields = {
  id: uuid,
  accountId: uuid,
  /** set when a merchant token created it; money then moves in the merchant's main wallet */
  merchantId: nullable(uuid),
  amount: int,
  description: str,
  createdAt: time,
  updatedAt: time,
  outcome: scheduledOutcomeSchema,
} as const;
const transactionOptional = ['outcome'] as const;

/** A charge (cash-in); `expiration` in seconds. */
export const chargeRecordSchema = obj(
  {
    ...transactionFields,
    type: { const: 'CASH_IN' },
    status: oneOfWords(CHARGE_STATUSES),
    customer: customerSchema,
    externalId: str,
    expiration: int,
    expiresAt: time,
    pixCode: str,
    split: arrayOf(splitShareSchema),
    paidAt: time,
    endToEndId,
    payer: partySchema,
    error: transactionErrorSchema,
  },
  [...transactionOptional, 'externalId', 'paidAt', 'endToEndId', 'payer', 'error'],
);
/** A transfer (cash-out); the clock settles it at `settleAt`. */
export const transferRecordSchema = obj(
  {
    ...transactionFields,
    type: { const: 'CASH_OUT' },
    status: oneOfWords(TRANSFER_STATUSES),
    details: transferDetailsSchema,
    idempotencyKey: str,
    settleAt: time,
    settledAt: time,
    endToEndId,
    receiver: receiverSchema,
    error: transactionErrorSchema,
  },
  [...transactionOptional, 'settledAt', 'endToEndId', 'receiver', 'error'],
);

/**
 * One double-entry movement: `amount` leaves `from` and arrives at `to`. `transactionId` is null for
 * a control-API adjustment or an opening balance.
 */
export const ledgerEntrySchema = obj(
  {
    id: uuid,
    from: str,
    to: str,
    amount: { type: 'integer', minimum: 1 },
    transactionId: nullable(uuid),
    kind: oneOfWords(LEDGER_KINDS),
    memo: str,
    at: time,
  },
  ['memo'],
);

// ---- webhooks ----
const eventType = oneOfWords(EVENT_TYPES);
export const webhookEventDataSchema = obj(
  {
    transactionId: uuid,
    type: oneOfWords(TRANSACTION_TYPES),
    status: oneOfWords(TRANSACTION_STATUSES),
    amount: int,
    externalId: str,
    end_to_end_id: endToEndId,
    payer: partySchema,
    receiver: receiverSchema,
    error: transactionErrorSchema,
  },
  ['externalId', 'end_to_end_id', 'payer', 'receiver', 'error'],
);
export const webhookEventRecordSchema = obj({
  id: uuid,
  type: eventType,
  accountId: uuid,
  transactionId: uuid,
  createdAt: time,
  data: webhookEventDataSchema,
});

/** `events` null: every event. `source` config: from --webhook-url. */
export const webhookEndpointRecordSchema = obj({
  id: uuid,
  url: str,
  events: { type: ['array', 'null'], items: eventType },
  accountId: uuid,
  secret: str,
  source: oneOfWords(ENDPOINT_SOURCES),
  createdAt: time,
});

/** Which webhook fault touched a delivery or an attempt (its signature, its delay, its order). */
export const faultMarkSchema = obj({ id: uuid, action: oneOfWords(WEBHOOK_FAULT_ACTIONS) });
const attemptFields = { at: time, statusCode: nullable(int), error: nullable(str), durationMs: num } as const;
/** One attempt of a delivery, with the mark of the fault that shaped it (absent for a plain one). */
export const deliveryAttemptSchema = obj({ ...attemptFields, fault: faultMarkSchema }, ['fault']);

/** `accountId`: the endpoint's account, whose clock times attempts and retries; `fault` only where a webhook fault applied. */
export const deliveryRecordSchema = obj(
  {
    id: uuid,
    accountId: uuid,
    endpointId: uuid,
    eventId: uuid,
    eventType,
    transactionId: uuid,
    status: oneOfWords(DELIVERY_STATUSES),
    attempts: arrayOf(deliveryAttemptSchema),
    nextAttemptAt: nullable(time),
    createdAt: time,
    fault: faultMarkSchema,
  },
  ['fault'],
);

/**
 * A fault injected into webhook deliveries (docs/webhooks.md#delivery-faults), not the HTTP fault:
 * `accountId` the tenant whose deliveries it may touch; `times` as given, `remaining` the deliveries
 * it still applies to (removed at 0); `seconds` for `delay` only, on the tenant's clock.
 */
export const webhookFaultRecordSchema = obj({
  id: uuid,
  accountId: uuid,
  endpointId: nullable(uuid),
  eventType: nullable(eventType),
  transactionId: nullable(uuid),
  action: oneOfWords(WEBHOOK_FAULT_ACTIONS),
  times: { type: 'integer', minimum: 1 },
  remaining: { type: 'integer', minimum: 1 },
  seconds: nullable(int),
  createdAt: time,
});

/**
 * One `POST /_sandbox/webhooks/send` (docs/webhooks.md#sending-any-body), or one send of the webhook
 * probe (`audit`): a body, signed as asked, sent once; `eventId` the x-sandbox-event-id it carried,
 * `body` the exact bytes sent.
 */
export const webhookSendRecordSchema = obj(
  {
    id: uuid,
    accountId: uuid,
    endpointId: uuid,
    url: str,
    signature: oneOfWords(SEND_SIGNATURES),
    eventId: str,
    body: str,
    attempt: obj(attemptFields),
    /** sent by the webhook probe (docs/report.md#webhook-signature); absent for a send of POST /_sandbox/webhooks/send */
    audit: { const: true },
    createdAt: time,
  },
  ['audit'],
);

// ---- the key directory and outcome rules ----
/** The owner of a key: a party whose bank details may be left to the sandbox. */
const pixKeyOwnerSchema = obj(partySchema.properties, ['ispb', 'account_number', 'account_type']);
// Each is sandbox-wide, or (`accountId`) one tenant's own, seen by that tenant only and tried before the
// sandbox-wide ones; its store id is scoped (src/domain/scope.ts), so each scope has its own names.
/**
 * A DICT entry: `key` the normalized key, `id` it in its scope; `unknown`: known to be absent from DICT
 * (transfers to it fail with KEY_NOT_FOUND).
 */
export const pixKeyRecordSchema = obj(
  { id: str, accountId: uuid, key: str, keyType, owner: pixKeyOwnerSchema, unknown: bool, createdAt: time },
  ['accountId'],
);

/** Rules are evaluated in creation order within their scope (first match wins): a replacement keeps its place. `id`: the rule id in its scope. */
export const ruleRecordSchema = obj(
  { id: str, accountId: uuid, description: str, match: ruleMatchSchema, outcome: ruleOutcomeSchema, createdAt: time },
  ['accountId', 'description'],
);

// ---- named snapshots ----
/** How many records of each collection a snapshot holds (accounts, merchants, transactions, deliveries, ...). */
const snapshotCountsSchema = {
  type: 'object',
  additionalProperties: { type: 'integer', minimum: 0 },
  description: 'records held, by collection (accounts, merchants, wallets, transactions, ledger, deliveries, ...)',
} as const;
/**
 * A named snapshot (docs/control-api.md#snapshots): `id` its name, `accountId` the tenant it holds (null:
 * the whole sandbox), `file` its file in the data folder's snapshots/ (an in-memory sandbox's: the key of its image),
 * `sandboxMs` the sandbox-wide clock when it was taken (a restore puts the clocks back to it), `bytes` its size.
 */
export const savedSnapshotRecordSchema = obj({
  id: str,
  accountId: nullable(uuid),
  file: str,
  createdAt: time,
  sandboxMs: int,
  counts: snapshotCountsSchema,
  bytes: int,
});

// ---- idempotency ----
/**
 * The answer of an idempotent cash-out, kept 24 hours (by its tenant's clock) to answer a replay:
 * `id` is `<principal id>:<key>`, `bodyHash` the sha256 of the canonical request body.
 */
export const idempotencyRecordSchema = obj({
  id: str,
  principalId: uuid,
  accountId: uuid,
  key: str,
  bodyHash: str,
  statusCode: int,
  body: { description: 'the answer as it was given' },
  createdAt: time,
  expiresAt: time,
});
