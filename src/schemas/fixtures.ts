// The fixture file format: what a fresh store (and reset) starts from.
import { DOCUMENT_TYPES, MERCHANT_STATUSES, PIX_KEY_TYPES } from '../domain/vocabulary.js';
import { accountClockSchema, rateLimitSchema, keyOwnerSchema } from './control.js';
import type { Validated } from './from-schema.js';
import { uuidParam } from './helpers.js';

const cents = { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 } as const;

/** A PIX key of the directory (each checked further as POST /_sandbox/pix-keys checks it). */
const fixtureKeys = {
  type: 'array',
  items: {
    type: 'object',
    required: ['key', 'keyType', 'owner'],
    properties: {
      key: { type: 'string', minLength: 1, maxLength: 77 },
      keyType: { enum: PIX_KEY_TYPES },
      owner: keyOwnerSchema,
      unknown: { type: 'boolean' },
      about: { type: 'string' },
    },
  },
} as const;
/** Outcome rules (each validated as POST /_sandbox/rules validates it). */
const fixtureRules = { type: 'array', items: { type: 'object' } } as const;

export const fixturesSchema = {
  type: 'object',
  required: ['accounts'],
  properties: {
    about: { type: 'string' },
    accounts: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'name', 'client_id', 'client_secret'],
        properties: {
          id: uuidParam,
          name: { type: 'string', minLength: 1 },
          client_id: { type: 'string', minLength: 1, maxLength: 200 },
          client_secret: { type: 'string', minLength: 1, maxLength: 200 },
          splitEnabled: { type: 'boolean' },
          balance: cents,
          settleAfterSeconds: { type: 'integer', minimum: 0, maximum: 86400 },
          autoPayAfterSeconds: { type: ['integer', 'null'], minimum: 0, maximum: 2_592_000 },
          clock: accountClockSchema,
          rateLimit: rateLimitSchema,
          // the tenant's own arrangements (docs/configuration.md#fixtures): seen by its transactions only
          pixKeys: fixtureKeys,
          rules: fixtureRules,
          merchants: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'walletId', 'name', 'document', 'document_type', 'email', 'phone', 'client_id', 'client_secret'],
              properties: {
                id: uuidParam,
                walletId: uuidParam,
                name: { type: 'string' },
                document: { type: 'string' },
                document_type: { enum: DOCUMENT_TYPES },
                email: { type: 'string' },
                phone: { type: 'string' },
                status: { enum: MERCHANT_STATUSES },
                client_id: { type: 'string' },
                client_secret: { type: 'string' },
                balance: cents,
              },
            },
          },
        },
      },
    },
    // sandbox-wide: seen by every tenant
    pixKeys: fixtureKeys,
    rules: fixtureRules,
    webhooks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url'],
        properties: {
          url: { type: 'string', format: 'uri' },
          accountId: uuidParam,
          events: { type: 'array', items: { type: 'string' } },
          secret: { type: 'string', minLength: 8 },
        },
      },
    },
  },
} as const;

export type Fixtures = Validated<typeof fixturesSchema>;
