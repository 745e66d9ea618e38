// The journal's storage (src/http/journal-ring.ts, src/http/journal-log.ts): each tenant's ring keeps
// exactly its newest `capacity` entries, read back as they were recorded (texts repeated from the entry
// before, written once per chunk, included), whatever their sizes; its chunks stay bounded by what it
// keeps; rings never push each other's entries out; a listing merges them newest first.
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/http/journal-log.js';
import { redact } from '../../src/http/redact.js';
import type { RawEntry } from '../../src/http/journal-ring.js';
import { mulberry32 } from '../../src/domain/random.js';
import { compileMatcher, nearestMisses, requestMatches, type EachRequest } from '../../src/domain/request-match.js';

const random = mulberry32(23);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const text = (n: number) => 'x'.repeat(n) + 'ç';

function entry(i: number, accountId: string | null): RawEntry {
  const big = random() < 0.05;
  return {
    accountId,
    atMs: 1_800_000_000_000 + i,
    clockMs: 1_900_000_000_000 + i,
    plain: i % 2 === 0,
    injected: i % 3 === 0,
    retryAfter: i % 5 === 0 ? String(i % 7) : undefined,
    method: pick(['GET', 'POST']),
    url: pick(['/v1/banking/balance', `/v1/banking/transactions/${i}`]),
    status: pick([200, 201, 401, 503]),
    durationMs: i / 100,
    requestId: `r${i}`,
    headers: JSON.stringify({ host: 'h', authorization: pick(['Bearer a.b.c', 'Bearer d.e.f']) }),
    body: random() < 0.5 ? null : JSON.stringify({ n: i, pad: text(big ? 30_000 : 20) }),
    bodyType: 'application/json',
    response:
      random() < 0.1
        ? Buffer.from(JSON.stringify({ i }))
        : pick([JSON.stringify({ ok: true }), JSON.stringify({ i, pad: text(big ? 32_000 : 10) })]),
    contentType: 'application/json; charset=utf-8',
  };
}

describe('the journal storage', () => {
  it('keeps each tenant’s newest entries as recorded, bounded in bytes, and merges tenants newest first', () => {
    const CAPACITY = 50;
    const journal = new Journal(CAPACITY);
    const tenants = ['a', 'b', null];
    const recorded = new Map<string | null, (RawEntry & { seq: number })[]>(tenants.map((t) => [t, []]));
    let maxBytes = 0;
    // 20,000 entries of ~3 KB on average: kept all, they would take some 60 MB
    for (let i = 0; i < 20_000; i++) {
      // tenant b is busy; a and the unknown ring are not
      const accountId = random() < 0.8 ? 'b' : pick(tenants);
      const e = entry(i, accountId);
      const mine = recorded.get(accountId)!;
      mine.push({ ...e, seq: i + 1 });
      if (mine.length > CAPACITY) mine.shift();
      journal.add(e);
      if (i % 100 === 0) maxBytes = Math.max(maxBytes, journal.bytes);
    }
    for (const t of tenants) {
      const want = [...recorded.get(t)!].reverse();
      const got = journal.list({ accountId: t });
      expect(got.map((e) => e.seq)).toEqual(want.map((r) => r.seq));
      got.forEach((e, i) => {
        const r = want[i]!;
        expect([e.method, e.path, e.status, e.requestId, e.at]).toEqual([
          r.method,
          r.url,
          r.status,
          r.requestId,
          new Date(r.atMs).toISOString(),
        ]);
        expect(e.durationMs).toBeCloseTo(r.durationMs, 2);
        expect(e.requestBody).toEqual(r.body === null ? null : redact(JSON.parse(r.body as string)));
        const answer = typeof r.response === 'string' ? r.response : r.response!.toString('utf8');
        expect(JSON.stringify(e.responseBody).length).toBeLessThanOrEqual(answer.length + 2);
        expect(e.requestHeaders.authorization).toBe('Bearer [REDACTED]');
      });
    }
    // the report's reading: the same entries, with the facts the listing does not show
    for (const t of tenants) {
      const want = [...recorded.get(t)!].reverse();
      const got = [...journal.exchanges(t)];
      expect(got.map((k) => [k.seq, k.clockMs, k.plain, k.injected, k.texts().retryAfter])).toEqual(
        want.map((r) => [r.seq, r.clockMs, r.plain, r.injected, r.retryAfter ?? null]),
      );
      // a text read alone is the one read with the rest
      for (const k of got.slice(0, 20)) {
        const all = k.texts();
        for (const name of Object.keys(all) as (keyof typeof all)[]) expect(k.text(name)).toBe(all[name]);
      }
    }
    expect(journal.size).toBe(3 * CAPACITY);
    // merged: every ring's entries, newest first, as one order
    const all = journal.list();
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((x, y) => y - x));
    // bounded by what is kept: 150 entries (of ~3 KB on average, at most ~64 KiB) and each ring's chunk slack
    expect(maxBytes).toBeLessThan(3 * (CAPACITY * 3 * 1024 * 2 + 2 * 256 * 1024));
    journal.clear('b');
    expect(journal.size).toBe(2 * CAPACITY);
  });

  it('grows a ring with its entries: a tenant of few requests holds little', () => {
    const journal = new Journal(10_000);
    for (let i = 0; i < 3; i++) journal.add(entry(i, 'quiet'));
    expect(journal.bytes).toBeLessThanOrEqual(4 * 1024 + 70 * 1024);
  });
});

describe('a verification’s reading of the journal', () => {
  // Journal.eachSeen reads an entry's method from its column, its texts one at a time (a text repeated
  // from the entry before decoded and searched once) and tells an absent header without parsing the
  // headers: whatever it reads must be what a listing shows, and a match what the listing would say.
  it('sees each entry as the listing shows it, and matches headers as a parse of them would', () => {
    const journal = new Journal(300);
    const headerSets = [
      { host: 'h', authorization: 'Bearer a.b.c' },
      { host: 'h', 'x-trace': 't-1' },
      // a value that holds the bytes of a key: the header is still absent
      { host: 'h', 'x-note': '"x-trace":"no"' },
      { host: 'h', 'x-trace': '' },
    ];
    for (let i = 0; i < 1_000; i++) {
      const e = entry(i, 'a');
      // runs of the same headers (each written once per chunk), and methods in and out of the column's list
      journal.add({
        ...e,
        method: pick(['GET', 'POST', 'PATCH', 'PURGE', 'M-SEARCH']),
        headers: JSON.stringify(headerSets[Math.floor(i / 7) % 4]),
      });
    }
    const listed = journal.list({ accountId: 'a' });
    const seen: { seq: number; method: string; path: string; headers: unknown; body: unknown; mayTrace: boolean }[] = [];
    journal.eachSeen(
      'a',
      (r) =>
        void seen.push({
          seq: r.seq,
          method: r.method,
          path: r.path,
          mayTrace: r.mayHaveHeader('x-trace'),
          headers: r.headers(),
          body: r.body(),
        }),
    );
    expect(seen.map((s) => [s.seq, s.method, s.path, s.headers, s.body])).toEqual(
      listed.map((e) => [e.seq, e.method, e.path, e.requestHeaders, e.requestBody]),
    );
    // "certainly absent" is never said of a header that is there, and is said of every one that is not
    for (const s of seen) expect(s.mayTrace).toBe(Object.hasOwn(s.headers as object, 'x-trace'));

    const count = (headers: Record<string, string | { absent: true } | { matches: string }>) => {
      const m = compileMatcher({ request: { headers } });
      let n = 0;
      journal.eachSeen('a', (r) => void (requestMatches(m, r) && n++));
      return n;
    };
    const has = (name: string) => listed.filter((e) => Object.hasOwn(e.requestHeaders, name));
    expect(count({ 'x-trace': { absent: true } })).toBe(listed.length - has('x-trace').length);
    expect(count({ 'X-Trace': 't-1' })).toBe(has('x-trace').filter((e) => e.requestHeaders['x-trace'] === 't-1').length);
    expect(count({ 'x-trace': { matches: '^$' } })).toBe(has('x-trace').filter((e) => e.requestHeaders['x-trace'] === '').length);
    expect(count({ 'x-note': { matches: 'x-trace' }, 'x-trace': { absent: true } })).toBe(has('x-note').length);
    expect(has('x-note').length).toBeGreaterThan(0);
  });
});

describe('near misses', () => {
  // nearestMisses passes over a request whose method or status already keeps it below the fifth found:
  // the five it names must be those a comparison of every request would name, read in any order.
  it('names the same five as a comparison of every request, one ring or several', () => {
    const journal = new Journal(400);
    for (let i = 0; i < 1_200; i++) journal.add(entry(i, pick(['a', 'b', null])));
    const matchers = [
      { request: { method: 'POST', path: '/v1/banking/balance', body: { n: 7 } } },
      { request: { method: 'GET', path: '/v1/banking/transactions/:id', body: { n: 10, pad: 'x' } }, status: 201 },
      { request: { method: 'PATCH', headers: { host: 'h' } }, status: '4xx' as const },
      { request: { path: '/v1/**', body: { n: 3 } }, status: 503 },
      { request: { method: 'GET' }, status: 200 },
    ];
    for (const matcher of matchers)
      for (const accountId of ['a', undefined]) {
        const m = compileMatcher(matcher);
        const each = (visit: Parameters<EachRequest>[0]) => journal.eachSeen(accountId, visit);
        const all = nearestMisses(m, each, 10_000);
        expect(nearestMisses(m, each)).toEqual(all.slice(0, 5));
        expect(all.length).toBeGreaterThan(5);
      }
  });
});
