// The operations of webhook delivery faults and arbitrary signed sends, for the operation table
// (src/schemas/operations.ts), so /openapi.json and the per-answer checks of the tests cover them.
import type { ErrorCode } from '../domain/errors.js';
import type { Answer, Operation } from './operations.js';
import {
  webhookFaultInputSchema,
  webhookFaultSchema,
  webhookFaultsQuerySchema,
  webhookSendInputSchema,
  webhookSendResultSchema,
  webhookSendSchema,
  webhookSendsQuerySchema,
} from './webhook-faults.js';

const tag = 'Control: webhooks';
const e = (code: ErrorCode, when: string): Answer => ({ codes: [code], description: `${code}: ${when}` });
const list = (items: Record<string, unknown>) => ({ type: 'array', items });

export const WEBHOOK_FAULT_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/_sandbox/webhooks/faults',
    tag,
    auth: 'admin',
    summary: 'Webhook delivery faults, in the order they are tried (oldest first)',
    query: webhookFaultsQuerySchema,
    responses: { 200: { description: 'OK', schema: list(webhookFaultSchema) } },
  },
  {
    method: 'post',
    path: '/_sandbox/webhooks/faults',
    tag,
    auth: 'admin',
    summary: 'Add a delivery fault: duplicate, reorder, delay, drop, bad-signature or stale-signature',
    body: webhookFaultInputSchema,
    responses: {
      201: { description: 'The fault, with `remaining`', schema: webhookFaultSchema },
      400: e(
        'VALIDATION_ERROR',
        'an unknown action, seconds without delay or delay without seconds, times not a whole number ≥ 1 (every problem named)',
      ),
      404: e('NOT_FOUND', 'no such endpoint (or not of accountId), or no such account'),
    },
  },
  {
    method: 'delete',
    path: '/_sandbox/webhooks/faults',
    tag,
    auth: 'admin',
    summary: 'Remove every delivery fault (or one account’s)',
    query: webhookFaultsQuerySchema,
    responses: { 204: { description: 'Done (no body)' } },
  },
  {
    method: 'delete',
    path: '/_sandbox/webhooks/faults/{id}',
    tag,
    auth: 'admin',
    summary: 'Remove one delivery fault',
    responses: { 204: { description: 'Done (no body)' }, 404: e('NOT_FOUND', 'no such fault (or it is spent)') },
  },
  {
    method: 'post',
    path: '/_sandbox/webhooks/send',
    tag,
    auth: 'admin',
    summary: "Send any JSON body to an endpoint once, signed as asked, and log it (answers the receiver's status)",
    body: webhookSendInputSchema,
    responses: {
      200: { description: 'The attempt: the status, or the network error, and its duration', schema: webhookSendResultSchema },
      404: e('NOT_FOUND', 'no such endpoint'),
    },
  },
  {
    method: 'get',
    path: '/_sandbox/webhooks/sends',
    tag,
    auth: 'admin',
    summary: 'The log of arbitrary sends, newest first (the last 1,000 are kept)',
    query: webhookSendsQuerySchema,
    responses: { 200: { description: 'OK', schema: list(webhookSendSchema) } },
  },
];
