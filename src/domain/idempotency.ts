// Idempotency of cash-out (docs/decisions.md#d27-idempotency-of-cash-out): the key header, the record that remembers the first
// answer, and the body fingerprint that tells a replay from a reuse of the key.
import { createHash } from 'node:crypto';
import { SandboxError } from './errors.js';
import type { IdempotencyRecord, New } from '../store/model.js';

export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
export const REPLAYED_HEADER = 'x-sandbox-idempotent-replayed';
const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The key from the header value; throws MISSING_IDEMPOTENCY_KEY or INVALID_IDEMPOTENCY_KEY. */
export function idempotencyKeyOf(header: string | undefined): string {
  if (header === undefined || header.trim() === '')
    throw new SandboxError('MISSING_IDEMPOTENCY_KEY', `the ${IDEMPOTENCY_HEADER} header is required: send a new UUID for each transfer`, [
      { path: `/headers/${IDEMPOTENCY_HEADER}`, message: 'is required' },
    ]);
  const key = header.trim();
  if (!KEY.test(key))
    throw new SandboxError(
      'INVALID_IDEMPOTENCY_KEY',
      `the ${IDEMPOTENCY_HEADER} header must be a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)`,
      [{ path: `/headers/${IDEMPOTENCY_HEADER}`, message: 'must be a UUID' }],
    );
  return key;
}

/** JSON with object keys sorted at every level, so that key order never changes the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** Keys are scoped to the principal; UUIDs compare without regard to letter case. */
export const idempotencyRecordId = (principalId: string, key: string): string => `${principalId}:${key.toLowerCase()}`;

export interface NewIdempotencyRecord {
  principalId: string;
  accountId: string;
  key: string;
  bodyHash: string;
  statusCode: number;
  body: unknown;
  now: Date;
}

export function buildIdempotencyRecord(n: NewIdempotencyRecord): New<IdempotencyRecord> {
  return {
    id: idempotencyRecordId(n.principalId, n.key),
    principalId: n.principalId,
    accountId: n.accountId,
    key: n.key,
    bodyHash: n.bodyHash,
    statusCode: n.statusCode,
    body: n.body,
    createdAt: n.now.toISOString(),
    expiresAt: new Date(n.now.getTime() + IDEMPOTENCY_TTL_SECONDS * 1000).toISOString(),
  };
}

/** A record past its 24 hours no longer binds the key, even before the worker prunes it. */
export const isLive = (r: Readonly<New<IdempotencyRecord>>, nowIso: string): boolean => r.expiresAt > nowIso;

export type IdempotencyDecision = { kind: 'new' } | { kind: 'replay'; statusCode: number; body: unknown };

/** What to do with a request, given the record its key names (if any). */
export function idempotencyDecision(
  record: Readonly<New<IdempotencyRecord>> | undefined,
  hash: string,
  nowIso: string,
): IdempotencyDecision {
  if (!record || !isLive(record, nowIso)) return { kind: 'new' };
  if (record.bodyHash !== hash)
    throw new SandboxError(
      'IDEMPOTENCY_KEY_REUSED',
      `the ${IDEMPOTENCY_HEADER} ${record.key} was already used with another request body; use a new key for a new transfer`,
    );
  return { kind: 'replay', statusCode: record.statusCode, body: record.body };
}
