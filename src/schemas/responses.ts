// JSON Schemas of every answer (for /openapi.json and the tests that check each response against
// it). Public shapes are closed (additionalProperties: false): the spec's fields and nothing a
// real client could come to depend on. Control shapes are closed too, so the document is exact.
import { EVENT_TYPES } from '../domain/events.js';
import { payerSchema, ruleInputSchema } from './control.js';
import { UUID_PATTERN } from './public.js';
import { deliveryAttemptSchema, faultMarkSchema } from './webhook-faults.js';

export type JsonSchema = Record<string, unknown>;

const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  required,
  additionalProperties: false,
  properties,
});
const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

const uuid = { type: 'string', pattern: UUID_PATTERN };
const str = { type: 'string' };
const int = { type: 'integer' };
const cents = { type: 'integer', minimum: 0 };
const time = { type: 'string', format: 'date-time' };
const bool = { type: 'boolean' };
const documentDigits = { type: 'string', pattern: '^[0-9]{11}$|^[0-9]{14}$' };
const endToEndId = { type: 'string', pattern: '^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$' };
const chargeStatus = { type: 'string', enum: ['WAITING_PAYMENT', 'PAID', 'EXPIRED', 'CANCELLED'] };
const transferStatus = { type: 'string', enum: ['PROCESSING', 'COMPLETED', 'FAILED'] };
const merchantStatus = { type: 'string', enum: ['ACTIVE', 'INACTIVE', 'SUSPENDED'] };
const keyType = { type: 'string', enum: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] };
const eventType = { type: 'string', enum: EVENT_TYPES };
const txError = obj({ code: str, message: str });
const party = obj({
  name: str,
  document: documentDigits,
  ispb: { type: 'string', pattern: '^[0-9]{8}$' },
  account_number: str,
  account_type: str,
});
const receiver = obj({ ...(party.properties as Record<string, JsonSchema>), key: str, keyType });
const envelope = (statusCode: number, data: JsonSchema) => obj({ statusCode: { const: statusCode }, message: str, data });

// ---- errors ----
export const errorDetailSchema = obj({ path: str, message: str });
const anyCode = { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' };
/** Any error answer of the sandbox (docs/api.md#errors): what an injected fault answers on any path. */
export const errorSchema = obj({
  statusCode: { type: 'integer', minimum: 400, maximum: 599 },
  message: str,
  error: obj({ code: anyCode, details: arrayOf(errorDetailSchema) }),
});
// Every 5xx by name, not as a range: a generated client then narrows an error on its statusCode
// (a 422's codes are not mixed with a 5xx's, whose code can be anything a fault names).
const anyServerStatus = { type: 'integer', enum: Array.from({ length: 100 }, (_, i) => 500 + i) };
/**
 * One operation's error answer at one status: `statusCode` that status (null: any 5xx) and
 * `error.code` one of `codes` (null: any code, as an injected fault may carry).
 */
export function errorAnswerSchema(status: number | null, codes: readonly string[] | null, codeNote?: string): JsonSchema {
  const code = codes ? { type: 'string', enum: [...codes] } : anyCode;
  return obj({
    statusCode: status === null ? anyServerStatus : { const: status },
    message: str,
    error: obj({ code: codeNote ? { ...code, description: codeNote } : code, details: arrayOf(errorDetailSchema) }),
  });
}
const fault = 'the code an injected fault names (with x-sandbox-fault)';
/** 429: only an injected fault answers it. */
export const tooManyRequestsSchema = errorAnswerSchema(429, null, `TOO_MANY_REQUESTS, or ${fault}`);
/** Any 5xx where a fault can answer: INTERNAL_ERROR on an unexpected failure, or the fault's code. */
export const serverErrorSchema = errorAnswerSchema(null, null, `INTERNAL_ERROR on an unexpected failure, or ${fault}`);
/** Any 5xx where no fault reaches: INTERNAL_ERROR only. */
export const internalErrorSchema = errorAnswerSchema(null, ['INTERNAL_ERROR']);
/** RFC 6749 §5.2, the token endpoint's own error shape. */
export const oauthErrorSchema = obj(
  {
    error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'unauthorized_client'] },
    error_description: str,
  },
  ['error'],
);

// ---- public API ----
export const tokenResponseSchema = obj({ access_token: str, token_type: { const: 'bearer' }, expires_in: { const: 300 } });

export const cashInResponseSchema = obj({
  transactionId: uuid,
  amount: int,
  status: chargeStatus,
  pixCode: { type: 'string', pattern: '^000201' },
  qrCode: { type: 'string', pattern: '^data:image/png;base64,' },
  createdAt: time,
});

export const cashOutResponseSchema = obj({
  transactionId: uuid,
  amount: int,
  status: transferStatus,
  createdAt: time,
  'x-idempotency-key': str,
});

// The lookup's `data`, one variant per state (docs/api.md#transaction-lookup), each closed: a generated client narrows
// on `status` (and, for COMPLETED, on `payer` for a charge or `receiver` for a transfer).
const lookupId = { id: uuid };
export const lookupWaitingSchema = obj({ ...lookupId, status: { const: 'WAITING_PAYMENT' } });
export const lookupProcessingSchema = obj({ ...lookupId, status: { const: 'PROCESSING' } });
export const lookupPaidChargeSchema = obj({ ...lookupId, status: { const: 'COMPLETED' }, end_to_end_id: endToEndId, payer: party });
export const lookupCompletedTransferSchema = obj({ ...lookupId, status: { const: 'COMPLETED' }, end_to_end_id: endToEndId, receiver });
export const lookupFailedSchema = obj({ ...lookupId, status: { const: 'FAILED' }, error: txError });
const lookupData: JsonSchema = {
  oneOf: [lookupWaitingSchema, lookupProcessingSchema, lookupPaidChargeSchema, lookupCompletedTransferSchema, lookupFailedSchema],
};
export const lookupResponseSchema = envelope(200, lookupData);
export const balanceResponseSchema = envelope(200, obj({ balance: cents }));

const merchantFields = {
  name: str,
  document: documentDigits,
  document_type: { type: 'string', enum: ['CPF', 'CNPJ'] },
  email: str,
  phone: str,
  status: merchantStatus,
};
export const merchantCreatedSchema = envelope(
  201,
  obj({
    merchant: obj({ id: uuid, ...merchantFields, created_at: time, updated_at: time }),
    wallet_id: uuid,
    credentials: obj({ client_id: str, client_secret: str }),
  }),
);
export const merchantListSchema = obj({
  data: arrayOf(obj({ merchantId: uuid, ...merchantFields, createdAt: time })),
  pagination: obj({
    page: { type: 'integer', minimum: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    total: cents,
    totalPages: cents,
  }),
});
export const merchantSchema = obj({
  merchantId: uuid,
  ...merchantFields,
  wallets: arrayOf(obj({ walletId: uuid, name: str, balance: cents, currency: { const: 'BRL' } })),
  createdAt: time,
  updatedAt: time,
});
export const merchantUpdatedSchema = obj({ merchantId: uuid, ...merchantFields, updatedAt: time });
export const merchantBalanceSchema = envelope(200, obj({ balance: cents }));
/** What a payer's bank reads at a charge's location (the URL inside its BR Code). */
export const chargeLocationSchema = obj({
  id: uuid,
  amount: int,
  status: chargeStatus,
  description: str,
  createdAt: time,
  expiresAt: time,
});

// ---- control API ----
export const healthSchema = obj({
  status: { type: 'string', enum: ['ok', 'starting', 'stopping'] },
  ready: bool,
  checks: obj({ listening: bool, storeOpen: bool, fixturesLoaded: bool }),
  version: str,
  uptimeSeconds: cents,
});
export const clockSchema = obj({ accountId: nullable(uuid), now: time, offsetSeconds: { type: 'number' }, frozen: bool });

const accountFields = {
  id: uuid,
  name: str,
  client_id: str,
  client_secret: str,
  splitEnabled: bool,
  autoPayAfterSeconds: nullable(cents),
  settleAfterSeconds: cents,
  balance: cents,
  createdAt: time,
  updatedAt: time,
};
export const accountSchema = obj(
  accountFields,
  Object.keys(accountFields).filter((k) => k !== 'client_secret'),
);
export const walletSchema = obj({
  walletId: uuid,
  accountId: uuid,
  merchantId: uuid,
  name: str,
  balance: cents,
  currency: { const: 'BRL' },
  createdAt: time,
});
export const controlMerchantSchema = obj({
  id: uuid,
  accountId: uuid,
  ...merchantFields,
  client_id: str,
  walletId: uuid,
  wallets: arrayOf(walletSchema),
  createdAt: time,
  updatedAt: time,
});

const outcome = obj(
  {
    ruleId: str,
    action: { type: 'string', enum: ['pay', 'expire', 'cancel', 'wait', 'complete', 'fail'] },
    at: time,
    code: str,
    message: str,
    payer: payerSchema,
  },
  ['ruleId', 'action'],
);
const common = {
  id: uuid,
  accountId: uuid,
  merchantId: nullable(uuid),
  amount: int,
  description: str,
  createdAt: time,
  updatedAt: time,
  outcome,
};
const commonRequired = ['id', 'accountId', 'merchantId', 'amount', 'description', 'createdAt', 'updatedAt', 'type', 'status'];
const chargeFields = {
  ...common,
  type: { const: 'CASH_IN' },
  status: chargeStatus,
  customer: obj({ name: str, document: documentDigits, email: str, phone: str }, ['name', 'document']),
  externalId: str,
  expiration: int,
  expiresAt: time,
  pixCode: str,
  split: arrayOf(obj({ walletId: uuid, mode: { type: 'string', enum: ['FIXED', 'PERCENTAGE'] }, value: int, share: cents })),
  paidAt: time,
  endToEndId: endToEndId,
  payer: party,
  error: txError,
};
const transferFields = {
  ...common,
  type: { const: 'CASH_OUT' },
  status: transferStatus,
  details: obj({ name: str, document: documentDigits, key: str, keyType }, ['name', 'key', 'keyType']),
  idempotencyKey: str,
  settleAt: time,
  settledAt: time,
  endToEndId: endToEndId,
  receiver,
  error: txError,
};
const chargeRecord = (extra: Record<string, JsonSchema> = {}) =>
  obj({ ...chargeFields, ...extra }, [...commonRequired, 'customer', 'expiration', 'expiresAt', 'pixCode', 'split', ...Object.keys(extra)]);
const transferRecord = (extra: Record<string, JsonSchema> = {}) =>
  obj({ ...transferFields, ...extra }, [...commonRequired, 'details', 'idempotencyKey', 'settleAt', ...Object.keys(extra)]);
/** A transaction as stored: a charge (CASH_IN) or a transfer (CASH_OUT). */
export const transactionSchema: JsonSchema = { oneOf: [chargeRecord(), transferRecord()] };

const ledgerEntry = obj(
  {
    id: uuid,
    from: str,
    to: str,
    amount: { type: 'integer', minimum: 1 },
    transactionId: nullable(uuid),
    kind: { type: 'string', enum: ['OPENING', 'ADJUSTMENT', 'CASH_IN', 'SPLIT', 'CASH_OUT', 'CASH_OUT_REVERSAL'] },
    memo: str,
    at: time,
  },
  ['id', 'from', 'to', 'amount', 'transactionId', 'kind', 'at'],
);
const eventData = obj(
  {
    transactionId: uuid,
    type: { type: 'string', enum: ['CASH_IN', 'CASH_OUT'] },
    status: { type: 'string' },
    amount: int,
    externalId: str,
    end_to_end_id: endToEndId,
    payer: party,
    receiver,
    error: txError,
  },
  ['transactionId', 'type', 'status', 'amount'],
);
const storedEvent = obj({ id: uuid, type: eventType, accountId: uuid, transactionId: uuid, createdAt: time, data: eventData });
/** The body a webhook delivery sends (docs/webhooks.md#body-and-headers). */
export const webhookEventSchema = obj({ id: uuid, type: eventType, createdAt: time, data: eventData });

export const transactionDetailSchema: JsonSchema = {
  oneOf: [
    chargeRecord({
      qrCode: { type: 'string', pattern: '^data:image/png;base64,' },
      ledger: arrayOf(ledgerEntry),
      events: arrayOf(storedEvent),
    }),
    transferRecord({ ledger: arrayOf(ledgerEntry), events: arrayOf(storedEvent) }),
  ],
};

export const pixKeyViewSchema = obj({
  key: str,
  keyType,
  owner: obj({ name: str, document: documentDigits, ispb: str, account_number: str, account_type: str }, ['name', 'document']),
  unknown: bool,
  createdAt: time,
});
const ruleProps = ruleInputSchema.properties;
export const ruleViewSchema = obj({ id: str, description: str, match: ruleProps.match, outcome: ruleProps.outcome, createdAt: time }, [
  'id',
  'match',
  'outcome',
  'createdAt',
]);
export const faultViewSchema = obj({
  id: uuid,
  method: nullable(str),
  path: str,
  status: nullable(int),
  code: nullable(str),
  message: nullable(str),
  latencyMs: cents,
  remaining: nullable(cents),
  probability: { type: 'number' },
  hits: cents,
  createdAt: time,
});
export const journalEntrySchema = obj({
  seq: int,
  at: time,
  method: str,
  path: str,
  status: int,
  durationMs: { type: 'number' },
  requestId: str,
  requestHeaders: { type: 'object', additionalProperties: { anyOf: [str, arrayOf(str)] } },
  requestBody: {},
  responseBody: {},
});
export const resetResultSchema = obj({
  status: { const: 'reset' },
  fixtures: str,
  movedAsideTo: nullable(str),
  accounts: arrayOf(accountSchema),
  pixKeys: cents,
  rules: cents,
  webhookEndpoints: cents,
});

export const webhookEndpointSchema = obj({
  id: uuid,
  url: str,
  events: { type: ['array', 'null'], items: eventType },
  accountId: uuid,
  secret: str,
  source: { type: 'string', enum: ['api', 'config'] },
  createdAt: time,
});
const deliveryFields = {
  id: uuid,
  endpointId: uuid,
  url: nullable(str),
  eventId: uuid,
  eventType,
  transactionId: uuid,
  status: { type: 'string', enum: ['PENDING', 'DELIVERED', 'DEAD', 'DROPPED'] },
  attempts: arrayOf(deliveryAttemptSchema),
  nextAttemptAt: nullable(time),
  createdAt: time,
  /** only on a delivery a webhook fault touched */
  fault: faultMarkSchema,
};
const deliveryRequired = Object.keys(deliveryFields).filter((k) => k !== 'fault');
export const deliverySchema = obj(deliveryFields, deliveryRequired);
export const deliveryDetailSchema = obj({ ...deliveryFields, event: { oneOf: [webhookEventSchema, { type: 'null' }] } }, [
  ...deliveryRequired,
  'event',
]);
export const fireResultSchema = obj({ event: webhookEventSchema, deliveries: arrayOf(deliverySchema) });

// ---- the document itself (GET /openapi.json): its frame; OpenAPI 3.1 itself says the rest ----
const openApiMap = { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } };
export const openApiDocumentSchema = obj(
  {
    openapi: { const: '3.1.0' },
    info: obj({ title: str, version: str, description: str, license: obj({ name: str, identifier: str }) }, ['title', 'version']),
    servers: arrayOf(obj({ url: str })),
    tags: arrayOf(obj({ name: str, description: str }, ['name'])),
    paths: openApiMap,
    webhooks: openApiMap,
    components: { type: 'object', additionalProperties: openApiMap },
  },
  ['openapi', 'info', 'paths', 'components'],
);
