// JSON Schemas of the control API's bodies (docs/control-api.md#conventions). Same validator, same error
// shape and same OpenAPI document as the public API.
import { cursorParam, pageLimit, pageQuerySchema } from './paging.js';
import { digitsDocument, pixKeyTypeSchema, UUID_PATTERN, uuidParam } from './public.js';
import type { Validated } from './from-schema.js';

/** A party of a PIX payment (a payer, a key's owner): the fields of the spec's payer object. */
const partyProperties = {
  name: { type: 'string', minLength: 1, maxLength: 140 },
  document: digitsDocument,
  ispb: { type: 'string', pattern: '^[0-9]{8}$', 'x-message': 'must be 8 digits' },
  account_number: { type: 'string', minLength: 1, maxLength: 40 },
  account_type: { type: 'string', minLength: 1, maxLength: 40 },
} as const;

/** Payer data given to a forced payment: every field optional (the rest is generated). */
export const payerSchema = { type: 'object', properties: partyProperties } as const;

/** The owner of a key in the directory: name and document required. */
export const keyOwnerSchema = { type: 'object', required: ['name', 'document'], properties: partyProperties } as const;

export const ruleInputSchema = {
  type: 'object',
  required: ['match', 'outcome'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$', 'x-message': 'must be 1-64 letters, digits, or _ . : -' },
    description: { type: 'string', maxLength: 500 },
    match: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { type: 'string', enum: ['CASH_IN', 'CASH_OUT'] },
        amount: { type: 'integer', minimum: 1 },
        amountMin: { type: 'integer', minimum: 0 },
        amountMax: { type: 'integer', minimum: 0 },
        key: { type: 'string', minLength: 1, maxLength: 77 },
        document: digitsDocument,
        descriptionContains: { type: 'string', minLength: 1, maxLength: 140 },
      },
    },
    outcome: {
      type: 'object',
      required: ['action'],
      properties: {
        action: { type: 'string', enum: ['pay', 'expire', 'cancel', 'wait', 'complete', 'fail'] },
        afterSeconds: { type: 'integer', minimum: 0, maximum: 2_592_000 },
        code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{1,63}$', 'x-message': 'must be an upper-case code like INSUFFICIENT_FUNDS' },
        message: { type: 'string', minLength: 1, maxLength: 500 },
        payer: payerSchema,
      },
    },
  },
  allOf: [
    {
      if: { type: 'object', properties: { match: { type: 'object', properties: { type: { const: 'CASH_IN' } } } } },
      then: {
        type: 'object',
        properties: {
          outcome: {
            type: 'object',
            properties: {
              action: { enum: ['pay', 'expire', 'cancel', 'wait'], 'x-message': 'a CASH_IN rule takes pay, expire, cancel or wait' },
            },
          },
        },
      },
      else: {
        type: 'object',
        properties: {
          outcome: {
            type: 'object',
            properties: { action: { enum: ['complete', 'fail', 'wait'], 'x-message': 'a CASH_OUT rule takes complete, fail or wait' } },
          },
        },
      },
    },
  ],
} as const;

export interface RuleInput {
  id?: string;
  description?: string;
  match: {
    type: 'CASH_IN' | 'CASH_OUT';
    amount?: number;
    amountMin?: number;
    amountMax?: number;
    key?: string;
    document?: string;
    descriptionContains?: string;
  };
  outcome: {
    action: 'pay' | 'expire' | 'cancel' | 'wait' | 'complete' | 'fail';
    afterSeconds?: number;
    code?: string;
    message?: string;
    payer?: { name?: string; document?: string; ispb?: string; account_number?: string; account_type?: string };
  };
}

export { UUID_PATTERN };

// ---- control bodies and queries (docs/control-api.md#conventions) ----

const errorCode = {
  type: 'string',
  pattern: '^[A-Z][A-Z0-9_]{1,63}$',
  'x-message': 'must be an upper-case code like INSUFFICIENT_FUNDS',
} as const;
const settle = { type: 'integer', minimum: 0, maximum: 86_400, 'x-message': 'must be an integer of seconds from 0 to 86400' } as const;
const autoPay = {
  type: ['integer', 'null'],
  minimum: 0,
  maximum: 2_592_000,
  'x-message': 'must be null or an integer of seconds from 0 to 2592000',
} as const;
export const MAX_ADJUSTMENT = 1_000_000_000_000;

/** An ISO 8601 UTC instant, as the sandbox writes them (milliseconds optional). */
export const isoInstant = {
  type: 'string',
  format: 'date-time',
  pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{1,3})?Z$',
  'x-message': 'must be an ISO 8601 UTC instant like 2030-01-01T00:00:00.000Z',
} as const;
/** A tenant's clock at creation (docs/control-api.md#clock): where it starts, and whether it stands still. */
export const accountClockSchema = {
  type: 'object',
  properties: { at: isoInstant, frozen: { type: 'boolean' } },
} as const;
export type AccountClockBody = Validated<typeof accountClockSchema>;

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
          id: false,
          client_id: false,
          client_secret: false,
          balance: false,
        },
      },
      'x-message': 'must change at least one of name, splitEnabled, autoPayAfterSeconds, settleAfterSeconds',
    },
  ],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 140 },
    splitEnabled: { type: 'boolean' },
    autoPayAfterSeconds: autoPay,
    settleAfterSeconds: settle,
    id: fixed('id'),
    client_id: fixed('client_id'),
    client_secret: fixed('client_secret'),
    balance: { not: {}, 'x-message': 'cannot be set here; use POST /_sandbox/accounts/{id}/credit' },
  },
} as const;
export type AccountPatchBody = { name?: string; splitEnabled?: boolean; autoPayAfterSeconds?: number | null; settleAfterSeconds?: number };

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
    status: { type: 'string', enum: ['ACTIVE', 'INACTIVE', 'SUSPENDED'], 'x-message': 'must be ACTIVE, INACTIVE or SUSPENDED' },
  },
} as const;
export type MerchantStatusBody = Validated<typeof merchantStatusSchema>;

export const merchantListControlQuerySchema = {
  type: 'object',
  properties: {
    accountId: uuidParam,
    status: { type: 'string', enum: ['ACTIVE', 'INACTIVE', 'SUSPENDED'] },
    ...pageQuerySchema.properties,
  },
} as const;
export type MerchantListControlQuery = Validated<typeof merchantListControlQuerySchema>;

export const transactionListQuerySchema = {
  type: 'object',
  properties: {
    accountId: uuidParam,
    type: { type: 'string', enum: ['CASH_IN', 'CASH_OUT'] },
    status: { type: 'string', enum: ['WAITING_PAYMENT', 'PAID', 'EXPIRED', 'CANCELLED', 'PROCESSING', 'COMPLETED', 'FAILED'] },
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
export type ChargePayBody = { payer?: RuleInput['outcome']['payer'] };

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
export type PixPayBody = { pixCode?: string; qrImage?: string; payer?: RuleInput['outcome']['payer'] };

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
  },
} as const;
export interface PixKeyBody {
  key: string;
  keyType: string;
  owner: { name: string; document: string; ispb?: string; account_number?: string; account_type?: string };
  unknown?: boolean;
}

export const MAX_ADVANCE_SECONDS = 2_592_000;
const clockAccountId = { ...uuidParam, description: 'the tenant whose clock it is; absent: the sandbox-wide clock (every tenant)' };

/** How far to move: `seconds`, or `to` an instant after the clock's now (checked by the service). */
export const clockAdvanceSchema = {
  type: 'object',
  properties: {
    seconds: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_ADVANCE_SECONDS,
      'x-message': 'must be an integer of seconds from 1 to 2592000 (30 days)',
    },
    to: isoInstant,
    accountId: clockAccountId,
  },
} as const;
export type ClockAdvanceBody = Validated<typeof clockAdvanceSchema>;
/** Exactly one of seconds and to (a schema's oneOf would not name the field). */
export const clockAdvanceCheck = (b: Record<string, unknown>): { path: string; message: string }[] => {
  if (b.seconds === undefined && b.to === undefined) return [{ path: '/seconds', message: 'is required (or give to, an instant)' }];
  if (b.seconds !== undefined && b.to !== undefined) return [{ path: '/to', message: 'cannot be given with seconds: give one of them' }];
  return [];
};

/** freeze / unfreeze bodies and GET /_sandbox/clock's query: one tenant, or (absent) every tenant */
export const clockTargetSchema = { type: 'object', properties: { accountId: clockAccountId } } as const;
export type ClockTargetBody = Validated<typeof clockTargetSchema>;

export const FIXTURE_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,63}$';

export const resetSchema = {
  type: 'object',
  properties: {
    fixtures: {
      // a fixture set shipped in the package's fixtures/ folder, by name, or a whole fixture object
      oneOf: [
        {
          type: 'string',
          pattern: FIXTURE_NAME_PATTERN,
          'x-message': 'must be the name of a shipped fixture set (e.g. "example-marketplace") or a fixture object',
        },
        { type: 'object', 'x-message': 'must be a fixture object or the name of a shipped fixture set' },
      ],
    },
  },
} as const;
export type ResetBody = Validated<typeof resetSchema>;

export const faultSchema = {
  type: 'object',
  required: ['path'],
  properties: {
    method: {
      type: 'string',
      pattern: '^([Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Pp][Aa][Tt][Cc][Hh]|[Pp][Uu][Tt]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Hh][Ee][Aa][Dd])$',
      'x-message': 'must be GET, POST, PATCH, PUT, DELETE or HEAD',
    },
    path: {
      type: 'string',
      pattern: '^/[^?#\\s]{0,299}$',
      'x-message': 'must be a path starting with / (segments may be *, ** or :name), without query string',
    },
    status: { type: 'integer', minimum: 400, maximum: 599, 'x-message': 'must be an HTTP error status from 400 to 599' },
    code: errorCode,
    message: { type: 'string', minLength: 1, maxLength: 500 },
    latencyMs: { type: 'integer', minimum: 0, maximum: 60_000, 'x-message': 'must be an integer of milliseconds from 0 to 60000' },
    times: { type: 'integer', minimum: 1, maximum: 1_000_000, 'x-message': 'must be a positive integer (omit it for no limit)' },
    probability: { type: 'number', exclusiveMinimum: 0, maximum: 1, 'x-message': 'must be a number above 0 and at most 1' },
  },
  allOf: [
    { not: { type: 'object', properties: { status: false, latencyMs: false } }, 'x-message': 'needs a status, a latencyMs, or both' },
  ],
} as const;
export type FaultBody = Validated<typeof faultSchema>;

export const requestsQuerySchema = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 100 },
    method: { type: 'string', minLength: 1, maxLength: 10 },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    path: { type: 'string', minLength: 1, maxLength: 300 },
    requestId: { type: 'string', minLength: 1, maxLength: 128 },
  },
} as const;
export type RequestsQuery = Validated<typeof requestsQuerySchema>;
