// /_sandbox/webhooks (docs/webhooks.md#the-delivery-log-redelivery-and-firing): endpoints, the delivery log, redelivery and firing.
// Thin: validate, run a service from src/webhooks in one commit, answer. Delivery itself is
// the dispatcher's job, woken by the commit; no answer here waits for a receiver.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { controlTag, created, e, noContent, NOT_FOUND, ok } from '../schemas/operation.js';
import { paged } from '../schemas/paging.js';
import * as R from '../schemas/responses.js';
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
  type WebhookEndpointsQuery,
} from '../schemas/webhooks.js';
import type { Delivery } from '../store/model.js';
import { mergeBySeq, takePage, type Page } from '../store/page.js';
import type { Reads } from '../store/store.js';
import { clearEndpoints, createEndpoint, fireEvent, redeliver, removeEndpoint } from '../services/webhook-endpoints.js';
import { formatDelivery, formatDeliveryDetail, formatEndpoint } from '../webhooks/format.js';
import { sendPage } from './paging.js';
import { webhookEndpointChecks } from '../schemas/checks.js';

const BASE = '/_sandbox/webhooks';
const tag = controlTag('webhooks');
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

const endpointOf = (ctx: AppContext, d: Readonly<Delivery>) => ctx.store.webhookEndpoints.get(d.endpointId);

// `/{id}` never takes the fixed sub-paths (deliveries, fire): the table sends them to their own 405s
export const webhookControlOperations = [
  adminRoute<never, WebhookEndpointListQuery>({
    method: 'get',
    path: BASE,
    tag,
    summary: 'Webhook endpoints (secrets included), oldest first (pages of up to 1,000)',
    query: webhookEndpointListQuerySchema,
    responses: { 200: paged(R.webhookEndpointSchema) },
    handle({ ctx, req, res, query: q }) {
      const opts = { order: 'oldest', after: q.after } as const;
      const accountId = q.accountId?.toLowerCase();
      const source = accountId ? ctx.store.webhookEndpoints.find('byAccount', accountId, opts) : ctx.store.webhookEndpoints.scan(opts);
      sendPage(req, res, takePage(source, q.limit), formatEndpoint);
    },
  }),

  adminRoute<WebhookEndpointInput>({
    method: 'post',
    path: BASE,
    tag,
    summary: 'Register an endpoint',
    body: webhookEndpointInputSchema,
    check: webhookEndpointChecks,
    responses: { 201: created(R.webhookEndpointSchema), 404: e('NOT_FOUND', 'no such account') },
    async handle({ ctx, res, readBody }) {
      const input = readBody();
      const endpoint = await ctx.store.commit((tx) => createEndpoint(tx, ctx, input));
      res.status(201).json(formatEndpoint(endpoint));
    },
  }),

  adminRoute<never, WebhookEndpointsQuery>({
    method: 'delete',
    path: BASE,
    tag,
    summary: 'Remove every endpoint (or one account’s)',
    query: webhookEndpointsQuerySchema,
    responses: { 204: noContent },
    async handle({ ctx, res, query: q }) {
      await ctx.store.commit((tx) => clearEndpoints(tx, q.accountId?.toLowerCase()));
      res.status(204).end();
    },
  }),

  adminRoute<never, DeliveriesQuery>({
    method: 'get',
    path: `${BASE}/deliveries`,
    tag,
    summary: 'The delivery log, newest first (by creation), a page at a time',
    query: deliveriesQuerySchema,
    responses: { 200: paged(R.deliverySchema) },
    handle({ ctx, req, res, query: q }) {
      sendPage(req, res, listDeliveries(ctx.store, q), (d) => formatDelivery(d, endpointOf(ctx, d)));
    },
  }),

  adminRoute({
    method: 'get',
    path: `${BASE}/deliveries/{id}`,
    tag,
    summary: 'One delivery with the body its attempts send',
    responses: { 200: ok(R.deliveryDetailSchema) },
    handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      const d = ctx.store.deliveries.get(id);
      if (!d) throw notFound(`delivery ${id}`);
      res.json(formatDeliveryDetail(d, endpointOf(ctx, d), ctx.store.events.get(d.eventId)));
    },
  }),

  adminRoute({
    method: 'post',
    path: `${BASE}/deliveries/{id}/redeliver`,
    tag,
    summary: 'Redeliver: a new delivery for a finished one (201), or the next attempt now (200)',
    responses: {
      200: ok(R.deliverySchema),
      201: created(R.deliverySchema),
      409: e('INVALID_STATE', 'its endpoint was deleted or its event pruned'),
    },
    async handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      const { delivery, created } = await ctx.store.commit((tx) => redeliver(tx, ctx, id));
      if (!created) ctx.dispatcher?.wake(); // an existing delivery made due: no new record to wake the dispatcher
      res.status(created ? 201 : 200).json(formatDelivery(delivery, endpointOf(ctx, delivery)));
    },
  }),

  adminRoute<FireInput>({
    method: 'post',
    path: `${BASE}/fire`,
    tag,
    summary: 'Send an event for a transaction now',
    body: fireInputSchema,
    responses: { 201: created(R.fireResultSchema), 404: NOT_FOUND },
    async handle({ ctx, res, readBody }) {
      const input = readBody();
      const { event, deliveries } = await ctx.store.commit((tx) => fireEvent(tx, ctx, input.transactionId.toLowerCase(), input.type));
      res.status(201).json({
        event: { id: event.id, type: event.type, createdAt: event.createdAt, data: event.data },
        deliveries: deliveries.map((d) => formatDelivery(d, endpointOf(ctx, d))),
      });
    },
  }),

  adminRoute({
    method: 'get',
    path: `${BASE}/{id}`,
    tag,
    summary: 'One endpoint',
    responses: { 200: ok(R.webhookEndpointSchema) },
    handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      const e = ctx.store.webhookEndpoints.get(id);
      if (!e) throw notFound(`webhook endpoint ${id}`);
      res.json(formatEndpoint(e));
    },
  }),

  adminRoute({
    method: 'delete',
    path: `${BASE}/{id}`,
    tag,
    summary: 'Remove one endpoint (its waiting deliveries become DEAD)',
    responses: { 204: noContent },
    async handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      await ctx.store.commit((tx) => removeEndpoint(tx, id));
      res.status(204).end();
    },
  }),
];
