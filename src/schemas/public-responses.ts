// JSON Schemas of the public API's answers, closed (additionalProperties: false): the spec's fields
// and nothing a real client could come to depend on. The formatters of src/format/ and the typed
// client take their types from them (Wire, ./from-schema.ts).
import { CHARGE_STATUSES, DOCUMENT_TYPES, MERCHANT_STATUSES, TRANSFER_STATUSES } from '../domain/vocabulary.js';
import { arrayOf, cents, dataUrlPng, documentDigits, endToEndId, int, obj, oneOfWords, str, time, uuid } from './helpers.js';
import { partySchema, receiverSchema, transactionErrorSchema } from './records.js';

/** The envelope some answers carry: their status code again, a message, and the data. */
const envelope = <const S extends number, const D extends Record<string, unknown>>(statusCode: S, data: D) =>
  obj({ statusCode: { const: statusCode }, message: str, data });

export const tokenResponseSchema = obj({ access_token: str, token_type: { const: 'bearer' }, expires_in: { const: 300 } });

export const cashInResponseSchema = obj({
  transactionId: uuid,
  amount: int,
  status: oneOfWords(CHARGE_STATUSES),
  pixCode: { type: 'string', pattern: '^000201' },
  qrCode: dataUrlPng,
  createdAt: time,
});

export const cashOutResponseSchema = obj({
  transactionId: uuid,
  amount: int,
  status: oneOfWords(TRANSFER_STATUSES),
  createdAt: time,
  'x-idempotency-key': str,
});

// The lookup's `data`, one variant per state (docs/api.md#transaction-lookup), each closed: a generated client narrows
// on `status` (and, for COMPLETED, on `payer` for a charge or `receiver` for a transfer).
const lookupId = { id: uuid } as const;
export const lookupWaitingSchema = obj({ ...lookupId, status: { const: 'WAITING_PAYMENT' } });
export const lookupProcessingSchema = obj({ ...lookupId, status: { const: 'PROCESSING' } });
export const lookupPaidChargeSchema = obj({ ...lookupId, status: { const: 'COMPLETED' }, end_to_end_id: endToEndId, payer: partySchema });
export const lookupCompletedTransferSchema = obj({
  ...lookupId,
  status: { const: 'COMPLETED' },
  end_to_end_id: endToEndId,
  receiver: receiverSchema,
});
export const lookupFailedSchema = obj({ ...lookupId, status: { const: 'FAILED' }, error: transactionErrorSchema });
export const lookupDataSchema = {
  oneOf: [lookupWaitingSchema, lookupProcessingSchema, lookupPaidChargeSchema, lookupCompletedTransferSchema, lookupFailedSchema],
} as const;
export const lookupResponseSchema = envelope(200, lookupDataSchema);
export const balanceResponseSchema = envelope(200, obj({ balance: cents }));

/** The fields every merchant shape shares, in the spec's order. */
export const merchantFields = {
  name: str,
  document: documentDigits,
  document_type: oneOfWords(DOCUMENT_TYPES),
  email: str,
  phone: str,
  status: oneOfWords(MERCHANT_STATUSES),
} as const;
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
  status: oneOfWords(CHARGE_STATUSES),
  description: str,
  createdAt: time,
  expiresAt: time,
});

// ---- the document itself (GET /openapi.json): its frame; OpenAPI 3.1 itself says the rest ----
const openApiMap = { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } } as const;
export const openApiDocumentSchema = obj(
  {
    openapi: { const: '3.1.0' },
    info: obj({ title: str, version: str, description: str, license: obj({ name: str, identifier: str }) }, ['description', 'license']),
    servers: arrayOf(obj({ url: str })),
    tags: arrayOf(obj({ name: str, description: str }, ['description'])),
    paths: openApiMap,
    webhooks: openApiMap,
    components: { type: 'object', additionalProperties: openApiMap },
  },
  ['servers', 'tags', 'webhooks'],
);
