// /_sandbox/webhooks (CONTRACT §8, §12): endpoints, the delivery log, redelivery and firing.
// Thin: validate, run a service from src/webhooks in one commit, answer. Delivery itself is
// the dispatcher's job, woken by the commit; no answer here waits for a receiver.
import type { Request } from 'express';
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import {
  deliveriesQuerySchema,
  fireInputSchema,
  webhookEndpointInputSchema,
  webhookEndpointsQuerySchema,
  type DeliveriesQuery,
  type FireInput,
  type WebhookEndpointInput,
} from '../schemas/webhooks.js';
import { validateQuery } from '../schemas/validator.js';
import type { Delivery } from '../store/model.js';
import { clearEndpoints, createEndpoint, fireEvent, redeliver, removeEndpoint } from '../webhooks/endpoints.js';
import { formatDelivery, formatDeliveryDetail, formatEndpoint } from '../webhooks/format.js';

const BASE = '/_sandbox/webhooks';

// `/:id` must not swallow the fixed sub-paths: let them reach their own 405 answers
const isFixed = (req: Request) => req.params.id === 'deliveries' || req.params.id === 'fire';

export function webhookControlRoutes(routes: Routes, ctx: AppContext): void {
  const endpointsOf = (accountId?: string) =>
    Object.values(ctx.store.data.webhookEndpoints)
      .filter((e) => !accountId || e.accountId === accountId.toLowerCase())
      .map(formatEndpoint);

  routes.get(BASE, (req, res) => {
    const q = validateQuery<{ accountId?: string }>(webhookEndpointsQuerySchema, req.query);
    res.json(endpointsOf(q.accountId));
  });

  routes.post(BASE, parseBody(), async (req, res) => {
    const input = readBody<WebhookEndpointInput>(req, res, webhookEndpointInputSchema);
    const endpoint = await ctx.store.commit((tx) => createEndpoint(tx, ctx, input));
    res.status(201).json(formatEndpoint(endpoint));
  });

  routes.delete(BASE, async (req, res) => {
    const q = validateQuery<{ accountId?: string }>(webhookEndpointsQuerySchema, req.query);
    await ctx.store.commit((tx) => clearEndpoints(tx, q.accountId?.toLowerCase()));
    res.status(204).end();
  });

  routes.get(`${BASE}/deliveries`, (req, res) => {
    const q = validateQuery<DeliveriesQuery>(deliveriesQuerySchema, req.query);
    const { deliveries, webhookEndpoints } = ctx.store.data;
    const lower = (s?: string) => s?.toLowerCase();
    const [tid, eid, evid, aid] = [lower(q.transactionId), lower(q.endpointId), lower(q.eventId), lower(q.accountId)];
    const keep = (d: Delivery) =>
      (!tid || d.transactionId === tid) &&
      (!eid || d.endpointId === eid) &&
      (!evid || d.eventId === evid) &&
      (!q.status || d.status === q.status) &&
      (!q.eventType || d.eventType === q.eventType) &&
      (!aid || webhookEndpoints[d.endpointId]?.accountId === aid);
    // newest first: records are kept in creation order, so walk them backwards
    const all = Object.values(deliveries);
    const out = [];
    for (let i = all.length - 1; i >= 0 && out.length < q.limit; i--) {
      const d = all[i]!;
      if (keep(d)) out.push(formatDelivery(d, webhookEndpoints[d.endpointId]));
    }
    res.json(out);
  });

  routes.get(`${BASE}/deliveries/:id`, (req, res) => {
    const id = uuidParam(req, 'id');
    const d = ctx.store.data.deliveries[id];
    if (!d) throw notFound(`delivery ${id}`);
    res.json(formatDeliveryDetail(d, ctx.store.data.webhookEndpoints[d.endpointId], ctx.store.data.events[d.eventId]));
  });

  routes.post(`${BASE}/deliveries/:id/redeliver`, async (req, res) => {
    const id = uuidParam(req, 'id');
    const { delivery, created } = await ctx.store.commit((tx) => redeliver(tx, ctx, id));
    if (!created) ctx.dispatcher?.wake(); // an existing delivery made due: no new record to wake the dispatcher
    res.status(created ? 201 : 200).json(formatDelivery(delivery, ctx.store.data.webhookEndpoints[delivery.endpointId]));
  });

  routes.post(`${BASE}/fire`, parseBody(), async (req, res) => {
    const input = readBody<FireInput>(req, res, fireInputSchema);
    const { event, deliveries } = await ctx.store.commit((tx) => fireEvent(tx, ctx, input.transactionId.toLowerCase(), input.type));
    res.status(201).json({
      event: { id: event.id, type: event.type, createdAt: event.createdAt, data: event.data },
      deliveries: deliveries.map((d) => formatDelivery(d, ctx.store.data.webhookEndpoints[d.endpointId])),
    });
  });

  routes.get(`${BASE}/:id`, (req, res, next) => {
    if (isFixed(req)) return next();
    const id = uuidParam(req, 'id');
    const e = ctx.store.data.webhookEndpoints[id];
    if (!e) throw notFound(`webhook endpoint ${id}`);
    res.json(formatEndpoint(e));
  });

  routes.delete(`${BASE}/:id`, async (req, res, next) => {
    if (isFixed(req)) return next();
    const id = uuidParam(req, 'id');
    await ctx.store.commit((tx) => removeEndpoint(tx, id));
    res.status(204).end();
  });
}
