// JSON Schemas of the webhook control API (CONTRACT §8, §12): endpoint registration, the
// delivery log's query, and firing an event.
import { EVENT_TYPES } from '../domain/events.js';
import type { DeliveryStatus, EventType } from '../store/model.js';
import { cursorParam, pageQuerySchema, type PageQuery } from './paging.js';
import { UUID_PATTERN } from './public.js';

const uuid = { type: 'string', pattern: UUID_PATTERN, 'x-message': 'must be a UUID' } as const;
const eventType = { type: 'string', enum: EVENT_TYPES, 'x-message': `must be one of ${EVENT_TYPES.join(', ')}` } as const;

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

export interface WebhookEndpointInput {
  url: string;
  events?: EventType[];
  accountId?: string;
  secret?: string;
}

export const webhookEndpointsQuerySchema = {
  type: 'object',
  properties: { accountId: uuid },
} as const;

/** The endpoint list pages like every list that can grow (docs/store.md). */
export const webhookEndpointListQuerySchema = {
  type: 'object',
  properties: { ...webhookEndpointsQuerySchema.properties, ...pageQuerySchema.properties },
} as const;
export type WebhookEndpointListQuery = PageQuery & { accountId?: string };

export const deliveriesQuerySchema = {
  type: 'object',
  properties: {
    transactionId: uuid,
    endpointId: uuid,
    eventId: uuid,
    accountId: uuid,
    status: { type: 'string', enum: ['PENDING', 'DELIVERED', 'DEAD', 'DROPPED'] },
    eventType,
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    after: cursorParam,
  },
} as const;

export interface DeliveriesQuery {
  transactionId?: string;
  endpointId?: string;
  eventId?: string;
  accountId?: string;
  status?: DeliveryStatus;
  eventType?: EventType;
  limit: number;
  after?: number;
}

export const fireInputSchema = {
  type: 'object',
  required: ['transactionId'],
  properties: { transactionId: uuid, type: eventType },
} as const;

export interface FireInput {
  transactionId: string;
  type?: EventType;
}
