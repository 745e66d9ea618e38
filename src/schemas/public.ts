// JSON Schemas of the public API's requests (docs/decisions.md#d10-unknown-fields-are-dropped). Each one validates requests
// (ajv), types the handler (Validated: FromSchema, ./from-schema.ts, where exact) and appears in /openapi.json.
import { MAX_AMOUNT } from '../domain/ledger.js';
import { KEY_TYPE_MESSAGE, KEY_TYPE_SPELLINGS } from '../domain/pix-keys.js';
import { DOCUMENT_TYPES, MERCHANT_STATUSES, SPLIT_MODES, alternatives } from '../domain/vocabulary.js';
import type { Validated } from './from-schema.js';
import { DOCUMENT_PATTERN, oneOfWords, uuidParam } from './helpers.js';

/** A pattern matching any of the words in any letter case (JSON Schema patterns have no flags). */
function caseInsensitive(words: string[]): string {
  const word = (w: string) => [...w].map((ch) => (/[A-Z]/.test(ch) ? `[${ch}${ch.toLowerCase()}]` : ch)).join('');
  return `^(${words.map(word).join('|')})$`;
}

const amountCents = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_AMOUNT,
  'x-message': 'must be an integer number of cents from 1 to 1000000000',
} as const;

export const digitsDocument = {
  type: 'string',
  pattern: DOCUMENT_PATTERN,
  'x-message': 'must be a CPF (11 digits) or CNPJ (14 digits), digits only',
} as const;

const phoneDigits = {
  type: 'string',
  pattern: '^[1-9][0-9]{9,10}$',
  'x-message': 'must be digits only with area code (10 or 11 digits)',
} as const;

const email = { type: 'string', format: 'email', maxLength: 254, 'x-message': 'must be a valid e-mail address' } as const;

/** A PIX key kind, in any letter case, with the aliases E-MAIL and EVP (docs/decisions.md#d24-pix-key-kinds). */
export const pixKeyTypeSchema = {
  type: 'string',
  pattern: caseInsensitive(Object.keys(KEY_TYPE_SPELLINGS)),
  'x-message': KEY_TYPE_MESSAGE,
} as const;

export const tokenRequestSchema = {
  type: 'object',
  properties: {
    grant_type: { type: 'string', default: 'client_credentials' },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    scope: { type: 'string' },
  },
} as const;

export const merchantCreateSchema = {
  type: 'object',
  required: ['name', 'document', 'document_type', 'email', 'phone'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 140 },
    document: digitsDocument,
    document_type: { ...oneOfWords(DOCUMENT_TYPES), 'x-message': `must be ${alternatives(DOCUMENT_TYPES)}` },
    email,
    phone: phoneDigits,
  },
} as const;
export type MerchantCreateBody = Validated<typeof merchantCreateSchema>;

// Sending an immutable field is an error (docs/api.md#update-a-merchant), not an ignored unknown field.
const immutable = (message: string) => ({ not: {}, 'x-immutable': true, 'x-message': message }) as const;

export const merchantPatchSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 140 },
    email,
    phone: phoneDigits,
    document: immutable('cannot be changed after creation'),
    document_type: immutable('cannot be changed after creation'),
    status: immutable('cannot be changed through this API (the operator sets it)'),
  },
  // "at least one of name, email, phone": fails only when every known field is absent, so that a
  // body holding only an immutable field is told about that field first
  allOf: [
    {
      not: {
        type: 'object',
        properties: { name: false, email: false, phone: false, document: false, document_type: false, status: false },
      },
      'x-message': 'must change at least one of name, email, phone',
    },
  ],
} as const;
export type MerchantPatchBody = Validated<typeof merchantPatchSchema>;

export const merchantListQuerySchema = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000_000, default: 1, 'x-message': 'must be an integer of at least 1' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, 'x-message': 'must be an integer from 1 to 100' },
    status: { ...oneOfWords(MERCHANT_STATUSES), 'x-message': `must be one of ${MERCHANT_STATUSES.join(', ')}` },
  },
} as const;
export type MerchantListQuery = Validated<typeof merchantListQuerySchema>;

const splitEntry = {
  type: 'object',
  required: ['amount', 'mode', 'wallet_id'],
  properties: {
    amount: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_AMOUNT,
      'x-message': 'must be an integer (cents for FIXED, percent for PERCENTAGE)',
    },
    mode: oneOfWords(SPLIT_MODES),
    wallet_id: uuidParam,
  },
  if: { properties: { mode: { const: 'PERCENTAGE' } }, required: ['mode'] },
  then: { properties: { amount: { type: 'integer', maximum: 100, 'x-message': 'must be a percentage from 1 to 100' } } },
} as const;

export const cashInSchema = {
  type: 'object',
  required: ['amount', 'description', 'customer'],
  properties: {
    amount: amountCents,
    description: { type: 'string', minLength: 1, maxLength: 140 },
    customer: {
      type: 'object',
      required: ['name', 'document'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 140 },
        document: digitsDocument,
        email,
        phone: phoneDigits,
      },
    },
    externalId: { type: 'string', minLength: 1, maxLength: 64 },
    expiration: {
      type: 'integer',
      minimum: 60,
      maximum: 2_592_000,
      default: 86_400,
      'x-message': 'must be an integer of seconds from 60 to 2592000',
    },
    split: {
      oneOf: [{ type: 'array', minItems: 1, maxItems: 10, items: splitEntry }, splitEntry],
    },
  },
} as const;
export type CashInBody = Validated<typeof cashInSchema>;
/** One entry of `split` (which takes one entry, or a list of them). */
export type SplitEntryBody = Exclude<NonNullable<CashInBody['split']>, readonly unknown[]>;

export const cashOutSchema = {
  type: 'object',
  required: ['type', 'description', 'amount', 'details'],
  properties: {
    type: { type: 'string', enum: ['pix_key'], default: 'pix_key' },
    description: { type: 'string', minLength: 1, maxLength: 140 },
    amount: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,9}$',
      'x-message': 'must be a string of cents, digits only, e.g. "1500" for R$ 15.00 (no decimals, sign or leading zeros)',
    },
    details: {
      type: 'object',
      required: ['name', 'key', 'keyType'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 140 },
        document: digitsDocument,
        key: { type: 'string', minLength: 1, maxLength: 77 },
        keyType: pixKeyTypeSchema,
      },
    },
  },
} as const;
/** `amount` stays a string of digits: the pattern says so, the type cannot. */
export type CashOutBody = Validated<typeof cashOutSchema>;
