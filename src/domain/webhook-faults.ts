// Webhook delivery faults (docs/webhooks.md#delivery-faults), as plain functions over records:
// which fault applies to a delivery being queued, what it does to that delivery, how the first
// attempt of a touched delivery is signed, and which held (`reorder`) deliveries a finished one
// lets go. The service (src/services/webhook-faults.ts) and the dispatcher call them; nothing here
// reads a clock or the store.
import type { Delivery, DeliveryAttempt, FaultMark, New, WebhookFault } from '../store/model.js';
import { signatureHeader, signatureOf } from './webhook-signature.js';

/** A `reorder` fault holds its delivery this long (tenant clock) at most, waiting for the next event. */
const REORDER_HOLD_SECONDS = 60;
/** How old the `t` of a `stale-signature` attempt is: twice the usual 5-minute tolerance. */
export const STALE_SIGNATURE_SECONDS = 600;

/** What a queued delivery is matched on. */
export type DeliveryFacts = Pick<Delivery, 'accountId' | 'endpointId' | 'eventType' | 'transactionId'>;

function webhookFaultMatches(f: Readonly<WebhookFault>, d: DeliveryFacts): boolean {
  return (
    f.remaining > 0 &&
    f.accountId === d.accountId &&
    (f.endpointId === null || f.endpointId === d.endpointId) &&
    (f.eventType === null || f.eventType === d.eventType) &&
    (f.transactionId === null || f.transactionId === d.transactionId)
  );
}

/** The first matching fault in creation order (`faults` come oldest first). */
export function firstMatchingFault(faults: Iterable<Readonly<WebhookFault>>, d: DeliveryFacts): Readonly<WebhookFault> | undefined {
  for (const f of faults) if (webhookFaultMatches(f, d)) return f;
  return undefined;
}

const markOf = (f: Readonly<WebhookFault>): FaultMark => ({ id: f.id, action: f.action });

/**
 * The delivery as the fault leaves it, and for `duplicate` its copy (a second delivery of the same
 * event, queued after it, so both go out one after the other). `nowMs` is the tenant's clock.
 */
export function applyFault(
  d: Readonly<Delivery>,
  f: Readonly<WebhookFault>,
  nowMs: number,
  newId: () => string,
): { delivery: New<Delivery>; copy: New<Delivery> | null } {
  const fault = markOf(f);
  const { seq: _seq, ...base } = d;
  const delivery: New<Delivery> = { ...base, fault };
  const at = (seconds: number) => new Date(nowMs + seconds * 1000).toISOString();
  switch (f.action) {
    case 'duplicate':
      return { delivery, copy: { ...base, id: newId(), attempts: [], fault } };
    case 'reorder':
      return { delivery: { ...delivery, nextAttemptAt: at(REORDER_HOLD_SECONDS) }, copy: null };
    case 'delay':
      return { delivery: { ...delivery, nextAttemptAt: at(f.seconds ?? 0) }, copy: null };
    case 'drop':
      return { delivery: { ...delivery, status: 'DROPPED', nextAttemptAt: null }, copy: null };
    case 'bad-signature':
    case 'stale-signature':
      return { delivery, copy: null };
  }
}

/**
 * A `reorder` delivery that still waits for the next event of its transaction: it neither goes
 * nor holds back the events after it. Once released (or its 60 s are up) it is an ordinary delivery.
 */
export function isHeld(d: Readonly<Delivery>, nowIso: string): boolean {
  return d.fault?.action === 'reorder' && d.attempts.length === 0 && d.nextAttemptAt !== null && d.nextAttemptAt > nowIso;
}

/**
 * The x-sandbox-signature of the next attempt of `d` at unix second `t`: a touched delivery's first
 * attempt carries a signature that does not verify (`bad-signature`) or one over a `t` ten minutes
 * old (`stale-signature`); every other attempt is signed properly.
 */
export function signAttempt(d: Readonly<Delivery>, body: string, secret: string, t: number): string {
  const action = d.attempts.length === 0 ? d.fault?.action : undefined;
  if (action === 'bad-signature') return badSignatureHeader(body, secret, t);
  if (action === 'stale-signature') return signatureHeader(body, secret, t - STALE_SIGNATURE_SECONDS);
  return signatureHeader(body, secret, t);
}

/** A well-formed header whose v1 is not the HMAC of this body with this secret (every hex digit changed). */
export function badSignatureHeader(body: string, secret: string, t: number): string {
  const wrong = signatureOf(body, secret, t).replace(/[0-9a-f]/g, (c) => ((parseInt(c, 16) + 1) % 16).toString(16));
  return `t=${t},v1=${wrong}`;
}

/**
 * The attempt as logged: the first attempt of a delivery a fault touched carries the fault's mark
 * (the fault shaped its signature, when it went, or that it went twice); later ones are plain.
 */
export function markedAttempt(attempt: DeliveryAttempt, d: Readonly<Delivery>): DeliveryAttempt {
  return d.attempts.length === 0 && d.fault ? { ...attempt, fault: d.fault } : attempt;
}

/**
 * The held deliveries that `finished` lets go: those of the same endpoint and transaction, held by
 * `reorder`, whose event came before the one just delivered. Each goes at `nowIso`, right after it.
 */
export function releasedBy(
  finished: Readonly<Delivery>,
  sameTransaction: Iterable<Readonly<Delivery>>,
  occursBefore: (a: Readonly<Delivery>, b: Readonly<Delivery>) => boolean,
  nowIso: string,
): New<Delivery>[] {
  if (finished.status !== 'DELIVERED') return [];
  const out: New<Delivery>[] = [];
  for (const d of sameTransaction) {
    if (d.id === finished.id || d.endpointId !== finished.endpointId || d.status !== 'PENDING') continue;
    if (!isHeld(d, nowIso) || !occursBefore(d, finished)) continue;
    out.push({ ...d, nextAttemptAt: nowIso });
  }
  return out;
}
