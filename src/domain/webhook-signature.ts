// The signature (docs/webhooks.md#body-and-headers): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
// with the endpoint's secret. Pure; shared by the dispatcher and verifySignature().
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-sandbox-signature';
export const EVENT_ID_HEADER = 'x-sandbox-event-id';

/** The hex HMAC-SHA256 of `"<t>.<payload>"`. */
export function signatureOf(payload: string | Buffer, secret: string, t: number): string {
  return createHmac('sha256', secret).update(`${t}.`).update(payload).digest('hex');
}

/** The value of the x-sandbox-signature header for a body sent at unix second `t`. */
export function signatureHeader(payload: string | Buffer, secret: string, t: number): string {
  return `t=${t},v1=${signatureOf(payload, secret, t)}`;
}
