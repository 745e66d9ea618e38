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
import { take } from '../store/page.js';
import { accountFilter, accountFor, own } from './scope.js';
import { formatWebhookFault, formatWebhookSend } from '../format/webhooks.js';

const tag = controlTag('webhooks');
type AccountQuery = { accountId?: string };

export const webhookFaultOperations = [
  adminRoute<never, AccountQuery>({
    method: 'get',
    path: '/_sandbox/webhooks/faults',
    tag,
    scope: 'tenant',
    summary: 'Webhook delivery faults, in the order they are tried (oldest first)',
    query: webhookFaultsQuerySchema,
    responses: { 200: ok(list(webhookFaultSchema)) },
    handle({ ctx, res, query, tenant }) {
      res.json([...listWebhookFaults(ctx.store, accountFilter(tenant, ctx.store, query.accountId))].map(formatWebhookFault));
    },
  }),

  adminRoute<WebhookFaultInput>({
    method: 'post',
    path: '/_sandbox/webhooks/faults',
    tag,
    scope: 'tenant',
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
    async handle({ ctx, res, readBody, tenant }) {
      const body = readBody();
      // a tenant's fault is its own: of the tenant it names (its own when none), an endpoint of another is 404
      const accountId = accountFor(tenant, ctx.store, body.accountId);
      const input = { ...body, ...(accountId ? { accountId } : {}) };
      const fault = await ctx.store.commit((tx) => createWebhookFault(tx, ctx, input));
      res.status(201).json(formatWebhookFault(fault));
    },
  }),

  adminRoute<never, AccountQuery>({
    method: 'delete',
    path: '/_sandbox/webhooks/faults',
    tag,
    scope: 'tenant',
    summary: 'Remove every delivery fault (or one account’s)',
    query: webhookFaultsQuerySchema,
    responses: { 204: noContent },
    async handle({ ctx, res, query, tenant }) {
      const accountId = accountFilter(tenant, ctx.store, query.accountId);
      await ctx.store.commit((tx) => clearWebhookFaults(tx, accountId));
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/webhooks/faults/{id}',
    tag,
    scope: 'tenant',
    summary: 'Remove one delivery fault',
    responses: { 204: noContent, 404: e('NOT_FOUND', 'no such fault (or it is spent)') },
    async handle({ ctx, req, res, tenant }) {
      const id = uuidParam(req, 'id');
      own(tenant, ctx.store.webhookFaults.get(id), `webhook fault ${id}`);
      await ctx.store.commit((tx) => removeWebhookFault(tx, id));
      res.status(204).end();
    },
  }),

  adminRoute<WebhookSendInput>({
    method: 'post',
    path: '/_sandbox/webhooks/send',
    tag,
    scope: 'tenant',
    summary: "Send any JSON body to an endpoint once, signed as asked, and log it (answers the receiver's status)",
    body: webhookSendInputSchema,
    responses: {
      200: ok(webhookSendResultSchema, 'The attempt: the status, or the network error, and its duration'),
      404: e('NOT_FOUND', 'no such endpoint'),
    },
    async handle({ ctx, res, readBody, tenant }) {
      const input = readBody();
      const endpointId = input.endpointId.toLowerCase();
      own(tenant, ctx.store.webhookEndpoints.get(endpointId), `webhook endpoint ${endpointId}`);
      res.json(await sendWebhookBody(ctx, input));
    },
  }),

  adminRoute<never, WebhookSendsQuery>({
    method: 'get',
    path: '/_sandbox/webhooks/sends',
    tag,
    scope: 'tenant',
    summary: 'The log of arbitrary sends, newest first (the last 1,000 are kept)',
    query: webhookSendsQuerySchema,
    responses: { 200: ok(list(webhookSendSchema)), 404: e('NOT_FOUND', 'no such account') },
    handle({ ctx, res, query, tenant }) {
      const endpointId = query.endpointId?.toLowerCase();
      const accountId = accountFilter(tenant, ctx.store, query.accountId);
      // one tenant's sends (by its index), of one endpoint or all of them; the operator's: all, or one endpoint's
      const sends = accountId
        ? take(
            [...ctx.store.webhookSends.find('byAccount', accountId)].filter((s) => !endpointId || s.endpointId === endpointId),
            query.limit,
          )
        : listWebhookSends(ctx.store, endpointId, query.limit);
      res.json([...sends].map(formatWebhookSend));
    },
  }),
];
