// Pure parts of the control stages: fault path patterns, the seeded PRNG, journal redaction.
import { describe, expect, it } from 'vitest';
import { pathMatches } from '../../src/domain/request-match.js';
import { mulberry32 } from '../../src/domain/random.js';
import { redact, redactText, REDACTED } from '../../src/http/redact.js';

describe('fault path patterns', () => {
  it.each([
    ['/v1/banking/balance', '/v1/banking/balance', true],
    ['/v1/banking/balance', '/v1/banking/balance/', true],
    ['/v1/banking/balance/', '/v1/banking/balance', true],
    ['/v1/banking/balance', '/v1/banking', false],
    ['/v1/banking/balance', '/v1/banking/balance/x', false],
    ['/v1/banking/transactions/:id', '/v1/banking/transactions/abc', true],
    ['/v1/banking/transactions/*', '/v1/banking/transactions', false],
    ['/v1/*/balance', '/v1/merchants/balance', true],
    ['/v1/**', '/v1', true],
    ['/v1/**', '/v1/a/b/c', true],
    ['/v1/**', '/v2/a', false],
    ['/**', '/anything/at/all', true],
    ['/v1/:', '/v1/x', false], // a bare colon is a literal segment
    ['/v1/bank', '/v1/banking', false], // a segment is equal whole, not by its start
    ['/v1/banking', '/v1/bank', false],
    ['/v1/banking/:id', '//v1//banking///x//', true], // empty segments are skipped
    ['/', '/', true],
    ['/', '/x', false],
    ['/v1/**/x', '/v1/**/x', true], // a `**` before the end is a literal segment
    ['/v1/**/x', '/v1/a/x', false],
  ])('%s against %s → %s', (pattern, path, expected) => {
    expect(pathMatches(pattern, path)).toBe(expected);
  });
});

describe('mulberry32', () => {
  it('gives the same sequence for the same seed, in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });
});

describe('journal redaction', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzYW5kYm94In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
  it('replaces secret fields at any depth, keeping the Authorization scheme', () => {
    const out = redact({
      authorization: 'Bearer abc.def.ghi',
      'X-Sandbox-Admin-Token': 'admin',
      nested: [{ Client_Secret: 's', access_token: 't', keep: 'visible' }],
      text: jwt,
    });
    expect(out).toEqual({
      authorization: `Bearer ${REDACTED}`,
      'X-Sandbox-Admin-Token': REDACTED,
      nested: [{ Client_Secret: REDACTED, access_token: REDACTED, keep: 'visible' }],
      text: REDACTED,
    });
  });

  it('shortens long strings and leaves the input untouched', () => {
    const input = { qr: 'x'.repeat(5000) };
    const out = redact(input) as { qr: string };
    expect(out.qr.length).toBeLessThan(600);
    expect(out.qr).toContain('5000 characters');
    expect(input.qr.length).toBe(5000);
  });

  it('redacts secret query parameters', () => {
    expect(redactText('/v1/x?client_secret=s3&page=2')).toBe(`/v1/x?client_secret=${REDACTED}&page=2`);
    expect(redactText(`/v1/x?t=${jwt}`)).toBe(`/v1/x?t=${REDACTED}`);
    expect(redactText('/v1/x')).toBe('/v1/x');
  });
});
