// POST /_sandbox/webhooks/send (docs/webhooks.md#sending-any-body): any JSON body, sent once to an
// endpoint's URL with the usual headers, signed as asked (valid, bad, or over a stale `t`), and
// logged in the store's bounded send log. The attempt is made inside the request: it is the answer.
import type { AppContext } from '../context.js';
import { realClock } from '../clock/clock.js';
import { notFound } from '../domain/errors.js';
import type { Wire } from '../schemas/from-schema.js';
import type { WebhookSendInput } from '../schemas/webhook-faults.js';
import type { webhookSendResultSchema } from '../schemas/webhook-responses.js';
import type { New, WebhookSend } from '../store/model.js';
import { take } from '../store/page.js';
import type { Reads } from '../store/store.js';
import { badSignatureHeader, STALE_SIGNATURE_SECONDS } from '../domain/webhook-faults.js';
import { send, targetPolicyOf, webhookHeaders } from './send.js';
import { signatureHeader } from '../domain/webhook-signature.js';

/** sends kept in the log (oldest removed first) */
const MAX_SENDS_KEPT = 1000;

const eventIdOf = (body: unknown): string | undefined => {
  const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' && /^[\x21-\x7e]{1,200}$/.test(id) ? id : undefined;
};

export async function sendWebhookBody(ctx: AppContext, input: WebhookSendInput): Promise<Wire<typeof webhookSendResultSchema>> {
  const { attempt } = await sendAndLog(ctx, input, false);
  return { statusCode: attempt.statusCode, error: attempt.error, durationMs: attempt.durationMs };
}

/** Sends `input.body` once, signed as asked, and keeps it in the send log (`audit`: a send of the webhook probe, ./audit.ts). */
export async function sendAndLog(ctx: AppContext, input: WebhookSendInput, audit: boolean): Promise<New<WebhookSend>> {
  const endpointId = input.endpointId.toLowerCase();
  const endpoint = ctx.store.webhookEndpoints.get(endpointId);
  if (!endpoint) throw notFound(`webhook endpoint ${endpointId}`);
  const body = JSON.stringify(input.body);
  // the event id header: the body's own `id` when it has a plain one, so a receiver de-duplicates as it would
  const eventId = eventIdOf(input.body) ?? ctx.newId();
  const t = Math.floor(realClock.nowMs() / 1000);
  const signature =
    input.signature === 'bad'
      ? badSignatureHeader(body, endpoint.secret, t)
      : signatureHeader(body, endpoint.secret, input.signature === 'stale' ? t - STALE_SIGNATURE_SECONDS : t);
  const headers = webhookHeaders(ctx.version, eventId, signature);
  const at = ctx.clockOf(endpoint.accountId).nowIso();
  const r = await send(endpoint.url, body, headers, new AbortController().signal, { policy: targetPolicyOf(ctx.config) });
  const attempt = { at, statusCode: r.statusCode, error: r.error, durationMs: r.durationMs };
  const record: New<WebhookSend> = {
    id: ctx.newId(),
    accountId: endpoint.accountId,
    endpointId,
    url: endpoint.url,
    signature: input.signature,
    eventId,
    body,
    attempt,
    ...(audit ? { audit: true as const } : {}),
    createdAt: at,
  };
  await ctx.store.commit((tx) => {
    tx.put('webhookSends', record);
    // bounded by count, oldest first (creation order): reads only what it removes
    const excess = [...take(tx.webhookSends.scan({ order: 'oldest' }), tx.webhookSends.size - MAX_SENDS_KEPT)];
    for (const s of excess) tx.remove('webhookSends', s.id);
  });
  return record;
}

/** The send log, newest first (or one endpoint's). */
export function listWebhookSends(data: Reads, endpointId: string | undefined, limit: number): Readonly<WebhookSend>[] {
  const source = endpointId ? data.webhookSends.find('byEndpoint', endpointId) : data.webhookSends.scan();
  return [...take(source, limit)];
}
