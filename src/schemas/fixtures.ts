// The fixtures format: what a fresh store (and a reset) starts from, and what a named snapshot is
// exported as (docs/configuration.md#fixtures). Each thing it makes is described by the schema of the
// control call that makes the same thing — an account by POST /_sandbox/accounts's, a merchant by
// POST /v1/merchants's, a key, a rule and a webhook endpoint by theirs — so that a fixture file and
// an inline fixture set pass the checks those calls make (the rest, which no schema can say, are
// ./fixture-checks.ts: one answer names every problem). What a snapshot holds besides (transactions,
// the ledger, webhook events and deliveries, idempotency records, delivery faults, sends) is written
// as the store keeps it, each by the schema of its record (./records.ts); every section is optional,
// so a file of an earlier release reads as it always did.
import { ENDPOINT_SOURCES, MERCHANT_STATUSES, TRANSACTION_TYPES } from '../domain/vocabulary.js';
import { accountCreateSchema, isoInstant, pixKeySchema, ruleInputSchema } from './control.js';
import type { Validated } from './from-schema.js';
import { arrayOf, oneOfWords, uuidParam } from './helpers.js';
import { merchantCreateSchema } from './public.js';
import {
  chargeRecordSchema,
  deliveryRecordSchema,
  idempotencyRecordSchema,
  ledgerEntrySchema,
  transferRecordSchema,
  webhookEventRecordSchema,
  webhookFaultRecordSchema,
  webhookSendRecordSchema,
} from './records.js';
import { webhookEndpointInputSchema } from './webhooks.js';

const account = accountCreateSchema.properties;
const cents = account.balance;
/** A client secret as the store keeps it (an export holds no secret in clear): given instead of client_secret. */
const secretHash = {
  type: 'string',
  pattern: '^scrypt\\$[0-9]{1,8}\\$[0-9a-f]{2,128}\\$[0-9a-f]{2,256}$',
  'x-message': 'must be a secret hash as an export writes it (scrypt$<N>$<salt>$<hash>)',
} as const;
/** When a record was made and last changed, as an export writes it (absent: the moment it is loaded). */
const times = { createdAt: isoInstant, updatedAt: isoInstant } as const;

const fixtureMerchantSchema = {
  type: 'object',
  required: ['id', 'walletId', 'name', 'document', 'document_type', 'email', 'phone', 'client_id'],
  properties: {
    id: uuidParam,
    walletId: uuidParam,
    ...merchantCreateSchema.properties,
    status: oneOfWords(MERCHANT_STATUSES),
    client_id: account.client_id,
    client_secret: account.client_secret,
    client_secret_hash: secretHash,
    balance: cents,
    ...times,
  },
} as const;

/** PIX keys of the directory, as POST /_sandbox/pix-keys takes them; an export adds when each was made. */
const { accountId: _scope, ...keyProperties } = pixKeySchema.properties; // a key's scope is the section it is in
const fixtureKeys = arrayOf({ ...pixKeySchema, properties: { ...keyProperties, about: { type: 'string' }, createdAt: isoInstant } });
/** Outcome rules, as POST /_sandbox/rules takes them; an export adds when each was made. */
const fixtureRules = arrayOf({ ...ruleInputSchema, properties: { ...ruleInputSchema.properties, createdAt: isoInstant } });

const fixtureAccountSchema = {
  type: 'object',
  required: ['id', 'name', 'client_id'],
  properties: {
    ...account,
    id: uuidParam,
    client_secret_hash: secretHash,
    ...times,
    merchants: arrayOf(fixtureMerchantSchema),
    // the tenant's own arrangements (docs/configuration.md#fixtures): seen by its transactions only
    pixKeys: fixtureKeys,
    rules: fixtureRules,
  },
} as const;

/** A webhook endpoint as POST /_sandbox/webhooks takes it; an export adds its id (its deliveries name it), source and time. */
const fixtureWebhookSchema = {
  type: 'object',
  required: ['url'],
  properties: {
    ...webhookEndpointInputSchema.properties,
    id: uuidParam,
    source: oneOfWords(ENDPOINT_SOURCES),
    createdAt: isoInstant,
  },
} as const;

/** A transaction as the store keeps it: a charge or a transfer, told apart by its type. */
const fixtureTransactionSchema = {
  type: 'object',
  required: ['type'],
  properties: { type: oneOfWords(TRANSACTION_TYPES) },
  if: { type: 'object', properties: { type: { const: 'CASH_IN' } } },
  then: chargeRecordSchema,
  else: transferRecordSchema,
} as const;

export const fixturesSchema = {
  type: 'object',
  required: ['accounts'],
  properties: {
    about: { type: 'string' },
    accounts: { type: 'array', minItems: 1, items: fixtureAccountSchema },
    // sandbox-wide: seen by every tenant
    pixKeys: fixtureKeys,
    rules: fixtureRules,
    webhooks: arrayOf(fixtureWebhookSchema),
    // what a named snapshot holds besides (GET /_sandbox/snapshots/{name}/export), as the store keeps it
    transactions: arrayOf(fixtureTransactionSchema),
    ledger: arrayOf(ledgerEntrySchema),
    idempotency: arrayOf(idempotencyRecordSchema),
    events: arrayOf(webhookEventRecordSchema),
    deliveries: arrayOf(deliveryRecordSchema),
    webhookFaults: arrayOf(webhookFaultRecordSchema),
    webhookSends: arrayOf(webhookSendRecordSchema),
  },
} as const;

/** The sections that hold records as the store keeps them, in the order they are loaded (each is a collection of the store). */
export const RECORD_SECTIONS = ['transactions', 'ledger', 'idempotency', 'events', 'deliveries', 'webhookFaults', 'webhookSends'] as const;

/** The set as validated; a transaction is a charge or a transfer (the generator reads if/then/else as its condition only). */
export type Fixtures = Omit<Validated<typeof fixturesSchema>, 'transactions'> & {
  transactions?: (Validated<typeof chargeRecordSchema> | Validated<typeof transferRecordSchema>)[];
};
export type FixtureAccount = Fixtures['accounts'][number];
export type FixtureWebhook = NonNullable<Fixtures['webhooks']>[number];
