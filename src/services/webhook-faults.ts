// Webhook delivery faults (docs/webhooks.md#delivery-faults): creating, listing and removing them,
// applying the first matching one to a delivery in the commit that queues it (spending one of its
// `times`), and letting `reorder`-held deliveries go once the next event is delivered. Faults are
// records of the store, so a restart keeps them and a reset clears them.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import type { WebhookFaultInput } from '../schemas/webhook-faults.js';
import type { Delivery, New, WebhookFault } from '../store/model.js';
import { heldKey } from '../store/schema.js';
import type { Reads, Tx } from '../store/store.js';
import { defaultAccount } from './accounts.js';
import { applyFault, firstMatchingFault, releasedBy } from '../domain/webhook-faults.js';
import { occursBefore } from '../domain/deliveries.js';

/** A fault belongs to its endpoint's tenant; without an endpoint, to `accountId` or the default account. */
export function createWebhookFault(tx: Tx, ctx: AppContext, input: WebhookFaultInput): Readonly<WebhookFault> {
  const endpointId = input.endpointId?.toLowerCase() ?? null;
  const given = input.accountId?.toLowerCase();
  let accountId: string | undefined;
  if (endpointId !== null) {
    const endpoint = tx.webhookEndpoints.get(endpointId);
    // an endpoint of another account than the one named is as unknown as a missing one
    if (!endpoint || (given && endpoint.accountId !== given)) throw notFound(`webhook endpoint ${endpointId}`);
    accountId = endpoint.accountId;
  } else {
    accountId = given ?? defaultAccount(tx)?.id;
    if (!accountId || !tx.accounts.has(accountId)) throw notFound(`account ${input.accountId ?? '(default)'}`);
  }
  const fault: New<WebhookFault> = {
    id: ctx.newId(),
    accountId,
    endpointId,
    eventType: input.eventType ?? null,
    transactionId: input.transactionId?.toLowerCase() ?? null,
    action: input.action,
    times: input.times,
    remaining: input.times,
    seconds: input.action === 'delay' ? (input.seconds ?? null) : null,
    createdAt: ctx.clockOf(accountId).nowIso(),
  };
  return tx.put('webhookFaults', fault);
}

/** Every fault (or one tenant's), oldest first: the order in which they are tried. */
export function listWebhookFaults(data: Reads, accountId?: string): IterableIterator<Readonly<WebhookFault>> {
  const opts = { order: 'oldest' } as const;
  return accountId ? data.webhookFaults.find('byAccount', accountId, opts) : data.webhookFaults.scan(opts);
}

export function removeWebhookFault(tx: Tx, id: string): void {
  if (!tx.remove('webhookFaults', id)) throw notFound(`webhook fault ${id}`);
}

export function clearWebhookFaults(tx: Tx, accountId?: string): number {
  const ids = [...listWebhookFaults(tx, accountId)].map((f) => f.id);
  for (const id of ids) tx.remove('webhookFaults', id);
  return ids.length;
}

/**
 * Called for each delivery queued for a new event: the first matching fault of its tenant, in
 * creation order, applies to it and is spent once (removed at 0). `now` is the tenant's clock at
 * the change that caused the event. Returns the delivery as it now is. Without a fault of the
 * tenant this costs one index lookup (none when no tenant has one).
 */
export function applyWebhookFaults(tx: Tx, d: Readonly<Delivery>, now: string, newId: () => string): Readonly<Delivery> {
  if (tx.webhookFaults.size === 0) return d;
  const fault = firstMatchingFault(tx.webhookFaults.find('byAccount', d.accountId, { order: 'oldest' }), d);
  if (!fault) return d;
  if (fault.remaining <= 1) tx.remove('webhookFaults', fault.id);
  else tx.put('webhookFaults', { ...fault, remaining: fault.remaining - 1 });
  const { delivery, copy } = applyFault(d, fault, Date.parse(now), newId);
  const stored = tx.put('deliveries', delivery);
  if (copy) tx.put('deliveries', copy);
  return stored;
}

/**
 * After an attempt is recorded: a delivery just DELIVERED lets go the `reorder`-held deliveries of
 * the same endpoint and transaction whose events came before it; they go right after it.
 */
export function releaseHeldDeliveries(tx: Tx, finished: Readonly<Delivery>, nowIso: string): void {
  if (finished.status !== 'DELIVERED') return;
  const eventOf = (id: string) => tx.events.get(id);
  const before = (a: Readonly<Delivery>, b: Readonly<Delivery>) => occursBefore(a, b, eventOf);
  // through the index of held deliveries: after a delivery no fault held back, one empty lookup
  const held = [...tx.deliveries.find('byHeld', heldKey(finished.endpointId, finished.transactionId))];
  for (const d of releasedBy(finished, held, before, nowIso)) tx.put('deliveries', d);
}
