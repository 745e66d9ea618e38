// /_sandbox/webhooks/faults and /_sandbox/webhooks/send (docs/webhooks.md#delivery-faults,
// docs/webhooks.md#sending-any-body). Thin: validate, run a service, answer.
import { alternatives, WEBHOOK_FAULT_ACTIONS } from '../domain/vocabulary.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { controlTag, created, e, list, noContent, ok } from '../schemas/operation.js';
import { webhookFaultSchema, webhookSendResultSchema, webhookSendSchema } from '../schemas/webhook-responses.js';
import {
  webhookFaultChecks,
  webhookFaultInputSchema,
  webhookFaultsQuerySchema,
  webhookSendInputSchema,
  webhookSendsQuerySchema,
  type WebhookFaultInput,
  type WebhookSendInput,
  type WebhookSendsQuery,
} from '../schemas/webhook-faults.js';
import { clearWebhookFaults, createWebhookFault, listWebhookFaults, removeWebhookFault } from '../services/webhook-faults.js';
import { listWebhookSends, sendWebhookBody } from '../webhooks/send-body.js';
import { formatWebhookFault, formatWebhookSend } from '../format/webhooks.js';

const tag = controlTag('webhooks');
type AccountQuery = { accountId?: string };

export const webhookFaultOperations = [
  adminRoute<never, AccountQuery>({
    method: 'get',
    path: '/_sandbox/webhooks/faults',
    tag,
    summary: 'Webhook delivery faults, in the order they are tried (oldest first)',
    query: webhookFaultsQuerySchema,
    responses: { 200: ok(list(webhookFaultSchema)) },
    handle({ ctx, res, query }) {
      res.json([...listWebhookFaults(ctx.store, query.accountId?.toLowerCase())].map(formatWebhookFault));
    },
  }),

  adminRoute<WebhookFaultInput>({
    method: 'post',
    path: '/_sandbox/webhooks/faults',
    tag,
    summary: `Add a delivery fault: ${alternatives(WEBHOOK_FAULT_ACTIONS)}`,
    body: webhookFaultInputSchema,
    check: webhookFaultChecks,
    responses: {
      201: created(webhookFaultSchema, 'The fault, with `remaining`'),
      400: e(
        'VALIDATION_ERROR',
        'an unknown action, seconds without delay or delay without seconds, times not a whole number ≥ 1 (every problem named)',
      ),
      404: e('NOT_FOUND', 'no such endpoint (or not of accountId), or no such account'),
    },
    async handle({ ctx, res, readBody }) {
      const input = readBody();
      const fault = await ctx.store.commit((tx) => createWebhookFault(tx, ctx, input));
      res.status(201).json(formatWebhookFault(fault));
    },
  }),

  adminRoute<never, AccountQuery>({
    method: 'delete',
    path: '/_sandbox/webhooks/faults',
    tag,
    summary: 'Remove every delivery fault (or one account’s)',
    query: webhookFaultsQuerySchema,
    responses: { 204: noContent },
    async handle({ ctx, res, query }) {
      await ctx.store.commit((tx) => clearWebhookFaults(tx, query.accountId?.toLowerCase()));
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/webhooks/faults/{id}',
    tag,
    summary: 'Remove one delivery fault',
    responses: { 204: noContent, 404: e('NOT_FOUND', 'no such fault (or it is spent)') },
    async handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      await ctx.store.commit((tx) => removeWebhookFault(tx, id));
      res.status(204).end();
    },
  }),

  adminRoute<WebhookSendInput>({
    method: 'post',
    path: '/_sandbox/webhooks/send',
    tag,
    summary: "Send any JSON body to an endpoint once, signed as asked, and log it (answers the receiver's status)",
    body: webhookSendInputSchema,
    responses: {
      200: ok(webhookSendResultSchema, 'The attempt: the status, or the network error, and its duration'),
      404: e('NOT_FOUND', 'no such endpoint'),
    },
    async handle({ ctx, res, readBody }) {
      res.json(await sendWebhookBody(ctx, readBody()));
    },
  }),

  adminRoute<never, WebhookSendsQuery>({
    method: 'get',
    path: '/_sandbox/webhooks/sends',
    tag,
    summary: 'The log of arbitrary sends, newest first (the last 1,000 are kept)',
    query: webhookSendsQuerySchema,
    responses: { 200: ok(list(webhookSendSchema)) },
    handle({ ctx, res, query }) {
      res.json(listWebhookSends(ctx.store, query.endpointId?.toLowerCase(), query.limit).map(formatWebhookSend));
    },
  }),
];
