// Matching a request the app sent against what a test expected of it (docs/control-api.md#verifying-requests):
// the path patterns injected faults use too, header and query values, a body matched as a subset, the
// answer's status; and, for a request that does not match, which of the matcher's fields agree and
// what differs, so that a failed verification can name its nearest misses
// (docs/decisions.md#d78-verifying-requests). Pure: the journal hands it each entry's parts lazily,
// so the cheap fields (status, method, path) are compared before any header or body is parsed.
import safeRegex from 'safe-regex2';
import { STATUS_CLASSES, type StatusClass } from './vocabulary.js';

/**
 * A path pattern made ready: tested against paths segment by segment (query string and trailing slash
 * ignored, empty segments skipped): a literal segment must be equal, `*` or `:name` matches any one
 * segment, and a final `**` any rest (none included). Compiled once into a regular expression, whose
 * test makes no array or string of the path (a verification tests every entry of a journal); linear,
 * since each separator run and each segment match disjoint characters.
 */
function pathPattern(pattern: string): (path: string) => boolean {
  const want = pattern.split('/').filter((s) => s !== '');
  const rest = want.at(-1) === '**';
  const fixed = rest ? want.slice(0, -1) : want;
  const parts = fixed.map((w, i) => {
    const separator = i === 0 ? '/*' : '/+';
    const any = w === '*' || (w.startsWith(':') && w.length > 1);
    return separator + (any ? '[^/]+' : w.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'));
  });
  const end = !rest ? '/*$' : fixed.length === 0 ? '' : '(?:/.*)?$';
  const re = new RegExp(`^${parts.join('')}${end}`, 's');
  return (path) => re.test(path);
}

/**
 * Patterns made ready, by their text: a fault's is tested on every request while it lives. Not state
 * of a sandbox (the same pattern means the same test in each), and bounded: emptied when full.
 */
const ready = new Map<string, (path: string) => boolean>();
const MAX_READY = 256;

/** A path against a pattern (see pathPattern): what a fault's path and a verification's both mean. */
export function pathMatches(pattern: string, path: string): boolean {
  let test = ready.get(pattern);
  if (!test) {
    if (ready.size >= MAX_READY) ready.clear();
    ready.set(pattern, (test = pathPattern(pattern)));
  }
  return test(path);
}

/** What a header or query value must be: exactly this text, text a regular expression finds, or absent. */
type ValueMatcher = string | { matches?: string; absent?: true };

interface RequestPattern {
  method?: string;
  path?: string;
  query?: Record<string, ValueMatcher>;
  headers?: Record<string, ValueMatcher>;
  body?: unknown;
}

/** One request a test expects: what was sent, and (optionally) what it was answered. */
export interface RequestMatcher {
  request: RequestPattern;
  status?: number | StatusClass;
}

/** Hands each request of a journal to `visit`, until it returns false. */
export type EachRequest = (visit: (r: SeenRequest) => boolean | void) => void;

/** A request as the journal shows it (secrets redacted); the costly parts are read only when asked for. */
export interface SeenRequest {
  seq: number;
  status: number;
  method: string;
  /** the path, without its query string */
  path: string;
  /** the query string's parameters (the first value of each name) */
  query(): Record<string, string>;
  /** header names in lower case */
  headers(): Record<string, unknown>;
  /** false when the request certainly has no header of this (lower-case) name, told without parsing its headers */
  mayHaveHeader(name: string): boolean;
  body(): unknown;
}

type Value = { kind: 'text'; text: string } | { kind: 'regex'; re: RegExp; source: string } | { kind: 'absent' };

/** A matcher made ready once per verification: regular expressions compiled, header names in lower case. */
export interface CompiledMatcher {
  method?: string;
  path?: string;
  pathTest?: (path: string) => boolean;
  query: [string, Value][];
  headers: [string, Value][];
  hasBody: boolean;
  body: unknown;
  status?: number | StatusClass;
}

const valueOf = (v: ValueMatcher): Value =>
  typeof v === 'string'
    ? { kind: 'text', text: v }
    : v.matches !== undefined
      ? { kind: 'regex', re: new RegExp(v.matches), source: v.matches }
      : { kind: 'absent' };

/** The matcher made ready; its regular expressions must compile (the request's check said so). */
export function compileMatcher(m: RequestMatcher): CompiledMatcher {
  const r = m.request;
  return {
    ...(r.method !== undefined ? { method: r.method.toUpperCase() } : {}),
    ...(r.path !== undefined ? { path: r.path, pathTest: pathPattern(r.path) } : {}),
    query: Object.entries(r.query ?? {}).map(([k, v]) => [k, valueOf(v)]),
    headers: Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), valueOf(v)]),
    hasBody: r.body !== undefined,
    body: r.body,
    ...(m.status !== undefined ? { status: m.status } : {}),
  };
}

/**
 * A regular expression of a matcher that does not compile, or could take exponential time (nested or
 * overlapping repetition, which safe-regex2 finds from the pattern: no input may spin a core,
 * docs/decisions.md#d78-verifying-requests): its message, or null when it is fine.
 */
export function regexIssue(source: string): string | null {
  try {
    new RegExp(source);
  } catch (e) {
    return `is not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  if (!safeRegex(source))
    return 'could take exponential time on some values (a repetition inside a repetition, such as (a+)+): write it without nesting';
  return null;
}

const statusAgrees = (want: number | StatusClass, got: number): boolean =>
  typeof want === 'number' ? want === got : STATUS_CLASSES.indexOf(want) + 2 === Math.floor(got / 100);

function valueAgrees(want: Value, got: unknown): boolean {
  if (want.kind === 'absent') return got === undefined;
  if (typeof got !== 'string') return false;
  return want.kind === 'text' ? got === want.text : want.re.test(got);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `got` holds `want`: every field `want` gives equal, recursively; arrays item by item, of the same length. */
function subsetAgrees(want: unknown, got: unknown): boolean {
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => subsetAgrees(w, got[i]));
  if (isObject(want)) return isObject(got) && Object.keys(want).every((k) => Object.hasOwn(got, k) && subsetAgrees(want[k], got[k]));
  return want === got;
}

/** Whether the request matches: the cheap fields first, its headers and body parsed only when those agree. */
export function requestMatches(m: CompiledMatcher, r: SeenRequest): boolean {
  if (m.status !== undefined && !statusAgrees(m.status, r.status)) return false;
  if (m.method !== undefined && m.method !== r.method) return false;
  if (m.pathTest && !m.pathTest(r.path)) return false;
  if (m.query.length > 0) {
    const q = r.query();
    if (!m.query.every(([k, v]) => valueAgrees(v, Object.hasOwn(q, k) ? q[k] : undefined))) return false;
  }
  if (m.headers.length > 0) {
    // a header the request cannot have agrees only with `absent`, and needs no parse of its headers
    let parse = false;
    for (const [k, v] of m.headers) {
      if (r.mayHaveHeader(k)) parse = true;
      else if (v.kind !== 'absent') return false;
    }
    if (parse) {
      const h = r.headers();
      if (!m.headers.every(([k, v]) => valueAgrees(v, Object.hasOwn(h, k) ? h[k] : undefined))) return false;
    }
  }
  return !m.hasBody || subsetAgrees(m.body, r.body());
}

const shown = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));
const expected = (v: Value): string =>
  v.kind === 'absent' ? 'absent' : v.kind === 'text' ? JSON.stringify(v.text) : `to match /${v.source}/`;
const at = (base: string, key: string | number) => (typeof key === 'number' ? `${base}[${key}]` : `${base}.${key}`);

/**
 * How far a request is from a matcher: how many of the matcher's fields agree, and a line for each that
 * differs (null: only counted, for a request that will not be among the nearest).
 */
interface Comparison {
  agree: number;
  differences: string[] | null;
}

function compareBody(want: unknown, got: unknown, where: string, out: Comparison): void {
  if (Array.isArray(want) && Array.isArray(got) && got.length === want.length) {
    want.forEach((w, i) => compareBody(w, got[i], at(where, i), out));
    return;
  }
  if (isObject(want) && isObject(got)) {
    for (const k of Object.keys(want)) compareBody(want[k], Object.hasOwn(got, k) ? got[k] : undefined, at(where, k), out);
    return;
  }
  if (Array.isArray(want) && Array.isArray(got)) out.differences?.push(`${where}: expected ${want.length} items, got ${got.length}`);
  else if (subsetAgrees(want, got)) out.agree++;
  else out.differences?.push(`${where}: expected ${shown(want)}, got ${shown(got)}`);
}

/** Every field of the matcher against the request (each header, query value and body leaf counts as one). */
function compareRequest(m: CompiledMatcher, r: SeenRequest, lines: boolean): Comparison {
  const out: Comparison = { agree: 0, differences: lines ? [] : null };
  const field = (agrees: boolean, line: () => string) => (agrees ? out.agree++ : out.differences?.push(line()));
  if (m.method !== undefined) field(m.method === r.method, () => `method: expected ${shown(m.method)}, got ${shown(r.method)}`);
  if (m.pathTest) field(m.pathTest(r.path), () => `path: expected ${shown(m.path)}, got ${shown(r.path)}`);
  const values = (list: [string, Value][], got: Record<string, unknown>, name: string) => {
    for (const [k, v] of list) {
      const g = Object.hasOwn(got, k) ? got[k] : undefined;
      field(valueAgrees(v, g), () => `${name}.${k}: expected ${expected(v)}, got ${shown(g)}`);
    }
  };
  if (m.query.length > 0) values(m.query, r.query(), 'query');
  if (m.headers.length > 0) values(m.headers, r.headers(), 'headers');
  if (m.hasBody) compareBody(m.body, r.body(), 'body', out);
  if (m.status !== undefined) field(statusAgrees(m.status, r.status), () => `status: expected ${shown(m.status)}, got ${r.status}`);
  return out;
}

/** The leaves of a body a matcher gives: at most as many of its fields as can agree (compareBody). */
const leaves = (want: unknown): number =>
  Array.isArray(want)
    ? want.reduce((n: number, w) => n + leaves(w), 0)
    : isObject(want)
      ? Object.values(want).reduce((n: number, w) => n + leaves(w), 0)
      : 1;

/** How many of a matcher's fields can agree at most: a request that matches all of them is no miss. */
const fieldsOf = (m: CompiledMatcher): number =>
  Number(m.method !== undefined) +
  Number(m.pathTest !== undefined) +
  m.query.length +
  m.headers.length +
  (m.hasBody ? leaves(m.body) : 0) +
  Number(m.status !== undefined);

/** A near miss: a request that does not match, the fields that differ, and how many agree (its rank). */
export interface NearMiss {
  seq: number;
  method: string;
  path: string;
  status: number;
  differences: string[];
  agree: number;
}

const before = (a: { agree: number; seq: number }, b: { agree: number; seq: number }) =>
  a.agree > b.agree || (a.agree === b.agree && a.seq > b.seq);

/**
 * The `n` requests nearest to the matcher among those that do not match it: most fields agreeing first,
 * then the newest. A request none of whose fields agree is no near miss.
 */
export function nearestMisses(m: CompiledMatcher, each: EachRequest, n = 5): NearMiss[] {
  const best: NearMiss[] = [];
  const most = fieldsOf(m);
  each((r) => {
    // once five are found, a request whose method or status already differs may not be able to rank
    // above the fifth: it is passed over before its path, headers or body are read
    const fifth = best.length === n ? best[n - 1] : undefined;
    if (fifth) {
      const differ =
        Number(m.method !== undefined && m.method !== r.method) + Number(m.status !== undefined && !statusAgrees(m.status, r.status));
      if (differ > 0 && !before({ agree: most - differ, seq: r.seq }, fifth)) return;
    }
    if (requestMatches(m, r)) return;
    // counted first: the lines of what differs are written only for a request that will be listed
    const { agree } = compareRequest(m, r, false);
    if (agree === 0) return;
    const worst = best[best.length - 1];
    if (best.length === n && worst && !before({ agree, seq: r.seq }, worst)) return;
    const differences = compareRequest(m, r, true).differences!;
    const miss: NearMiss = { seq: r.seq, method: r.method, path: r.path, status: r.status, differences, agree };
    const i = best.findIndex((b) => before(miss, b));
    best.splice(i < 0 ? best.length : i, 0, miss);
    if (best.length > n) best.pop();
  });
  return best;
}

/** The matcher in a few words, for a message: `POST /v1/banking/cash-out/pix with headers, body, answered 2xx`. */
export function describeMatcher(m: RequestMatcher): string {
  const r = m.request;
  const parts = [`${r.method?.toUpperCase() ?? 'any method'} ${r.path ?? 'any path'}`];
  const given = (['query', 'headers', 'body'] as const).filter((k) => r[k] !== undefined);
  if (given.length > 0) parts.push(`with the given ${given.join(', ')}`);
  if (m.status !== undefined) parts.push(`answered ${m.status}`);
  return parts.join(' ');
}
