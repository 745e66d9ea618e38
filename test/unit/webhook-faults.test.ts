// The webhook fault rules as plain functions: matching, what each action does to a queued delivery,
// how a touched first attempt is signed and marked, and which held deliveries a delivered one lets go.
import { describe, expect, it } from 'vitest';
import {
  applyFault,
  firstMatchingFault,
  isHeld,
  markedAttempt,
  releasedBy,
  signAttempt,
  STALE_SIGNATURE_SECONDS,
} from '../../src/domain/webhook-faults.js';
import { dueHeads } from '../../src/domain/deliveries.js';
import { signatureHeader } from '../../src/domain/webhook-signature.js';
import { verifySignature } from '../../src/webhooks/verify.js';
import { deliveryRecord, iso, T0 } from '../helpers/records.js';
import type { Delivery, WebhookFault } from '../../src/store/model.js';

const delivery = deliveryRecord;

function fault(over: Partial<WebhookFault> = {}): WebhookFault {
  return {
    seq: 1,
    id: 'f1',
    accountId: 'a1',
    endpointId: null,
    eventType: null,
    transactionId: null,
    action: 'drop',
    times: 1,
    remaining: 1,
    seconds: null,
    createdAt: iso(0),
    ...over,
  };
}

const facts = { accountId: 'a1', endpointId: 'ep1', eventType: 'cashin.created' as const, transactionId: 't1' };

describe('matching', () => {
  it('every filter a fault has must agree; the first match in the given (creation) order wins; other tenants never match', () => {
    const other = fault({ id: 'f0', accountId: 'a2' });
    const wrongType = fault({ id: 'f1', eventType: 'cashin.paid' });
    const wrongEndpoint = fault({ id: 'f2', endpointId: 'ep2' });
    const hit = fault({ id: 'f3', endpointId: 'ep1', transactionId: 't1' });
    const later = fault({ id: 'f4' });
    expect(firstMatchingFault([other, wrongType, wrongEndpoint, hit, later], facts)?.id).toBe('f3');
    expect(firstMatchingFault([other, wrongType], facts)).toBeUndefined();
    expect(firstMatchingFault([fault({ remaining: 0 })], facts)).toBeUndefined();
  });
});

describe('what each action does to the queued delivery', () => {
  const now = T0 + 5000;
  const newId = () => 'd2';
  it('duplicate: a second delivery of the same event, both marked', () => {
    const { delivery: d, copy } = applyFault(delivery(), fault({ action: 'duplicate' }), now, newId);
    expect(d.fault).toEqual({ id: 'f1', action: 'duplicate' });
    expect(copy).toMatchObject({ id: 'd2', eventId: 'e1', endpointId: 'ep1', status: 'PENDING', fault: { action: 'duplicate' } });
    expect(copy!.seq).toBeUndefined(); // a new record: the store gives it its seq
  });
  it('delay and reorder move the first attempt on the tenant clock; drop closes it DROPPED', () => {
    expect(applyFault(delivery(), fault({ action: 'delay', seconds: 30 }), now, newId).delivery.nextAttemptAt).toBe(iso(35));
    expect(applyFault(delivery(), fault({ action: 'reorder' }), now, newId).delivery.nextAttemptAt).toBe(iso(65));
    expect(applyFault(delivery(), fault({ action: 'drop' }), now, newId).delivery).toMatchObject({
      status: 'DROPPED',
      nextAttemptAt: null,
    });
  });
});

describe('signing and marking attempts', () => {
  const body = '{"id":"e1"}';
  const t = Math.floor(T0 / 1000);
  const ok = (header: string, now = t) => verifySignature({ payload: body, header, secret: 's3cret', now });
  it('bad-signature and stale-signature spoil the first attempt only', () => {
    const bad = delivery({ fault: { id: 'f1', action: 'bad-signature' } });
    expect(ok(signAttempt(bad, body, 's3cret', t))).toBe(false);
    expect(ok(signAttempt({ ...bad, attempts: [{ at: iso(0), statusCode: 401, error: null, durationMs: 1 }] }, body, 's3cret', t))).toBe(
      true,
    );
    const stale = delivery({ fault: { id: 'f1', action: 'stale-signature' } });
    expect(signAttempt(stale, body, 's3cret', t)).toBe(signatureHeader(body, 's3cret', t - STALE_SIGNATURE_SECONDS));
    expect(ok(signAttempt(stale, body, 's3cret', t))).toBe(false);
    expect(ok(signAttempt(delivery(), body, 's3cret', t))).toBe(true);
  });
  it('the first attempt of a touched delivery carries the mark, later ones do not', () => {
    const a = { at: iso(0), statusCode: 200, error: null, durationMs: 1 };
    const d = delivery({ fault: { id: 'f1', action: 'delay' } });
    expect(markedAttempt(a, d)).toEqual({ ...a, fault: { id: 'f1', action: 'delay' } });
    expect(markedAttempt(a, { ...d, attempts: [a] })).toEqual(a);
    expect(markedAttempt(a, delivery())).toEqual(a);
  });
});

describe('reorder', () => {
  const created = delivery({ id: 'c', eventId: 'e1', fault: { id: 'f1', action: 'reorder' }, nextAttemptAt: iso(60) });
  const paid = delivery({ id: 'p', eventId: 'e2', eventType: 'cashin.paid', createdAt: iso(1), nextAttemptAt: iso(1) });
  const before = (a: Readonly<Delivery>, b: Readonly<Delivery>) => a.createdAt < b.createdAt;
  it('a held delivery does not hold back the next event of its transaction, until its 60 s are up', () => {
    const list = [created, paid];
    const heads = (now: string) =>
      dueHeads(
        list,
        () => list,
        () => undefined,
        now,
      ).map((d) => d.id);
    expect(isHeld(created, iso(2))).toBe(true);
    expect(heads(iso(2))).toEqual(['p']);
    expect(isHeld(created, iso(60))).toBe(false);
    expect(heads(iso(60))).toEqual(['c']); // its time is up: ordinary again, first in line
  });
  it('is let go, at once, by a later event of the pair that is delivered; not by an earlier one or another endpoint', () => {
    const delivered = { ...paid, status: 'DELIVERED' as const };
    expect(releasedBy(delivered, [created, delivered], before, iso(2))).toEqual([{ ...created, nextAttemptAt: iso(2) }]);
    expect(releasedBy({ ...delivered, status: 'DEAD' }, [created], before, iso(2))).toEqual([]);
    expect(releasedBy({ ...delivered, endpointId: 'ep2' }, [created], before, iso(2))).toEqual([]);
    expect(releasedBy({ ...delivered, createdAt: iso(-1) }, [created], before, iso(2))).toEqual([]);
  });
});
