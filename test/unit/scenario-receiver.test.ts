import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Inbox, verifySignature } from '../../src/scenarios/receiver.js';

const SECRET = 'whsec_test_secret';
const sign = (raw: string, secret = SECRET, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
const event = (type: string, status: string) => JSON.stringify({ id: 'e1', type, createdAt: 'now', data: { transactionId: 'tx', status } });

describe('the scenario webhook receiver', () => {
  it('verifies x-sandbox-signature against the endpoint secret', () => {
    const raw = event('cashin.paid', 'PAID');
    expect(verifySignature(sign(raw), raw, SECRET)).toBeNull();
    expect(verifySignature(sign(raw, 'other-secret'), raw, SECRET)).toMatch(/does not match/);
    expect(verifySignature(sign(raw), raw + ' ', SECRET)).toMatch(/does not match/);
    expect(verifySignature(undefined, raw, SECRET)).toMatch(/no x-sandbox-signature/);
    expect(verifySignature('v1=abc', raw, SECRET)).toMatch(/malformed/);
    // right HMAC, but a t older than 5 minutes: a replay (a stale-signature fault sends one)
    expect(verifySignature(sign(raw, SECRET, Math.floor(Date.now() / 1000) - 600), raw, SECRET)).toMatch(/more than 300 s/);
  });

  it('answers 401 to a bad signature and never offers that delivery to a step', async () => {
    const inbox = new Inbox('a');
    inbox.secret = SECRET;
    const raw = event('cashin.paid', 'PAID');
    expect(inbox.receive({ 'x-sandbox-signature': sign(raw, 'wrong') }, raw)).toBe(401);
    expect(inbox.hits[0]).toMatchObject({ signatureValid: false, answered: 401 });
    expect(inbox.accepted()).toEqual([]);
    expect(await inbox.waitFor((h) => h[0], 20)).toBeNull();
  });

  it('fails the next N deliveries (an outage), then accepts', () => {
    const inbox = new Inbox('b');
    inbox.secret = SECRET;
    inbox.failNext = 2;
    inbox.failStatus = 503;
    const raw = event('cashin.created', 'WAITING_PAYMENT');
    const answers = [1, 2, 3].map(() => inbox.receive({ 'x-sandbox-signature': sign(raw) }, raw));
    expect(answers).toEqual([503, 503, 200]);
    expect(inbox.accepted()).toHaveLength(1);
  });

  it('de-duplicating, acknowledges an event id it has already taken and never offers the copy to a step', () => {
    const inbox = new Inbox('d');
    inbox.secret = SECRET;
    inbox.dedupe = true;
    const raw = event('cashin.paid', 'PAID');
    expect([1, 2].map(() => inbox.receive({ 'x-sandbox-signature': sign(raw) }, raw))).toEqual([200, 200]);
    expect(inbox.hits.map((h) => [h.consumed, h.duplicate ?? false])).toEqual([
      [false, false],
      [true, true],
    ]);
    expect(inbox.accepted().filter((h) => !h.consumed)).toHaveLength(1);
  });

  it('wakes a waiting step when a matching delivery arrives, within its bound', async () => {
    const inbox = new Inbox('c');
    inbox.secret = SECRET;
    const waiting = inbox.waitFor((hits) => hits.find((h) => h.event?.type === 'cashout.failed'), 2000);
    const raw = event('cashout.failed', 'FAILED');
    setTimeout(() => inbox.receive({ 'x-sandbox-signature': sign(raw) }, raw), 10);
    const hit = await waiting;
    expect(hit?.event).toMatchObject({ type: 'cashout.failed', data: { status: 'FAILED' } });
  });
});
