// The webhook probe (docs/report.md#webhook-signature): sends an endpoint a past event of its own three
// times — with a bad signature, correctly signed over a timestamp 600 s old, and correctly signed again
// (a duplicate of what it already had) — each kept in the send log as an audit send. A receiver that
// verifies signatures refuses the first two; one that de-duplicates takes the third in its stride.
import type { AppContext } from '../context.js';
import { eventBody } from '../domain/deliveries.js';
import { SandboxError } from '../domain/errors.js';
import { SEND_SIGNATURES, type SendSignature } from '../domain/vocabulary.js';
import type { New, WebhookEndpoint, WebhookEvent, WebhookSend } from '../store/model.js';
import type { Reads } from '../store/store.js';
import { sendAndLog } from './send-body.js';

/** The probe's sends, in the order made: the forged two first, the genuine duplicate last. */
const PROBE: readonly SendSignature[] = [...SEND_SIGNATURES.filter((s) => s !== 'valid'), 'valid'];

/** The newest event the endpoint was sent (a delivery of it), or undefined when it has had none. */
function pastEvent(data: Reads, endpointId: string): Readonly<WebhookEvent> | undefined {
  for (const d of data.deliveries.find('byEndpoint', endpointId)) {
    const event = data.events.get(d.eventId);
    if (event) return event;
  }
  return undefined;
}

export interface Audit {
  endpointId: string;
  eventId: string;
  sends: New<WebhookSend>[];
}

/** Probes one endpoint; 409 INVALID_STATE when it has been sent no event yet (there is nothing of its own to send). */
export async function auditEndpoint(ctx: AppContext, endpoint: Readonly<WebhookEndpoint>): Promise<Audit> {
  const event = pastEvent(ctx.store, endpoint.id);
  if (!event)
    throw new SandboxError('INVALID_STATE', `webhook endpoint ${endpoint.id} has been sent no event yet: nothing to probe it with`);
  const body = eventBody(event);
  const sends: New<WebhookSend>[] = [];
  // one at a time: a receiver sees them in this order
  for (const signature of PROBE) sends.push(await sendAndLog(ctx, { endpointId: endpoint.id, body, signature }, true));
  return { endpointId: endpoint.id, eventId: event.id, sends };
}

/** Probes every endpoint of the tenant that has been sent an event (the report's probe=true). */
export async function auditTenant(ctx: AppContext, accountId: string): Promise<Audit[]> {
  const out: Audit[] = [];
  for (const endpoint of [...ctx.store.webhookEndpoints.find('byAccount', accountId)])
    if (pastEvent(ctx.store, endpoint.id)) out.push(await auditEndpoint(ctx, endpoint));
  return out;
}
