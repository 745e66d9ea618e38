// JSON Schemas of the control API's requests about the sandbox's world (docs/control-api.md#conventions):
// accounts, merchants, money, transactions and their forced transitions, the key directory and outcome
// rules. Same validator, same error shape and same OpenAPI document as the public API. Those about the
// sandbox itself (clock, reset, faults, journal) are in ./control-sandbox.ts.
import {
  MERCHANT_STATUSES,
  OUTCOME_ACTIONS,
  OUTCOME_ACTIONS_BY_TYPE,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  alternatives,
} from '../domain/vocabulary.js';
import { cursorParam, pageLimit, pageQuerySchema } from './paging.js';
import { digitsDocument, pixKeyTypeSchema } from './public.js';
import type { Validated } from './from-schema.js';
import type { partySchema } from './records.js';
import { errorCode, oneOfWords, uuidParam } from './helpers.js';

/** A party of a PIX payment as given (a payer, a key's owner): the fields of the party a record keeps, with their limits. */
const partyProperties = {
  name: { type: 'string', minLength: 1, maxLength: 140 },
  document: digitsDocument,
  ispb: { type: 'string', pattern: '^[0-9]{8}$', 'x-message': 'must be 8 digits' },
  account_number: { type: 'string', minLength: 1, maxLength: 40 },
  account_type: { type: 'string', minLength: 1, maxLength: 40 },
} as const satisfies Record<keyof typeof partySchema.properties, object>;

/** Payer data given to a forced payment: every field optional (the rest is generated). */
export const payerSchema = { type: 'object', properties: partyProperties } as const;

/** The owner of a key in the directory: name and document required. */
const keyOwnerSchema = { type: 'object', required: ['name', 'document'], properties: partyProperties } as const;

/** What an outcome rule matches (docs/control-api.md#outcome-rules); a stored rule keeps it as given. */
export const ruleMatchSchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: oneOfWords(TRANSACTION_TYPES),
    amount: { type: 'integer', minimum: 1 },
    amountMin: { type: 'integer', minimum: 0 },
    amountMax: { type: 'integer', minimum: 0 },
    key: { type: 'string', minLength: 1, maxLength: 77 },
    document: digitsDocument,
    descriptionContains: { type: 'string', minLength: 1, maxLength: 140 },
  },
} as const;

/** What a matching rule does, and when. */
export const ruleOutcomeSchema = {
  type: 'object',
  required: ['action'],
  properties: {
    action: oneOfWords(OUTCOME_ACTIONS),
    afterSeconds: { type: 'integer', minimum: 0, maximum: 2_592_000 },
    code: errorCode,
    message: { type: 'string', minLength: 1, maxLength: 500 },
    payer: payerSchema,
  },
} as const;

const actionsOf = (type: keyof typeof OUTCOME_ACTIONS_BY_TYPE) => ({
  enum: OUTCOME_ACTIONS_BY_TYPE[type],
  'x-message': `a ${type} rule takes ${alternatives(OUTCOME_ACTIONS_BY_TYPE[type])}`,
});

export const ruleInputSchema = {
  type: 'object',
  required: ['match', 'outcome'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$', 'x-message': 'must be 1-64 letters, digits, or _ . : -' },
    description: { type: 'string', maxLength: 500 },
    match: ruleMatchSchema,
    outcome: ruleOutcomeSchema,
  },
  allOf: [
    {
      if: { type: 'object', properties: { match: { type: 'object', properties: { type: { const: 'CASH_IN' } } } } },
      then: {
        type: 'object',
        properties: {
          outcome: { type: 'object', properties: { action: actionsOf('CASH_IN') } },
        },
      },
      else: {
        type: 'object',
        properties: {
          outcome: { type: 'object', properties: { action: actionsOf('CASH_OUT') } },
        },
      },
    },
  ],
} as const;

export type RuleInput = Validated<typeof ruleInputSchema>;

/**
 * The tenant a scoped arrangement (a rule, a key, an HTTP fault) or a list of them belongs to
 * (docs/control-api.md#scoped-arrangements); absent: sandbox-wide (a list: every scope). With a tenant's
 * token, absent means its own.
 */
export const scopeAccountId = {
  ...uuidParam,
  description: "a tenant's own (seen by it only, tried before the sandbox-wide ones); absent: sandbox-wide",
} as const;
/** `?accountId=` of the arrangement lists, their DELETE, and of one entry's read or removal. */
export const scopeQuerySchema = { type: 'object', properties: { accountId: scopeAccountId } } as const;
export type ScopeQuery = Validated<typeof scopeQuerySchema>;

/** POST /_sandbox/rules: a rule, sandbox-wide or (accountId) one tenant's own. */
export const ruleCreateSchema = { ...ruleInputSchema, properties: { ...ruleInputSchema.properties, accountId: scopeAccountId } } as const;
export type RuleCreateBody = Validated<typeof ruleCreateSchema>;

// ---- tenants, money and transactions ----

const settle = { type: 'integer', minimum: 0, maximum: 86_400, 'x-message': 'must be an integer of seconds from 0 to 86400' } as const;
const autoPay = {
  type: ['integer', 'null'],
  minimum: 0,
  maximum: 2_592_000,
  'x-message': 'must be null or an integer of seconds from 0 to 2592000',
} as const;
const MAX_ADJUSTMENT = 1_000_000_000_000;

/**
 * An ISO 8601 UTC instant, as the sandbox writes them (milliseconds optional), before 9999-01-01: the
 * latest a clock may stand (src/domain/time-bounds.ts), so that a clock set to it stays within the bound.
 */
export const isoInstant = {
  type: 'string',
  format: 'date-time',
  pattern: '^([0-8]\\d{3}|9[0-8]\\d\\d|99[0-8]\\d|999[0-8])-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?Z$',
  'x-message': 'must be an ISO 8601 UTC instant before 9999-01-01, like 2030-01-01T00:00:00.000Z',
} as const;
/** A tenant's clock at creation (docs/control-api.md#clock): where it starts, and whether it stands still. */
const accountClockSchema = {
  type: 'object',
  properties: { at: isoInstant, frozen: { type: 'boolean' } },
} as const;
export type AccountClockBody = Validated<typeof accountClockSchema>;

const perSecond = { type: 'integer', minimum: 1, maximum: 10_000, 'x-message': 'must be an integer from 1 to 10000' } as const;
/**
 * A tenant's rate limit (docs/api.md#rate-limits): null turns it off; a field left out keeps the
 * value in force, else takes its default (src/domain/rate-limit.ts DEFAULT_RATE_LIMIT).
 */
const rateLimitSchema = {
  type: ['object', 'null'],
  properties: {
    requestsPerSecond: perSecond,
    burst: { type: 'integer', minimum: 1, maximum: 100_000, 'x-message': 'must be an integer from 1 to 100000' },
    tokenRequestsPerMinute: perSecond,
  },
  'x-message': 'must be null (off) or an object of requestsPerSecond, burst and tokenRequestsPerMinute',
} as const;

export const accountCreateSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    id: uuidParam,
    name: { type: 'string', minLength: 1, maxLength: 140 },
    client_id: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,200}$', 'x-message': 'must be 1-200 letters, digits, or . _ ~ -' },
    client_secret: { type: 'string', minLength: 8, maxLength: 200, 'x-message': 'must be 8 to 200 characters' },
    splitEnabled: { type: 'boolean' },
    autoPayAfterSeconds: autoPay,
    settleAfterSeconds: settle,
    balance: { type: 'integer', minimum: 0, maximum: MAX_ADJUSTMENT, 'x-message': 'must be an integer number of cents, 0 or more' },
    clock: accountClockSchema,
    rateLimit: rateLimitSchema,
  },
} as const;
export type AccountCreateBody = Validated<typeof accountCreateSchema>;

const fixed = (field: string) => ({ not: {}, 'x-message': `cannot be changed (${field})` }) as const;

export const accountPatchSchema = {
  type: 'object',
  // "at least one of": fails only when every field is absent, so a body holding only a fixed field is told about that field
  allOf: [
    {
      not: {
        type: 'object',
        properties: {
          name: false,
          splitEnabled: false,
          autoPayAfterSeconds: false,
          settleAfterSeconds: false,
          rateLimit: false,
          id: false,
          client_id: false,
          client_secret: false,
          balance: false,
        },
      },
      'x-message': 'must change at least one of name, splitEnabled, autoPayAfterSeconds, settleAfterSeconds, rateLimit',
    },
  ],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 140 },
    splitEnabled: { type: 'boolean' },
    autoPayAfterSeconds: autoPay,
    settleAfterSeconds: settle,
    rateLimit: rateLimitSchema,
    id: fixed('id'),
    client_id: fixed('client_id'),
    client_secret: fixed('client_secret'),
    balance: { not: {}, 'x-message': 'cannot be set here; use POST /_sandbox/accounts/{id}/credit' },
  },
} as const;
export type AccountPatchBody = Validated<typeof accountPatchSchema>;

export const creditSchema = {
  type: 'object',
  required: ['amount'],
  properties: {
    amount: {
      type: 'integer',
      minimum: -MAX_ADJUSTMENT,
      maximum: MAX_ADJUSTMENT,
      not: { const: 0 },
      'x-message': 'must be a non-zero integer number of cents (negative moves money out)',
    },
    description: { type: 'string', minLength: 1, maxLength: 140 },
  },
} as const;
export type CreditBody = Validated<typeof creditSchema>;

export const merchantStatusSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { ...oneOfWords(MERCHANT_STATUSES), 'x-message': `must be ${alternatives(MERCHANT_STATUSES)}` },
  },
} as const;
export type MerchantStatusBody = Validated<typeof merchantStatusSchema>;

export const merchantListControlQuerySchema = {
  type: 'object',
  properties: {
    accountId: uuidParam,
    status: oneOfWords(MERCHANT_STATUSES),
    ...pageQuerySchema.properties,
  },
} as const;
export type MerchantListControlQuery = Validated<typeof merchantListControlQuerySchema>;

export const transactionListQuerySchema = {
  type: 'object',
  properties: {
    accountId: uuidParam,
    type: oneOfWords(TRANSACTION_TYPES),
    status: oneOfWords(TRANSACTION_STATUSES),
    externalId: { type: 'string', minLength: 1, maxLength: 64 },
    limit: pageLimit(100),
    after: cursorParam,
  },
} as const;
export type TransactionListQuery = Validated<typeof transactionListQuerySchema>;

export const chargePaySchema = {
  type: 'object',
  properties: { payer: payerSchema },
} as const;
export type ChargePayBody = Validated<typeof chargePaySchema>;

/** The largest image `POST /_sandbox/pix/pay {qrImage}` reads: 5 MiB of PNG or JPEG, decoded from base64. */
export const QR_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Its body limit: 5 MiB as base64 is 6.67 MiB, in a data URL, beside a payer. */
export const PIX_PAY_BODY_LIMIT = 7 * 1024 * 1024;

export const pixPaySchema = {
  type: 'object',
  properties: {
    pixCode: { type: 'string', minLength: 1, maxLength: 1024, description: "The charge's copy-and-paste code (BR Code)" },
    // no maxLength: the body limit bounds it, and counting the characters of 7 MiB costs more than the check is worth
    qrImage: {
      type: 'string',
      minLength: 1,
      description:
        'A PNG or JPEG image in which a QR code of the charge appears anywhere (a screenshot of a whole page): a data URL ' +
        '(data:image/png;base64,…) or bare base64, at most 5 MiB decoded',
    },
    payer: payerSchema,
  },
  allOf: [
    { not: { type: 'object', properties: { pixCode: false, qrImage: false } }, 'x-message': 'needs pixCode or qrImage' },
    { not: { type: 'object', required: ['pixCode', 'qrImage'] }, 'x-message': 'takes pixCode or qrImage, not both' },
  ],
} as const;
/** One of pixCode and qrImage (the schema's allOf says which; the type cannot). */
export type PixPayBody = Validated<typeof pixPaySchema>;

export const transferFailSchema = {
  type: 'object',
  required: ['code'],
  properties: { code: errorCode, message: { type: 'string', minLength: 1, maxLength: 500 } },
} as const;
export type TransferFailBody = Validated<typeof transferFailSchema>;

export const pixKeySchema = {
  type: 'object',
  required: ['key', 'keyType', 'owner'],
  properties: {
    key: { type: 'string', minLength: 1, maxLength: 77 },
    keyType: pixKeyTypeSchema,
    owner: keyOwnerSchema,
    unknown: { type: 'boolean' },
    accountId: scopeAccountId,
  },
} as const;
export type PixKeyBody = Validated<typeof pixKeySchema>;
