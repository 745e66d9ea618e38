// What a receiver calls to check that a webhook came from the sandbox (exported from the
// package entry). Kept free of any other sandbox module so that it is cheap to import.
import { timingSafeEqual } from 'node:crypto';
import { signatureOf } from '../domain/webhook-signature.js';

export interface VerifySignatureInput {
  /** the raw request body, exactly as received (not re-serialized JSON) */
  payload: string | Buffer;
  /** the value of the `x-sandbox-signature` header */
  header: string | null | undefined;
  /** the endpoint's secret */
  secret: string;
  /** how far `t` may be from `now`, in seconds (default 300; `Infinity` disables the check) */
  toleranceSeconds?: number;
  /** unix seconds to compare `t` with (default: the real clock) */
  now?: number;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

function parse(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) v1.push(value.toLowerCase());
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

/**
 * True when `header` carries a v1 signature of `payload` made with `secret`, and its timestamp is
 * within the tolerance. The comparison is constant-time. A missing or malformed header is false.
 */
export function verifySignature(input: VerifySignatureInput): boolean {
  const { payload, header, secret } = input;
  if (payload === undefined || payload === null) return false; // no body: nothing was signed
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload))
    throw new TypeError(
      'verifySignature: payload must be the raw body (string or Buffer), e.g. from express.raw({ type: "application/json" })',
    );
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('verifySignature: secret must be a non-empty string');
  if (typeof header !== 'string') return false;
  const parsed = parse(header);
  if (!parsed) return false;
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.t) > tolerance) return false;
  const expected = Buffer.from(signatureOf(payload, secret, parsed.t), 'utf8');
  let ok = false;
  for (const candidate of parsed.v1) {
    // every candidate is 64 hex characters (checked by parse), as long as `expected`
    if (timingSafeEqual(expected, Buffer.from(candidate, 'utf8'))) ok = true;
  }
  return ok;
}
