import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/domain/errors.js';
import {
  bodyHash,
  buildIdempotencyRecord,
  canonicalJson,
  idempotencyDecision,
  idempotencyKeyOf,
  idempotencyRecordId,
  isLive,
} from '../../src/domain/idempotency.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const KEY = '123e4567-e89b-12d3-a456-426614174000';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as SandboxError).code;
  }
  return 'none';
}

describe('idempotencyKeyOf', () => {
  it('requires a UUID of any version', () => {
    expect(idempotencyKeyOf(KEY)).toBe(KEY);
    expect(idempotencyKeyOf('00000000-0000-0000-0000-000000000000')).toBe('00000000-0000-0000-0000-000000000000');
    expect(idempotencyKeyOf(KEY.toUpperCase())).toBe(KEY.toUpperCase());
    expect(codeOf(() => idempotencyKeyOf(undefined))).toBe('MISSING_IDEMPOTENCY_KEY');
    expect(codeOf(() => idempotencyKeyOf('  '))).toBe('MISSING_IDEMPOTENCY_KEY');
    for (const bad of ['abc', KEY.replace(/-/g, ''), `${KEY}0`, `{${KEY}}`, KEY.replace('a', 'g')])
      expect(codeOf(() => idempotencyKeyOf(bad))).toBe('INVALID_IDEMPOTENCY_KEY');
  });
});

describe('canonical body hash', () => {
  it('ignores key order but not values', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(bodyHash({ a: 1, b: '2' })).toBe(bodyHash({ b: '2', a: 1 }));
    expect(bodyHash({ a: 1, b: '2' })).not.toBe(bodyHash({ a: 1, b: 2 }));
    expect(bodyHash({ amount: '1500' })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('records', () => {
  const record = buildIdempotencyRecord({
    principalId: 'p',
    accountId: 'a',
    key: KEY.toUpperCase(),
    bodyHash: 'h',
    statusCode: 201,
    body: { ok: 1 },
    now: NOW,
  });

  it('are scoped to the principal and fold the key to lower case', () => {
    expect(record.id).toBe(`p:${KEY}`);
    expect(idempotencyRecordId('q', KEY)).not.toBe(record.id);
    expect(record.expiresAt).toBe('2026-03-02T12:00:00.000Z');
  });

  it('replay the same body, refuse another, and stop binding after 24 hours', () => {
    expect(idempotencyDecision(undefined, 'h', NOW.toISOString())).toEqual({ kind: 'new' });
    expect(idempotencyDecision(record, 'h', NOW.toISOString())).toEqual({ kind: 'replay', statusCode: 201, body: { ok: 1 } });
    expect(codeOf(() => idempotencyDecision(record, 'other', NOW.toISOString()))).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(idempotencyDecision(record, 'other', '2026-03-02T12:00:00.000Z')).toEqual({ kind: 'new' });
  });

  it('a record stops binding the instant its 24 hours end (the store prunes by that instant)', () => {
    const old = buildIdempotencyRecord({
      principalId: 'p',
      accountId: 'a',
      key: 'x',
      bodyHash: 'h',
      statusCode: 201,
      body: {},
      now: new Date(NOW.getTime() - 86_400_000),
    });
    expect(isLive(record, NOW.toISOString())).toBe(true);
    expect(isLive(old, NOW.toISOString())).toBe(false);
    expect(isLive(old, new Date(NOW.getTime() - 1).toISOString())).toBe(true);
  });
});
