// The checks of the integration report (src/domain/report-checks.ts) as pure functions of a tenant's
// facts: each flags what it must, and stays quiet on what a careful app does (docs/report.md, D84).
import { describe, expect, it } from 'vitest';
import type { DeliveryFact, Exchange, ReportFacts } from '../../src/domain/report.js';
import { runChecks } from '../../src/domain/report-checks.js';
import { FAILURE_MODES, REPORT_CHECKS } from '../../src/domain/vocabulary.js';

const T0 = 1_800_000_000_000;
let seq = 0;
/** An exchange, by default a balance call of client "app" answered 200. */
function x(o: Partial<Exchange> = {}): Exchange {
  seq++;
  return {
    seq,
    atMs: T0 + seq,
    clockMs: T0 + seq,
    durationMs: 1,
    method: 'GET',
    path: '/v1/banking/balance',
    status: 200,
    client: 'app',
    tokenRequest: false,
    idempotencyKey: null,
    cashOutBody: null,
    errorCode: null,
    retryAfterS: null,
    plain: false,
    injected: false,
    ...o,
  };
}
const token = (o: Partial<Exchange> = {}) => x({ method: 'POST', path: '/v1/oauth/token', tokenRequest: true, ...o });
const cashOut = (body: string, key: string, o: Partial<Exchange> = {}) =>
  x({ method: 'POST', path: '/v1/banking/cash-out/pix', cashOutBody: body, idempotencyKey: key, status: 201, ...o });
const lookup = (id: string, atMs: number) => x({ path: `/v1/banking/transactions/${id}`, atMs });

function facts(exchanges: Exchange[], o: Partial<ReportFacts> = {}): ReportFacts {
  return { exchanges, deliveries: [], sends: [], hasEndpoint: true, httpsOn: false, failedTransfers: [], expiredCharges: [], ...o };
}
const check = (f: ReportFacts, id: string) => runChecks(f).find((c) => c.id === id)!;
const outcome = (f: ReportFacts, id: string) => check(f, id).outcome;

describe('the report checks', () => {
  it('lists every check in order, each with its docs link, and says not-exercised on no facts', () => {
    const r = runChecks(facts([]));
    expect(r.map((c) => c.id)).toEqual([...REPORT_CHECKS]);
    for (const c of r) {
      expect(c.docs).toBe(`docs/report.md#${c.id}`);
      expect(c.advice).toMatch(/\.$/);
    }
    expect(r.filter((c) => c.outcome !== 'not-exercised').map((c) => c.id)).toEqual(['failure-coverage']);
  });

  it('token-reuse: more than 3 tokens of one client within 300 s of the tenant clock; clients apart; a clock advanced between tokens', () => {
    const four = [token(), token(), token(), token()];
    expect(check(facts(four), 'token-reuse')).toMatchObject({ outcome: 'fail', count: 4, evidence: four.map((t) => t.seq) });
    expect(
      outcome(facts([token({ client: 'a' }), token({ client: 'a' }), token({ client: 'a' }), token({ client: 'b' })]), 'token-reuse'),
    ).toBe('pass');
    // one token per lifetime, the clock advanced 301 s before each: real seconds apart, a lifetime each
    const spread = [0, 1, 2, 3, 4].map((i) => token({ clockMs: T0 + i * 301_000 }));
    expect(outcome(facts(spread), 'token-reuse')).toBe('pass');
    // a refused token request is no token
    expect(outcome(facts([token(), token(), token(), token({ status: 401 })]), 'token-reuse')).toBe('pass');
  });

  it('expired-token-recovery: a token after the 401, then the same method and path', () => {
    const expired = x({ status: 401, errorCode: 'TOKEN_EXPIRED' });
    expect(outcome(facts([expired, token(), x()]), 'expired-token-recovery')).toBe('pass');
    const lost = x({ status: 401, errorCode: 'TOKEN_EXPIRED' });
    expect(check(facts([lost, token(), x({ path: '/v1/merchants' })]), 'expired-token-recovery')).toMatchObject({
      outcome: 'fail',
      evidence: [lost.seq],
    });
    // the same request again without a new token is no recovery
    const again = x({ status: 401, errorCode: 'TOKEN_EXPIRED' });
    expect(outcome(facts([again, x()]), 'expired-token-recovery')).toBe('fail');
  });

  it('idempotent-retry: after a 5xx or 429 the same body keeps its key; a 4xx is not a failure to retry', () => {
    const failed = cashOut('{"a":1}', 'k1', { status: 503 });
    const retry = cashOut('{"a":1}', 'k2');
    expect(check(facts([failed, retry]), 'idempotent-retry')).toMatchObject({ outcome: 'fail', evidence: [failed.seq, retry.seq] });
    expect(outcome(facts([cashOut('{"a":1}', 'k1', { status: 429 }), cashOut('{"a":1}', 'k1')]), 'idempotent-retry')).toBe('pass');
    // refused for its content, then corrected or sent anew: under a new key, rightly
    expect(outcome(facts([cashOut('{"a":1}', 'k1', { status: 400 }), cashOut('{"a":1}', 'k2')]), 'idempotent-retry')).toBe('not-exercised');
    // another cash-out (another body) after a failure is not its retry
    expect(outcome(facts([cashOut('{"a":1}', 'k1', { status: 503 }), cashOut('{"a":2}', 'k2')]), 'idempotent-retry')).toBe('not-exercised');
  });

  it('idempotency-key-reuse: any IDEMPOTENCY_KEY_REUSED', () => {
    const reused = cashOut('{"a":2}', 'k1', { status: 422, errorCode: 'IDEMPOTENCY_KEY_REUSED' });
    expect(check(facts([cashOut('{"a":1}', 'k1'), reused]), 'idempotency-key-reuse')).toMatchObject({
      outcome: 'fail',
      evidence: [reused.seq],
    });
    expect(outcome(facts([cashOut('{"a":1}', 'k1')]), 'idempotency-key-reuse')).toBe('pass');
  });

  it('retry-after: the same client waits the seconds asked (1 s without Retry-After); another client is not judged', () => {
    const limited = x({ status: 429, retryAfterS: 2, atMs: T0, durationMs: 5 });
    expect(outcome(facts([limited, x({ atMs: T0 + 2_005 })]), 'retry-after')).toBe('pass');
    const early = x({ atMs: T0 + 1_000 });
    expect(check(facts([limited, early]), 'retry-after')).toMatchObject({ outcome: 'fail', evidence: [limited.seq, early.seq] });
    const bare = x({ status: 429, atMs: T0, durationMs: 0 });
    expect(outcome(facts([bare, x({ atMs: T0 + 500 })]), 'retry-after')).toBe('fail');
    expect(outcome(facts([bare, x({ atMs: T0 + 1_000 })]), 'retry-after')).toBe('pass');
    expect(outcome(facts([limited, x({ client: 'other', atMs: T0 + 10 }), x({ atMs: T0 + 2_100 })]), 'retry-after')).toBe('pass');
  });

  it('polling: more than 10 lookups of one transaction within a minute, only with a webhook endpoint', () => {
    const burst = Array.from({ length: 11 }, (_, i) => lookup('t1', T0 + i * 1000));
    expect(check(facts(burst), 'polling')).toMatchObject({ outcome: 'warn', count: 11, evidence: burst.map((l) => l.seq) });
    expect(outcome(facts(burst, { hasEndpoint: false }), 'polling')).toBe('pass');
    const slow = Array.from({ length: 20 }, (_, i) => lookup('t2', T0 + i * 7_000));
    expect(outcome(facts(slow), 'polling')).toBe('pass');
    const many = Array.from({ length: 20 }, (_, i) => lookup(`t${i % 2}`, T0 + i * 1000));
    expect(outcome(facts(many), 'polling')).toBe('pass');
  });

  it('webhook-ack: a non-2xx, an error or over 5 s fails; a delivery a fault shaped is not judged', () => {
    const d = (id: string, statusCode: number | null, durationMs = 10, fault: DeliveryFact['fault'] = null): DeliveryFact => ({
      id,
      fault,
      attempts: [{ statusCode, error: statusCode === null ? 'ECONNREFUSED' : null, durationMs, fault }],
    });
    expect(outcome(facts([], { deliveries: [d('a', 200), d('b', 204)] }), 'webhook-ack')).toBe('pass');
    expect(check(facts([], { deliveries: [d('a', 200), d('b', 500), d('c', null), d('e', 200, 6_000)] }), 'webhook-ack')).toMatchObject({
      outcome: 'fail',
      evidence: ['b', 'c', 'e'],
    });
    expect(outcome(facts([], { deliveries: [d('a', 400, 10, 'bad-signature')] }), 'webhook-ack')).toBe('not-exercised');
  });

  it('webhook-signature: a bad or stale send, or a signature fault, answered 2xx fails', () => {
    const send = (id: string, signature: 'valid' | 'bad' | 'stale', statusCode: number) => ({ id, signature, audit: true, statusCode });
    expect(
      outcome(facts([], { sends: [send('s1', 'bad', 401), send('s2', 'stale', 401), send('s3', 'valid', 200)] }), 'webhook-signature'),
    ).toBe('pass');
    expect(check(facts([], { sends: [send('s1', 'bad', 401), send('s2', 'stale', 200)] }), 'webhook-signature').evidence).toEqual(['s2']);
    const forged: DeliveryFact = {
      id: 'd1',
      fault: 'bad-signature',
      attempts: [{ statusCode: 200, error: null, durationMs: 1, fault: 'bad-signature' }],
    };
    expect(check(facts([], { deliveries: [forged] }), 'webhook-signature')).toMatchObject({ outcome: 'fail', evidence: ['d1'] });
  });

  it("validation-errors: 400s and content 422s by code; not the account's state, not injected faults", () => {
    const f = facts([
      x({ status: 400, errorCode: 'VALIDATION_ERROR' }),
      x({ status: 400, errorCode: 'VALIDATION_ERROR' }),
      x({ status: 400, errorCode: 'INVALID_JSON' }),
      x({ status: 422, errorCode: 'INSUFFICIENT_FUNDS' }),
      x({ status: 400, errorCode: 'INJECTED', injected: true }),
      x({ status: 401, errorCode: 'TOKEN_EXPIRED' }),
    ]);
    expect(check(f, 'validation-errors')).toMatchObject({ outcome: 'warn', count: 3, detail: 'VALIDATION_ERROR ×2, INVALID_JSON ×1' });
    expect(outcome(facts([x(), x({ status: 422, errorCode: 'INSUFFICIENT_FUNDS' })]), 'validation-errors')).toBe('pass');
  });

  it('plain-http: only while HTTPS is on', () => {
    const plain = x({ plain: true });
    expect(check(facts([plain, x()], { httpsOn: true }), 'plain-http')).toMatchObject({ outcome: 'warn', evidence: [plain.seq] });
    expect(outcome(facts([x()], { httpsOn: true }), 'plain-http')).toBe('pass');
    expect(outcome(facts([plain], { httpsOn: false }), 'plain-http')).toBe('not-exercised');
  });

  it('failure-coverage: every mode met passes, with one piece of evidence each', () => {
    const dl = (id: string, fault: DeliveryFact['fault'], attempts = 1): DeliveryFact => ({
      id,
      fault,
      attempts: Array.from({ length: attempts }, () => ({ statusCode: 200, error: null, durationMs: 1, fault })),
    });
    const all = facts(
      [
        x({ status: 401, errorCode: 'TOKEN_EXPIRED' }),
        x({ status: 429 }),
        x({ status: 503 }),
        x({ status: 422, errorCode: 'INSUFFICIENT_FUNDS' }),
      ],
      {
        failedTransfers: ['t1'],
        expiredCharges: ['c1'],
        deliveries: [dl('r', null, 2), dl('dup', 'duplicate'), dl('re', 'reorder'), dl('de', 'delay')],
        sends: [{ id: 's', signature: 'bad', audit: true, statusCode: 401 }],
      },
    );
    expect(check(all, 'failure-coverage')).toMatchObject({ outcome: 'pass', count: FAILURE_MODES.length, detail: '11/11 met' });
    expect(check(all, 'failure-coverage').evidence).toHaveLength(FAILURE_MODES.length);
  });
});
