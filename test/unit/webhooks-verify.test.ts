// verifySignature: what a receiver calls on each webhook (docs/webhooks.md#verifying-the-signature).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/verify.js';
import { signatureHeader } from '../../src/domain/webhook-signature.js';

const secret = 'whsec_test_secret';
const body =
  '{"id":"e1","type":"cashin.paid","createdAt":"2026-01-01T00:00:00.000Z","data":{"transactionId":"t1","type":"CASH_IN","status":"PAID","amount":1500}}';
const t = 1_767_225_600;

describe('verifySignature', () => {
  it('accepts the signature of the exact body, as a string or a Buffer, computed as the contract says', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    const header = signatureHeader(body, secret, t);
    expect(header).toBe(`t=${t},v1=${expected}`);
    expect(verifySignature({ payload: body, header, secret, now: t })).toBe(true);
    expect(verifySignature({ payload: Buffer.from(body), header, secret, now: t + 299 })).toBe(true);
  });

  it('rejects another secret, a changed body, a changed timestamp', () => {
    const header = signatureHeader(body, secret, t);
    expect(verifySignature({ payload: body, header, secret: 'whsec_other', now: t })).toBe(false);
    expect(verifySignature({ payload: body.replace('1500', '1501'), header, secret, now: t })).toBe(false);
    expect(verifySignature({ payload: body, header: header.replace(`t=${t}`, `t=${t + 1}`), secret, now: t })).toBe(false);
    // re-serialized JSON is not the raw body
    expect(verifySignature({ payload: JSON.stringify(JSON.parse(body), null, 2), header, secret, now: t })).toBe(false);
  });

  it('rejects a timestamp outside the tolerance, which can be widened or switched off', () => {
    const header = signatureHeader(body, secret, t);
    expect(verifySignature({ payload: body, header, secret, now: t + 301 })).toBe(false);
    expect(verifySignature({ payload: body, header, secret, now: t - 301 })).toBe(false);
    expect(verifySignature({ payload: body, header, secret, now: t + 3600, toleranceSeconds: 3600 })).toBe(true);
    expect(verifySignature({ payload: body, header, secret, now: t + 10 ** 7, toleranceSeconds: Infinity })).toBe(true);
    // default "now" is the real clock: an old timestamp fails
    expect(verifySignature({ payload: body, header, secret })).toBe(false);
    const fresh = signatureHeader(body, secret, Math.floor(Date.now() / 1000));
    expect(verifySignature({ payload: body, header: fresh, secret })).toBe(true);
  });

  it('is false for missing or malformed headers, and accepts any one of several v1 signatures', () => {
    const good = signatureHeader(body, secret, t);
    const v1 = good.split('v1=')[1]!;
    for (const header of [
      undefined,
      null,
      '',
      'garbage',
      `t=${t}`,
      `v1=${v1}`,
      `t=abc,v1=${v1}`,
      `t=${t},v1=${v1.slice(0, 63)}`,
      `t=${t},v1=${'z'.repeat(64)}`,
    ])
      expect(verifySignature({ payload: body, header, secret, now: t })).toBe(false);
    expect(verifySignature({ payload: body, header: `t=${t},v1=${'0'.repeat(64)},v1=${v1}`, secret, now: t })).toBe(true);
    expect(verifySignature({ payload: body, header: ` t=${t} , v1=${v1.toUpperCase()} `, secret, now: t })).toBe(true);
  });

  it('refuses a parsed body with a message that says what to pass', () => {
    expect(() => verifySignature({ payload: JSON.parse(body), header: signatureHeader(body, secret, t), secret })).toThrow(/raw body/);
    expect(() => verifySignature({ payload: body, header: 'x', secret: '' })).toThrow(/secret/);
  });
});
