// /_sandbox/webhooks/faults and /_sandbox/webhooks/send (docs/webhooks.md#delivery-faults,
// docs/webhooks.md#sending-any-body). Thin: validate, run a service, answer. Registered before
// the webhook routes (src/app.ts), whose /_sandbox/webhooks/{id} would otherwise take these paths.
import type { AppContext } from '../context.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
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
import { validateQuery } from '../schemas/validator.js';
import { formatWebhookFault, formatWebhookSend } from '../webhooks/fault-format.js';
import { clearWebhookFaults, createWebhookFault, listWebhookFaults, removeWebhookFault } from '../services/webhook-faults.js';
import { listWebhookSends, sendWebhookBody } from '../services/webhook-send.js';

const BASE = '/_sandbox/webhooks';

export function webhookFaultRoutes(routes: Routes, ctx: AppContext): void {
  routes.get(`${BASE}/faults`, (req, res) => {
    const q = validateQuery<{ accountId?: string }>(webhookFaultsQuerySchema, req.query);
    res.json([...listWebhookFaults(ctx.store, q.accountId?.toLowerCase())].map(formatWebhookFault));
  });

  routes.post(`${BASE}/faults`, parseBody(), async (req, res) => {
    const input = readBody<WebhookFaultInput>(req, res, webhookFaultInputSchema, webhookFaultChecks);
    const fault = await ctx.store.commit((tx) => createWebhookFault(tx, ctx, input));
    res.status(201).json(formatWebhookFault(fault));
  });

  routes.delete(`${BASE}/faults`, async (req, res) => {
    const q = validateQuery<{ accountId?: string }>(webhookFaultsQuerySchema, req.query);
    await ctx.store.commit((tx) => clearWebhookFaults(tx, q.accountId?.toLowerCase()));
    res.status(204).end();
  });

  routes.delete(`${BASE}/faults/:id`, async (req, res) => {
    const id = uuidParam(req, 'id');
    await ctx.store.commit((tx) => removeWebhookFault(tx, id));
    res.status(204).end();
  });

  routes.post(`${BASE}/send`, parseBody(), async (req, res) => {
    const input = readBody<WebhookSendInput>(req, res, webhookSendInputSchema);
    res.json(await sendWebhookBody(ctx, input));
  });

  routes.get(`${BASE}/sends`, (req, res) => {
    const q = validateQuery<WebhookSendsQuery>(webhookSendsQuerySchema, req.query);
    res.json(listWebhookSends(ctx.store, q.endpointId?.toLowerCase(), q.limit).map(formatWebhookSend));
  });
}
