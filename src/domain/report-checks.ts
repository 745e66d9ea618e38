// The checks of the integration report (docs/report.md), one pure function each over a tenant's facts
// (./report.ts). Each says pass only on behaviour it saw, and stays quiet on what a careful app does:
// a retry of a 4xx is not a retry of a failure, tokens are counted per client, a 429 without Retry-After
// asks for 1 s. Costs: each check walks the exchanges once (with a map or an index beside them).
import { FAILURE_MODES, REPORT_CHECKS, WEBHOOK_FAULT_ACTIONS, type ReportCheckId, type WebhookFaultAction } from './vocabulary.js';
import { resultOf, type CheckResult, type Coverage, type Evidence, type Exchange, type ReportFacts, type Verdict } from './report.js';

/** A token lives 300 s of the tenant's clock (docs/api.md#tokens); more than 3 in one lifetime is a token per call. */
const TOKEN_LIFETIME_MS = 300_000;
const MAX_TOKENS_PER_LIFETIME = 3;
/** Polling: more than 10 lookups of one transaction within 60 s of real time. */
const POLL_WINDOW_MS = 60_000;
const MAX_LOOKUPS_PER_WINDOW = 10;
/** A webhook answered after this long is as good as unanswered (the receiver should answer first, work after). */
const ACK_WITHIN_MS = 5_000;
/** A 429 without Retry-After asks for this much (docs/report.md#retry-after). */
const DEFAULT_RETRY_AFTER_S = 1;
/** Rounding of the journal's millisecond times: a request this much early is on time. */
const ON_TIME_SLACK_MS = 10;

const CASH_OUT = '/v1/banking/cash-out/pix';
const LOOKUP = /^\/v1\/banking\/transactions\/([^/]+)$/;
/** 422s that come of the account's state or have a check of their own, not of a request's content */
const NOT_CONTENT = new Set(['INSUFFICIENT_FUNDS', 'IDEMPOTENCY_KEY_REUSED', 'WALLET_NOT_ACTIVE']);

const verdict = (outcome: Verdict['outcome'], count: number, evidence: Evidence[] = [], detail = ''): Verdict => ({
  outcome,
  count,
  evidence,
  detail,
});
const is2xx = (s: number | null) => s !== null && s >= 200 && s < 300;
const plural = (n: number, word: string) => `${n} ${n === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;

/** The members of every run of sorted `xs` longer than `max` within `windowMs` (two pointers: O(n)). */
function crowded(xs: Exchange[], timeOf: (x: Exchange) => number, windowMs: number, max: number): Set<Exchange> {
  const out = new Set<Exchange>();
  let lo = 0;
  for (let hi = 0; hi < xs.length; hi++) {
    while (timeOf(xs[hi]!) - timeOf(xs[lo]!) >= windowMs) lo++;
    if (hi - lo + 1 > max) for (let i = lo; i <= hi; i++) out.add(xs[i]!);
  }
  return out;
}

const bySeq = (a: Exchange, b: Exchange) => a.seq - b.seq;
const groupBy = (xs: Exchange[], key: (x: Exchange) => string | null): Map<string, Exchange[]> => {
  const m = new Map<string, Exchange[]>();
  for (const x of xs) {
    const k = key(x);
    if (k === null) continue;
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
};

function tokenReuse(f: ReportFacts): Verdict {
  const issued = f.exchanges.filter((x) => x.tokenRequest && x.status === 200);
  if (issued.length === 0) return verdict('not-exercised', 0);
  const flagged: Exchange[] = [];
  const clients: string[] = [];
  for (const [client, tokens] of groupBy(issued, (x) => x.client)) {
    const crowd = crowded(
      [...tokens].sort((a, b) => a.clockMs - b.clockMs),
      (x) => x.clockMs,
      TOKEN_LIFETIME_MS,
      MAX_TOKENS_PER_LIFETIME,
    );
    if (crowd.size === 0) continue;
    flagged.push(...crowd);
    clients.push(client);
  }
  if (flagged.length === 0) return verdict('pass', issued.length, [], `${plural(issued.length, 'token')} issued`);
  const seqs = flagged.sort(bySeq).map((x) => x.seq);
  return verdict('fail', issued.length, seqs, `more than ${MAX_TOKENS_PER_LIFETIME} tokens within 300 s for client ${clients.join(', ')}`);
}

/** After each 401 TOKEN_EXPIRED: a token issued, then the same method and path again. */
function expiredTokenRecovery(f: ReportFacts): Verdict {
  const xs = f.exchanges;
  const expired = xs.map((x, i) => [x, i] as const).filter(([x]) => x.status === 401 && x.errorCode === 'TOKEN_EXPIRED');
  if (expired.length === 0) return verdict('not-exercised', 0);
  // for each position, the next token issued (scanning back once), and the positions of each request kind
  const nextToken = new Array<number>(xs.length + 1).fill(Infinity);
  for (let i = xs.length - 1; i >= 0; i--) nextToken[i] = xs[i]!.tokenRequest && xs[i]!.status === 200 ? i : nextToken[i + 1]!;
  const kinds = new Map<string, number[]>();
  xs.forEach((x, i) => {
    if (x.tokenRequest) return;
    const k = `${x.method} ${x.path}`;
    const at = kinds.get(k);
    if (at) at.push(i);
    else kinds.set(k, [i]);
  });
  const missed = expired.filter(([x, i]) => {
    const token = nextToken[i + 1]!;
    // ascending positions: the last one tells whether any came after the token
    return !(token < Infinity && (kinds.get(`${x.method} ${x.path}`)?.at(-1) ?? -1) > token);
  });
  if (missed.length === 0)
    return verdict(
      'pass',
      expired.length,
      expired.map(([x]) => x.seq),
      `${plural(expired.length, 'expired token')} replaced`,
    );
  return verdict(
    'fail',
    expired.length,
    missed.map(([x]) => x.seq),
    `${missed.length} of ${plural(expired.length, 'expired-token answer')} not followed by a new token and the same request`,
  );
}

/** A cash-out answered 5xx or 429, and the next cash-out with the same body: the same key? */
function idempotentRetry(f: ReportFacts): Verdict {
  const cashOuts = f.exchanges.filter((x) => x.method === 'POST' && x.path === CASH_OUT && x.cashOutBody !== null);
  const bodies = groupBy(cashOuts, (x) => x.cashOutBody);
  const judged: [Exchange, Exchange][] = [];
  for (const same of bodies.values())
    same.forEach((x, i) => {
      const next = same[i + 1];
      if (next && (x.status >= 500 || x.status === 429)) judged.push([x, next]);
    });
  if (judged.length === 0) return verdict('not-exercised', 0);
  const changed = judged.filter(([a, b]) => a.idempotencyKey !== b.idempotencyKey).sort(([a], [b]) => a.seq - b.seq);
  const pairs = (ps: [Exchange, Exchange][]) => ps.flatMap(([a, b]) => [a.seq, b.seq]);
  if (changed.length === 0) return verdict('pass', judged.length, pairs(judged), `${plural(judged.length, 'retry')} kept the key`);
  return verdict(
    'fail',
    judged.length,
    pairs(changed),
    `${changed.length} of ${plural(judged.length, 'retry')} sent a new key: each a second transfer`,
  );
}

function idempotencyKeyReuse(f: ReportFacts): Verdict {
  const keyed = f.exchanges.filter((x) => x.idempotencyKey !== null);
  if (keyed.length === 0) return verdict('not-exercised', 0);
  const reused = f.exchanges.filter((x) => x.errorCode === 'IDEMPOTENCY_KEY_REUSED').map((x) => x.seq);
  if (reused.length === 0) return verdict('pass', 0, [], `${plural(keyed.length, 'keyed request')}, no key reused`);
  return verdict('fail', reused.length, reused, `${plural(reused.length, 'IDEMPOTENCY_KEY_REUSED answer')}`);
}

/** After a 429, the same client's next request: not before the answer's end plus Retry-After (real time). */
function retryAfter(f: ReportFacts): Verdict {
  const xs = f.exchanges;
  const limited = xs.filter((x) => x.status === 429);
  if (limited.length === 0) return verdict('not-exercised', 0);
  const next = new Map<Exchange, Exchange>();
  for (const list of groupBy(xs, (x) => x.client).values()) list.forEach((x, i) => list[i + 1] && next.set(x, list[i + 1]!));
  const early: Evidence[] = [];
  for (const x of limited) {
    const after = next.get(x);
    const due = x.atMs + x.durationMs + (x.retryAfterS ?? DEFAULT_RETRY_AFTER_S) * 1000;
    if (after && after.atMs + ON_TIME_SLACK_MS < due) early.push(x.seq, after.seq);
  }
  if (early.length === 0)
    return verdict(
      'pass',
      limited.length,
      limited.map((x) => x.seq),
      `${plural(limited.length, '429')} waited out`,
    );
  return verdict('fail', limited.length, early, `${early.length / 2} of ${plural(limited.length, '429')} followed sooner than Retry-After`);
}

function polling(f: ReportFacts): Verdict {
  const lookups = f.exchanges.filter((x) => x.method === 'GET' && LOOKUP.test(x.path));
  if (lookups.length === 0) return verdict('not-exercised', 0);
  if (!f.hasEndpoint) return verdict('pass', lookups.length, [], 'no webhook endpoint: lookups are how the app learns');
  const flagged = new Set<Exchange>();
  for (const same of groupBy(lookups, (x) => x.path).values())
    for (const x of crowded(same, (y) => y.atMs, POLL_WINDOW_MS, MAX_LOOKUPS_PER_WINDOW)) flagged.add(x);
  if (flagged.size === 0) return verdict('pass', lookups.length, [], `${plural(lookups.length, 'lookup')}`);
  const seqs = [...flagged].sort(bySeq).map((x) => x.seq);
  return verdict('warn', lookups.length, seqs, `a transaction looked up more than ${MAX_LOOKUPS_PER_WINDOW} times in a minute`);
}

function webhookAck(f: ReportFacts): Verdict {
  const plain = f.deliveries.filter((d) => d.fault === null && d.attempts.some((a) => a.fault === null));
  if (plain.length === 0) return verdict('not-exercised', 0);
  const bad = plain.filter((d) => d.attempts.some((a) => a.fault === null && (!is2xx(a.statusCode) || a.durationMs > ACK_WITHIN_MS)));
  if (bad.length === 0) return verdict('pass', plain.length, [], `${plural(plain.length, 'delivery')} acknowledged`);
  return verdict(
    'fail',
    plain.length,
    bad.map((d) => d.id),
    `${bad.length} of ${plural(plain.length, 'delivery')} not answered 2xx within 5 s`,
  );
}

/** the webhook faults that forge a signature */
const FORGED: readonly WebhookFaultAction[] = WEBHOOK_FAULT_ACTIONS.filter((a) => a.endsWith('-signature'));

/** Sends (the probe's, or any) signed bad or stale, and delivery attempts a signature fault shaped: none may be answered 2xx. */
function webhookSignature(f: ReportFacts): Verdict {
  const sends = f.sends.filter((s) => s.signature !== 'valid');
  const attempts = f.deliveries.flatMap((d) =>
    d.attempts.filter((a) => a.fault !== null && FORGED.includes(a.fault)).map((a) => ({ d, a })),
  );
  const count = sends.length + attempts.length;
  if (count === 0) return verdict('not-exercised', 0);
  const accepted = [
    ...sends.filter((s) => is2xx(s.statusCode)).map((s) => s.id),
    ...new Set(attempts.filter(({ a }) => is2xx(a.statusCode)).map(({ d }) => d.id)),
  ];
  if (accepted.length === 0)
    return verdict(
      'pass',
      count,
      sends.map((s) => s.id),
      `${plural(count, 'forged webhook')} refused`,
    );
  return verdict('fail', count, accepted, `${accepted.length} of ${plural(count, 'forged webhook')} answered 2xx`);
}

function validationErrors(f: ReportFacts): Verdict {
  if (f.exchanges.length === 0) return verdict('not-exercised', 0);
  const refused = f.exchanges.filter(
    (x) => (x.status === 400 || x.status === 422) && !x.injected && !(x.errorCode !== null && NOT_CONTENT.has(x.errorCode)),
  );
  if (refused.length === 0) return verdict('pass', 0, [], 'no request refused for its content');
  const codes = new Map<string, number>();
  for (const x of refused) codes.set(x.errorCode ?? String(x.status), (codes.get(x.errorCode ?? String(x.status)) ?? 0) + 1);
  const detail = [...codes].map(([code, n]) => `${code} ×${n}`).join(', ');
  return verdict(
    'warn',
    refused.length,
    refused.map((x) => x.seq),
    detail,
  );
}

function plainHttp(f: ReportFacts): Verdict {
  if (!f.httpsOn || f.exchanges.length === 0) return verdict('not-exercised', 0, [], f.httpsOn ? '' : 'HTTPS is off in this sandbox');
  const plain = f.exchanges.filter((x) => x.plain).map((x) => x.seq);
  if (plain.length === 0) return verdict('pass', 0, [], 'every request over HTTPS');
  return verdict('warn', plain.length, plain, `${plural(plain.length, 'request')} over plain HTTP`);
}

/** The failure modes met, each with one piece of evidence (its first). */
function coverage(f: ReportFacts): Coverage {
  const first = <T>(xs: T[], pick: (x: T) => Evidence): Evidence[] => (xs.length > 0 ? [pick(xs[0]!)] : []);
  const ex = (p: (x: Exchange) => boolean) => first(f.exchanges.filter(p), (x) => x.seq);
  const delivered = (p: (d: ReportFacts['deliveries'][number]) => boolean) => first(f.deliveries.filter(p), (d) => d.id);
  return {
    'transfer-failed': f.failedTransfers.slice(0, 1),
    'charge-expired': f.expiredCharges.slice(0, 1),
    'token-expired': ex((x) => x.errorCode === 'TOKEN_EXPIRED'),
    'rate-limited': ex((x) => x.status === 429),
    'server-error': ex((x) => x.status >= 500),
    'insufficient-funds': ex((x) => x.errorCode === 'INSUFFICIENT_FUNDS'),
    'webhook-retried': delivered((d) => d.attempts.length > 1),
    'webhook-duplicated': delivered((d) => d.fault === 'duplicate'),
    'webhook-reordered': delivered((d) => d.fault === 'reorder'),
    'webhook-delayed': delivered((d) => d.fault === 'delay'),
    'webhook-probed': first(
      f.sends.filter((s) => s.audit),
      (s) => s.id,
    ),
  };
}

function failureCoverage(f: ReportFacts): Verdict {
  const met = coverage(f);
  const covered = FAILURE_MODES.filter((m) => met[m].length > 0);
  const missing = FAILURE_MODES.filter((m) => met[m].length === 0);
  const detail = `${covered.length}/${FAILURE_MODES.length} met${missing.length ? `; not met: ${missing.join(', ')}` : ''}`;
  return verdict(
    missing.length === 0 ? 'pass' : 'warn',
    covered.length,
    covered.flatMap((m) => met[m]),
    detail,
  );
}

const CHECKS: Record<ReportCheckId, (f: ReportFacts) => Verdict> = {
  'token-reuse': tokenReuse,
  'expired-token-recovery': expiredTokenRecovery,
  'idempotent-retry': idempotentRetry,
  'idempotency-key-reuse': idempotencyKeyReuse,
  'retry-after': retryAfter,
  polling,
  'webhook-ack': webhookAck,
  'webhook-signature': webhookSignature,
  'validation-errors': validationErrors,
  'plain-http': plainHttp,
  'failure-coverage': failureCoverage,
};

/** Every check over the facts, in REPORT_CHECKS order. */
export const runChecks = (facts: ReportFacts): CheckResult[] => REPORT_CHECKS.map((id) => resultOf(id, CHECKS[id](facts)));
