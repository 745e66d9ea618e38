// Webhook endpoints, redelivery and firing (docs/webhooks.md#the-delivery-log-redelivery-and-firing): services applied inside one
// commit, called by the control API and at start-up (--webhook-url).
import { createHmac, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { EVENT_TYPES, eventTypeFor } from '../domain/events.js';
import { notFound, SandboxError } from '../domain/errors.js';
import { emitEvent, queueDelivery } from './events.js';
import { defaultAccount } from './accounts.js';
import type { Tx } from '../store/store.js';
import type { Delivery, EventType, New, WebhookEndpoint, WebhookEvent } from '../store/model.js';

export interface EndpointInput {
  url: string;
  events?: EventType[];
  accountId?: string;
  secret?: string;
}

const newSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

export function createEndpoint(tx: Tx, ctx: AppContext, input: EndpointInput): Readonly<WebhookEndpoint> {
  const accountId = input.accountId?.toLowerCase() ?? defaultAccount(tx)?.id;
  if (!accountId || !tx.accounts.has(accountId)) throw notFound(`account ${input.accountId ?? '(default)'}`);
  const endpoint: New<WebhookEndpoint> = {
    id: ctx.newId(),
    accountId,
    url: input.url,
    events: input.events ? [...new Set(input.events)] : null,
    secret: input.secret ?? newSecret(),
    source: 'api',
    createdAt: ctx.clockOf(accountId).nowIso(),
  };
  return tx.put('webhookEndpoints', endpoint);
}

/** Removes an endpoint; its deliveries still waiting are closed as DEAD (their log stays). */
export function removeEndpoint(tx: Tx, id: string): Readonly<WebhookEndpoint> {
  const endpoint = tx.remove('webhookEndpoints', id);
  if (!endpoint) throw notFound(`webhook endpoint ${id}`);
  // through the smaller of two indexes: the endpoint's deliveries, or every waiting one
  const byEndpoint = tx.deliveries.count('byEndpoint', id) <= tx.deliveries.count('byStatus', 'PENDING');
  const candidates = [...(byEndpoint ? tx.deliveries.find('byEndpoint', id) : tx.deliveries.find('byStatus', 'PENDING'))];
  for (const d of candidates)
    if (d.endpointId === id && d.status === 'PENDING') tx.put('deliveries', { ...d, status: 'DEAD', nextAttemptAt: null });
  return endpoint;
}

export function clearEndpoints(tx: Tx, accountId?: string): number {
  const source = accountId ? tx.webhookEndpoints.find('byAccount', accountId) : tx.webhookEndpoints.scan();
  const ids = [...source].map((e) => e.id);
  for (const id of ids) removeEndpoint(tx, id);
  return ids.length;
}

// One fixed id per account for the --webhook-url endpoint, so a restart finds it instead of adding another.
function configEndpointId(accountId: string): string {
  const h = createHmac('sha256', 'pix-sandbox:webhook-url').update(accountId).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Makes the store agree with `config.webhookUrl`: one endpoint (source 'config') for the default
 * account, created once and updated in place when the URL changes, removed when the option is
 * gone. Its secret derives from the store's signing secret, so it is stable across restarts and resets.
 */
export function ensureConfigEndpoint(tx: Tx, ctx: AppContext): Readonly<WebhookEndpoint> | null {
  const accountId = defaultAccount(tx)?.id;
  if (!accountId) return null;
  const id = configEndpointId(accountId);
  const existing = tx.webhookEndpoints.get(id);
  const url = ctx.config.webhookUrl;
  if (!url) {
    if (existing) removeEndpoint(tx, id);
    return null;
  }
  if (existing && existing.url === url) return existing;
  const secret = `whsec_${createHmac('sha256', tx.meta.signingSecret).update(`webhook-url:${accountId}`).digest('base64url').slice(0, 32)}`;
  const endpoint: New<WebhookEndpoint> = existing
    ? { ...existing, url }
    : { id, accountId, url, events: null, secret, source: 'config', createdAt: ctx.clockOf(accountId).nowIso() };
  return tx.put('webhookEndpoints', endpoint);
}

/**
 * A new attempt now. A PENDING delivery is brought forward (same record: a second copy would
 * queue behind it). A DELIVERED or DEAD one stays as history and a new delivery of the same
 * event (same event id, so receivers can de-duplicate) is queued, with a fresh retry schedule.
 */
export function redeliver(tx: Tx, ctx: AppContext, id: string): { delivery: Readonly<Delivery>; created: boolean } {
  const d = tx.deliveries.get(id);
  if (!d) throw notFound(`delivery ${id}`);
  const now = ctx.clockOf(d.accountId).nowIso();
  if (!tx.webhookEndpoints.has(d.endpointId))
    throw new SandboxError('INVALID_STATE', `the endpoint of delivery ${id} was deleted; register it again and fire the event`);
  const event = tx.events.get(d.eventId);
  if (!event) throw new SandboxError('INVALID_STATE', `the event of delivery ${id} no longer exists; fire a new one`);
  if (d.status === 'PENDING') {
    return { delivery: tx.put('deliveries', { ...d, nextAttemptAt: now }), created: false };
  }
  return { delivery: queueDelivery(tx, d.endpointId, event, now, ctx.newId), created: true };
}

/** Emits the event for a transaction's current status (or `type`) to its account's endpoints (filters apply). */
export function fireEvent(
  tx: Tx,
  ctx: AppContext,
  transactionId: string,
  type?: EventType,
): { event: New<WebhookEvent>; deliveries: Readonly<Delivery>[] } {
  const t = tx.transactions.get(transactionId);
  if (!t) throw notFound(`transaction ${transactionId}`);
  const prefix = t.type === 'CASH_IN' ? 'cashin.' : 'cashout.';
  if (type && !type.startsWith(prefix))
    throw new SandboxError('VALIDATION_ERROR', `type must be a ${prefix}* event for a ${t.type} transaction`, [
      { path: '/type', message: `must be one of ${EVENT_TYPES.filter((e) => e.startsWith(prefix)).join(', ')}` },
    ]);
  const event = emitEvent(tx, t, ctx.clockOf(t.accountId).nowIso(), ctx.newId, type ?? eventTypeFor(t));
  return { event, deliveries: [...tx.deliveries.find('byEvent', event.id, { order: 'oldest' })] };
}
