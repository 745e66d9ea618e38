// JSON Schemas of the webhook control API (docs/webhooks.md#endpoints): endpoint registration, the
// delivery log's query, and firing an event.
import { DELIVERY_STATUSES, EVENT_TYPES } from '../domain/vocabulary.js';
import type { Validated } from './from-schema.js';
import { oneOfWords, uuidParam as uuid } from './helpers.js';
import { cursorParam, pageQuerySchema } from './paging.js';

const eventType = { ...oneOfWords(EVENT_TYPES), 'x-message': `must be one of ${EVENT_TYPES.join(', ')}` } as const;

export const webhookEndpointInputSchema = {
  type: 'object',
  required: ['url'],
  properties: {
    url: {
      type: 'string',
      format: 'uri',
      pattern: '^[hH][tT][tT][pP][sS]?://',
      maxLength: 2048,
      'x-message': 'must be an http:// or https:// URL',
    },
    events: { type: 'array', items: eventType, minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true },
    accountId: uuid,
    secret: {
      type: 'string',
      minLength: 8,
      maxLength: 256,
      pattern: '^[\\x21-\\x7e]+$',
      'x-message': 'must be 8-256 printable characters without spaces',
    },
  },
} as const;

export type WebhookEndpointInput = Validated<typeof webhookEndpointInputSchema>;

export const webhookEndpointsQuerySchema = {
  type: 'object',
  properties: { accountId: uuid },
} as const;
export type WebhookEndpointsQuery = Validated<typeof webhookEndpointsQuerySchema>;

/** The endpoint list pages like every list that can grow (docs/store.md). */
export const webhookEndpointListQuerySchema = {
  type: 'object',
  properties: { ...webhookEndpointsQuerySchema.properties, ...pageQuerySchema.properties },
} as const;
export type WebhookEndpointListQuery = Validated<typeof webhookEndpointListQuerySchema>;

export const deliveriesQuerySchema = {
  type: 'object',
  properties: {
    transactionId: uuid,
    endpointId: uuid,
    eventId: uuid,
    accountId: uuid,
    status: oneOfWords(DELIVERY_STATUSES),
    eventType,
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    after: cursorParam,
  },
} as const;

export type DeliveriesQuery = Validated<typeof deliveriesQuerySchema>;

export const fireInputSchema = {
  type: 'object',
  required: ['transactionId'],
  properties: { transactionId: uuid, type: eventType },
} as const;

export type FireInput = Validated<typeof fireInputSchema>;
