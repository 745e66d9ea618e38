// JSON Schemas of the requests of webhook delivery faults and arbitrary signed sends
// (docs/webhooks.md#delivery-faults, docs/webhooks.md#sending-any-body), and the one rule a schema
// cannot say well (`seconds` belongs to `delay` only). Their answers are in ./webhook-responses.ts.
import type { ErrorDetail } from '../domain/errors.js';
import { EVENT_TYPES, SEND_SIGNATURES, WEBHOOK_FAULT_ACTIONS } from '../domain/vocabulary.js';
import type { BodyCheck } from './checks.js';
import type { Validated } from './from-schema.js';
import { oneOfWords, uuidParam as uuid } from './helpers.js';

/** the longest `delay`: 30 days, the longest a charge can wait too */
const MAX_DELAY_SECONDS = 2_592_000;

export const webhookFaultInputSchema = {
  type: 'object',
  required: ['action'],
  properties: {
    endpointId: uuid,
    accountId: uuid,
    eventType: { ...oneOfWords(EVENT_TYPES), 'x-message': `must be one of ${EVENT_TYPES.join(', ')}` },
    transactionId: uuid,
    action: {
      ...oneOfWords(WEBHOOK_FAULT_ACTIONS),
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
      ...oneOfWords(SEND_SIGNATURES),
      default: 'valid',
      'x-message': `must be one of ${SEND_SIGNATURES.join(', ')}`,
      description: 'valid (default); bad: does not verify; stale: correct over a t ten minutes old',
    },
  },
} as const;

export type WebhookSendInput = Validated<typeof webhookSendInputSchema>;

export const webhookSendsQuerySchema = {
  type: 'object',
  properties: { endpointId: uuid, accountId: uuid, limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
} as const;
export type WebhookSendsQuery = Validated<typeof webhookSendsQuerySchema>;
