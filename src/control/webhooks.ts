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
  webhookEndpointListQuerySchema,
  webhookEndpointsQuerySchema,
  type DeliveriesQuery,
  type FireInput,
  type WebhookEndpointInput,
  type WebhookEndpointListQuery,
} from '../schemas/webhooks.js';
import { validateQuery } from '../schemas/validator.js';
import type { Delivery } from '../store/model.js';
import { mergeBySeq, takePage, type Page } from '../store/page.js';
import type { Reads } from '../store/store.js';
import { clearEndpoints, createEndpoint, fireEvent, redeliver, removeEndpoint } from '../webhooks/endpoints.js';
import { formatDelivery, formatDeliveryDetail, formatEndpoint } from '../webhooks/format.js';
import { sendPage } from './paging.js';

const BASE = '/_sandbox/webhooks';

// `/:id` must not swallow the fixed sub-paths: let them reach their own 405 answers
const FIXED = new Set(['deliveries', 'fire', 'faults', 'send', 'sends']);
const isFixed = (req: Request) => FIXED.has(String(req.params.id));
/** records looked at for one page when filters go beyond the index that serves the query */
const BUDGET = 5_000;

/**
 * The delivery log, one page, newest first, through the most selective index a filter names (an
 * event, a transaction, an endpoint, an account's endpoints, a status); the other filters are
 * applied on the way, looking at no more than BUDGET records for one page.
 */
export function listDeliveries(data: Reads, q: DeliveriesQuery): Page<Readonly<Delivery>> {
  const lower = (s?: string) => s?.toLowerCase();
  const [tid, eid, evid, aid] = [lower(q.transactionId), lower(q.endpointId), lower(q.eventId), lower(q.accountId)];
  const opts = { after: q.after };
  const d = data.deliveries;
  const source = evid
    ? d.find('byEvent', evid, opts)
    : tid
      ? d.find('byTransaction', tid, opts)
      : eid
        ? d.find('byEndpoint', eid, opts)
        : aid
          ? mergeBySeq([...data.webhookEndpoints.find('byAccount', aid)].map((e) => d.find('byEndpoint', e.id, opts)))
          : q.status
            ? d.find('byStatus', q.status, opts)
            : d.scan(opts);
  const keep = (x: Readonly<Delivery>) =>
    (!tid || x.transactionId === tid) &&
    (!eid || x.endpointId === eid) &&
    (!evid || x.eventId === evid) &&
    (!q.status || x.status === q.status) &&
    (!q.eventType || x.eventType === q.eventType) &&
    (!aid || data.webhookEndpoints.get(x.endpointId)?.accountId === aid);
  return takePage(source, q.limit, keep, BUDGET);
}

export function webhookControlRoutes(routes: Routes, ctx: AppContext): void {
  const endpointOf = (d: Readonly<Delivery>) => ctx.store.webhookEndpoints.get(d.endpointId);

  routes.get(BASE, (req, res) => {
    const q = validateQuery<WebhookEndpointListQuery>(webhookEndpointListQuerySchema, req.query);
    const opts = { order: 'oldest', after: q.after } as const;
    const accountId = q.accountId?.toLowerCase();
    const source = accountId ? ctx.store.webhookEndpoints.find('byAccount', accountId, opts) : ctx.store.webhookEndpoints.scan(opts);
    sendPage(req, res, takePage(source, q.limit), formatEndpoint);
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
    sendPage(req, res, listDeliveries(ctx.store, q), (d) => formatDelivery(d, endpointOf(d)));
  });

  routes.get(`${BASE}/deliveries/:id`, (req, res) => {
    const id = uuidParam(req, 'id');
    const d = ctx.store.deliveries.get(id);
    if (!d) throw notFound(`delivery ${id}`);
    res.json(formatDeliveryDetail(d, endpointOf(d), ctx.store.events.get(d.eventId)));
  });

  routes.post(`${BASE}/deliveries/:id/redeliver`, async (req, res) => {
    const id = uuidParam(req, 'id');
    const { delivery, created } = await ctx.store.commit((tx) => redeliver(tx, ctx, id));
    if (!created) ctx.dispatcher?.wake(); // an existing delivery made due: no new record to wake the dispatcher
    res.status(created ? 201 : 200).json(formatDelivery(delivery, endpointOf(delivery)));
  });

  routes.post(`${BASE}/fire`, parseBody(), async (req, res) => {
    const input = readBody<FireInput>(req, res, fireInputSchema);
    const { event, deliveries } = await ctx.store.commit((tx) => fireEvent(tx, ctx, input.transactionId.toLowerCase(), input.type));
    res.status(201).json({
      event: { id: event.id, type: event.type, createdAt: event.createdAt, data: event.data },
      deliveries: deliveries.map((d) => formatDelivery(d, endpointOf(d))),
    });
  });

  routes.get(`${BASE}/:id`, (req, res, next) => {
    if (isFixed(req)) return next();
    const id = uuidParam(req, 'id');
    const e = ctx.store.webhookEndpoints.get(id);
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
