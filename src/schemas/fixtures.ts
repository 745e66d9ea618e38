// The fixture file format: what a fresh store (and reset) starts from.
import { accountClockSchema, keyOwnerSchema, type AccountClockBody } from './control.js';
import { uuidParam } from './public.js';

const cents = { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 } as const;

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
                document_type: { enum: ['CPF', 'CNPJ'] },
                email: { type: 'string' },
                phone: { type: 'string' },
                status: { enum: ['ACTIVE', 'INACTIVE', 'SUSPENDED'] },
                client_id: { type: 'string' },
                client_secret: { type: 'string' },
                balance: cents,
              },
            },
          },
        },
      },
    },
    pixKeys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'keyType', 'owner'],
        properties: {
          key: { type: 'string', minLength: 1, maxLength: 77 },
          keyType: { enum: ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] },
          owner: keyOwnerSchema,
          unknown: { type: 'boolean' },
          about: { type: 'string' },
        },
      },
    },
    rules: { type: 'array', items: { type: 'object' } },
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

export interface FixtureMerchant {
  id: string;
  walletId: string;
  name: string;
  document: string;
  document_type: 'CPF' | 'CNPJ';
  email: string;
  phone: string;
  status?: 'ACTIVE' | 'INACTIVE' | 'SUSPENDED';
  client_id: string;
  client_secret: string;
  balance?: number;
}

export interface FixtureAccount {
  id: string;
  name: string;
  client_id: string;
  client_secret: string;
  splitEnabled?: boolean;
  balance?: number;
  settleAfterSeconds?: number;
  autoPayAfterSeconds?: number | null;
  /** the account's own clock (docs/control-api.md#clock): where it starts, frozen or flowing */
  clock?: AccountClockBody;
  merchants?: FixtureMerchant[];
}

export interface Fixtures {
  about?: string;
  accounts: FixtureAccount[];
  pixKeys?: {
    key: string;
    keyType: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM';
    owner: { name: string; document: string; ispb?: string; account_number?: string; account_type?: string };
    unknown?: boolean;
  }[];
  rules?: Record<string, unknown>[];
  webhooks?: { url: string; accountId?: string; events?: string[]; secret?: string }[];
}
