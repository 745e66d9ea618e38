// JSON Schemas of webhook delivery faults and arbitrary signed sends (docs/webhooks.md#delivery-faults,
// docs/webhooks.md#sending-any-body): the request bodies, the one rule a schema cannot say well
// (`seconds` belongs to `delay` only), and the answers.
import { EVENT_TYPES } from '../domain/events.js';
import type { ErrorDetail } from '../domain/errors.js';
import type { BodyCheck } from './checks.js';
import type { Validated } from './from-schema.js';
import { UUID_PATTERN } from './public.js';
import type { JsonSchema } from './responses.js';

export { WEBHOOK_FAULT_ACTIONS } from '../domain/vocabulary.js';
import { WEBHOOK_FAULT_ACTIONS } from '../domain/vocabulary.js';
export const SEND_SIGNATURES = ['valid', 'bad', 'stale'] as const;
/** the longest `delay`: 30 days, the longest a charge can wait too */
export const MAX_DELAY_SECONDS = 2_592_000;

const uuid = { type: 'string', pattern: UUID_PATTERN, 'x-message': 'must be a UUID' } as const;

export const webhookFaultInputSchema = {
  type: 'object',
  required: ['action'],
  properties: {
    endpointId: uuid,
    accountId: uuid,
    eventType: { type: 'string', enum: EVENT_TYPES, 'x-message': `must be one of ${EVENT_TYPES.join(', ')}` },
    transactionId: uuid,
    action: {
      type: 'string',
      enum: WEBHOOK_FAULT_ACTIONS,
      'x-message': `must be one of ${WEBHOOK_FAULT_ACTIONS.join(', ')}`,
      description: 'What happens to the matching deliveries (docs/webhooks.md#delivery-faults)',
    },
    times: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      default: 1,
      'x-message': 'must be a whole number from 1 to 1000000',
      description: 'How many deliveries it applies to (one each); then it is gone',
    },
    seconds: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_DELAY_SECONDS,
      'x-message': `must be a whole number of seconds from 1 to ${MAX_DELAY_SECONDS}`,
      description: '`delay` only: how long the first attempt waits, on the tenant clock',
    },
  },
} as const;

export type WebhookFaultInput = Validated<typeof webhookFaultInputSchema>;

/** `seconds` is required for `delay`, and only `delay` takes it. */
export const webhookFaultChecks: BodyCheck = (b) => {
  const out: ErrorDetail[] = [];
  const action = typeof b.action === 'string' ? b.action : undefined;
  if (action === 'delay' && b.seconds === undefined) out.push({ path: '/seconds', message: 'is required when action is delay' });
  if (action !== undefined && action !== 'delay' && b.seconds !== undefined)
    out.push({ path: '/seconds', message: 'is only for action delay' });
  return out;
};

export const webhookFaultsQuerySchema = { type: 'object', properties: { accountId: uuid } } as const;

export const webhookSendInputSchema = {
  type: 'object',
  required: ['endpointId', 'body'],
  properties: {
    endpointId: uuid,
    body: { description: 'Any JSON value: sent as its JSON text (JSON.stringify), byte for byte what is signed' },
    signature: {
      type: 'string',
      enum: SEND_SIGNATURES,
      default: 'valid',
      'x-message': `must be one of ${SEND_SIGNATURES.join(', ')}`,
      description: 'valid (default); bad: does not verify; stale: correct over a t ten minutes old',
    },
  },
} as const;

export type WebhookSendInput = Validated<typeof webhookSendInputSchema>;

export const webhookSendsQuerySchema = {
  type: 'object',
  properties: { endpointId: uuid, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
} as const;
export type WebhookSendsQuery = Validated<typeof webhookSendsQuerySchema>;

// ---- answers ----
const nullable = (s: JsonSchema): JsonSchema => ({ ...s, type: [s.type as string, 'null'] });
const time = { type: 'string', format: 'date-time' };
const ruuid = { type: 'string', pattern: UUID_PATTERN };
const obj = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  required,
  additionalProperties: false,
  properties,
});

export const webhookFaultSchema = obj({
  id: ruuid,
  accountId: ruuid,
  endpointId: nullable(ruuid),
  eventType: { type: ['string', 'null'], enum: [...EVENT_TYPES, null] },
  transactionId: nullable(ruuid),
  action: { type: 'string', enum: WEBHOOK_FAULT_ACTIONS },
  times: { type: 'integer', minimum: 1 },
  remaining: { type: 'integer', minimum: 1 },
  seconds: nullable({ type: 'integer' }),
  createdAt: time,
});

export const webhookSendResultSchema = obj({
  statusCode: nullable({ type: 'integer' }),
  error: nullable({ type: 'string' }),
  durationMs: { type: 'number' },
});

const attemptFields = {
  at: time,
  statusCode: nullable({ type: 'integer' }),
  error: nullable({ type: 'string' }),
  durationMs: { type: 'number' },
};

export const webhookSendSchema = obj({
  id: ruuid,
  accountId: ruuid,
  endpointId: ruuid,
  url: { type: 'string' },
  signature: { type: 'string', enum: SEND_SIGNATURES },
  eventId: { type: 'string' },
  body: { type: 'string' },
  attempt: obj(attemptFields),
  createdAt: time,
});

/** The mark a fault leaves on a delivery and on the attempt it shaped (src/schemas/responses.ts adds it there). */
export const faultMarkSchema = obj({ id: ruuid, action: { type: 'string', enum: WEBHOOK_FAULT_ACTIONS } });
/** One attempt of a delivery, with the mark when a fault shaped it. */
export const deliveryAttemptSchema = obj({ ...attemptFields, fault: faultMarkSchema }, Object.keys(attemptFields));
