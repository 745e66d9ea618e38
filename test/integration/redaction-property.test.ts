// Redaction, as a property (issue 22; docs/control-api.md#request-journal): seeded requests each carry a
// secret of their own, planted in one of the shapes a client puts secrets in (headers, the query string
// with bracket keys, a JWT as a path segment, JSON bodies at any depth, form bodies of the token
// endpoint, a JWT inside a longer string, a value an error message would quote), sent through the real
// server; then no secret may be found in the journal's listing, in anything the sandbox logged, or in
// any answer (its body and headers). One exception, by design: data the app asked the sandbox to keep (a
// charge's description) comes back in the answer that keeps it; the journal shows that answer redacted.
// Knobs: REDACTION_CASES (default 300), REDACTION_SEED (default 22).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { control } from '../helpers/control.js';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';
import { int, knob, pick, prng } from '../helpers/torture.js';

const CASES = knob('REDACTION_CASES', 300);
const SEED = knob('REDACTION_SEED', 22);

/** Every name the rule treats as a secret's (src/http/redact.ts), as a client would spell it. */
const SECRET_KEYS = [
  'client_secret',
  'clientSecret',
  'access_token',
  'accessToken',
  'refresh_token',
  'id_token',
  'token',
  'password',
  'passwd',
  'secret',
  'api_key',
  'apiKey',
  'pin',
  'cvv',
  'cvc',
] as const;
const SECRET_HEADERS = [
  'proxy-authorization',
  'x-sandbox-admin-token',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
  'x-client-secret',
  'x-password',
  'x-refresh-token',
] as const;

type Rand = () => number;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 32 random characters after a marker: unique in every text the test reads (and URL-safe, as a token would be). */
const secretOf = (rand: Rand) => `zq${Array.from({ length: 32 }, () => pick(rand, [...ALPHABET])).join('')}`;
const b64url = (s: string) => Buffer.from(s).toString('base64url');
/** A JWT whose signature is the secret (and whose payload holds it too, encoded). */
const jwtOf = (secret: string) => `${b64url('{"alg":"HS256"}')}.${b64url(JSON.stringify({ s: secret.slice(0, 8) }))}.${secret}`;

interface Case {
  shape: string;
  /** which sandbox: the plain one, or the one with requireHttps */
  strict?: boolean;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  raw?: string;
  /** texts that must appear nowhere: the secret, and any encoding of it the request carried */
  needles: string[];
  /** the request asks the sandbox to keep the secret as data: its own answer may hold it */
  keeps?: boolean;
}

const CUSTOMER = { name: 'Cliente Teste', document: '12345678909' };
let token = '';
let client = { client_id: '', client_secret: '' };

/** A route of the API an app calls, and a body it accepts (when it takes one). */
function route(rand: Rand): { method: string; path: string; body?: unknown; auth: boolean } {
  return pick(rand, [
    { method: 'GET', path: '/v1/banking/balance', auth: true },
    { method: 'GET', path: '/v1/merchants', auth: true },
    { method: 'GET', path: '/v1/banking/transactions/00000000-0000-4000-8000-0000000000aa', auth: true },
    { method: 'GET', path: '/pix/qr/v2/00000000-0000-4000-8000-0000000000aa', auth: false },
    { method: 'POST', path: '/v1/banking/cash-in/pix', body: { amount: 1000, description: 'redaction', customer: CUSTOMER }, auth: true },
    { method: 'POST', path: '/v1/oauth/token', body: { grant_type: 'client_credentials', ...client }, auth: false },
  ]);
}

/** `value` nested `depth` levels down, through objects and arrays chosen at random. */
function nest(rand: Rand, key: string, value: unknown, depth: number): unknown {
  let v: unknown = { [key]: value, note: 'kept' };
  for (let i = 0; i < depth; i++) v = rand() < 0.5 ? [1, v] : { [`level${i}`]: v };
  return v;
}

type Out = Omit<Case, 'shape'>;

const SHAPES: Record<string, (rand: Rand, secret: string) => Out> = {
  'authorization header'(rand, secret): Out {
    const r = route(rand);
    const value = pick(rand, [
      `Bearer ${secret}`,
      `Bearer ${jwtOf(secret)}`,
      `Basic ${Buffer.from(`someone:${secret}`).toString('base64')}`,
      secret,
    ]);
    const needle = value.startsWith('Basic ') ? value.slice(6) : secret;
    return { ...r, headers: { authorization: value }, needles: [needle] };
  },
  'the access token the sandbox issued'(rand): Out {
    const r = route(rand);
    return { ...r, headers: { authorization: `Bearer ${token}` }, needles: [token] };
  },
  'secret-named header'(rand, secret): Out {
    const r = route(rand);
    const value = pick(rand, [secret, `Bearer ${secret}`, jwtOf(secret)]);
    const headers: Record<string, string> = { [pick(rand, SECRET_HEADERS)]: value };
    if (r.auth) headers.authorization = `Bearer ${token}`;
    return { ...r, headers, needles: [secret] };
  },
  'JWT as the request id'(rand, secret): Out {
    const r = route(rand);
    return { ...r, headers: { 'x-request-id': jwtOf(secret), ...(r.auth ? { authorization: `Bearer ${token}` } : {}) }, needles: [secret] };
  },
  cookie(rand, secret): Out {
    const r = route(rand);
    return {
      ...r,
      headers: { cookie: `theme=dark; session=${secret}`, ...(r.auth ? { authorization: `Bearer ${token}` } : {}) },
      needles: [secret],
    };
  },
  'query string'(rand, secret): Out {
    const r = route(rand);
    const key = pick(rand, SECRET_KEYS);
    const name = pick(rand, [key, `${key}[]`, `a[${key}]`, `${key}[0]`, `a%5B${key}%5D`, `${key}%5B%5D`]);
    const value = rand() < 0.2 ? jwtOf(secret) : secret;
    const path = `${r.path}?page=1&${name}=${value}&limit=2`;
    return { ...r, path, headers: r.auth ? { authorization: `Bearer ${token}` } : {}, needles: [secret] };
  },
  'JWT in the path'(rand, secret): Out {
    const jwt = jwtOf(secret);
    const path = pick(rand, [
      `/v1/merchants/${jwt}`,
      `/v1/banking/transactions/${jwt}`,
      `/pix/qr/v2/${jwt}`,
      `/v1/${jwt}`,
      `/v1/banking/${jwt}/more`,
    ]);
    return { method: 'GET', path, headers: { authorization: `Bearer ${token}` }, needles: [secret] };
  },
  'JSON body at any depth'(rand, secret): Out {
    const r = pick(rand, [
      { path: '/v1/banking/cash-in/pix', base: { amount: 1000, description: 'redaction', customer: CUSTOMER } },
      { path: '/v1/oauth/token', base: { grant_type: 'client_credentials' } },
      { path: '/v1/merchants', base: { name: 'Loja' } },
    ]);
    const key = pick(rand, SECRET_KEYS);
    const value = pick(rand, [secret, jwtOf(secret), { inner: secret }, [secret, 1]]);
    const depth = int(rand, 0, 34); // past the body's nesting limit (32) and redact's depth (20) too
    const body: Record<string, unknown> = { ...r.base, meta: nest(rand, key, value, depth) };
    if (depth === 0 && rand() < 0.5) body[key] = value;
    // a body past what an entry keeps as text (32 KiB) is kept as a redacted copy of its parse
    if (rand() < 0.15) body.padding = 'p'.repeat(40_000);
    return {
      method: 'POST',
      path: r.path,
      body,
      headers: r.path === '/v1/oauth/token' ? {} : { authorization: `Bearer ${token}` },
      needles: [secret],
    };
  },
  'form body of the token endpoint'(rand, secret): Out {
    const key = pick(rand, ['client_secret', 'client_secret', ...SECRET_KEYS]);
    const name = pick(rand, [key, `${key}[]`, `a[${key}]`, `${key}[0]`, `${encodeURIComponent(`${key}[]`)}`]);
    const real = rand() < 0.2; // the tenant's own secret: a token is issued
    const value = real ? client.client_secret : pick(rand, [secret, jwtOf(secret)]);
    const raw = `grant_type=client_credentials&client_id=${client.client_id}&${real ? 'client_secret' : name}=${value}`;
    return {
      method: 'POST',
      path: '/v1/oauth/token',
      raw,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      needles: [real ? client.client_secret : secret],
    };
  },
  'JWT inside a longer string'(rand, secret): Out {
    const jwt = jwtOf(secret);
    const text = pick(rand, [`Bearer ${jwt}`, `token=${jwt} for order 5`, `paid with ${jwt}.`]);
    const where = pick(rand, ['description', 'header', 'query', 'refused']);
    if (where === 'header') return { ...route(rand), headers: { authorization: `Bearer ${token}`, 'x-note': text }, needles: [secret] };
    if (where === 'query')
      return {
        method: 'GET',
        path: `/v1/banking/balance?q=${encodeURIComponent(text)}`,
        headers: { authorization: `Bearer ${token}` },
        needles: [secret],
      };
    // kept as the charge's description (its answer says it back), or refused with it (nothing kept, nothing said)
    const refused = where === 'refused';
    return {
      method: 'POST',
      path: '/v1/banking/cash-in/pix',
      headers: { authorization: `Bearer ${token}` },
      body: { amount: refused ? -1 : 1000, description: text, customer: CUSTOMER },
      needles: [secret],
      keeps: !refused,
    };
  },
  'a value an error message quotes'(rand, secret): Out {
    const key = pick(rand, ['pin', 'cvv', 'token', 'secret']);
    return pick<Out>(rand, [
      // grant_type is quoted (its first 40 characters) in unsupported_grant_type
      { method: 'POST', path: '/v1/oauth/token', body: { grant_type: `${key}=${secret}` }, headers: {}, needles: [secret] },
      {
        method: 'POST',
        path: '/v1/oauth/token',
        raw: `grant_type=${key}%3D${secret}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        needles: [secret],
      },
      // the split's wallet is quoted by WALLET_NOT_FOUND
      {
        method: 'POST',
        path: '/v1/banking/cash-in/pix',
        headers: { authorization: `Bearer ${token}` },
        body: { amount: 1000, description: 'split', customer: CUSTOMER, split: [{ walletId: jwtOf(secret), mode: 'FIXED', amount: 10 }] },
        needles: [secret],
      },
    ]);
  },
  'plain HTTP with --require-https'(rand, secret): Out {
    const r = route(rand);
    const key = pick(rand, SECRET_KEYS);
    const name = pick(rand, [key, `${key}[]`, `a[${key}]`]);
    return { ...r, strict: true, path: `${r.path}?${name}=${rand() < 0.2 ? jwtOf(secret) : secret}`, headers: {}, needles: [secret] };
  },
};

let plain: TestSandbox;
let strict: TestSandbox;
const logged: string[] = [];

beforeAll(async () => {
  // everything the sandbox writes while the test runs: its log lines are console calls and stream writes
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: never[]) => {
      logged.push(String(chunk));
      return write(chunk as string, ...rest);
    }) as typeof stream.write);
  }
  plain = await startTestSandbox({ httpsPort: 0 });
  strict = await startTestSandbox({ httpsPort: 0, requireHttps: true });
  const rand = prng(SEED ^ 0x5eed);
  const account = await control(plain, 'POST', '/_sandbox/accounts', {
    name: 'redaction',
    client_secret: secretOf(rand),
    balance: 100_000,
  });
  client = { client_id: account.client_id, client_secret: account.client_secret };
  token = await plain.token(client);
});

afterAll(async () => {
  await plain?.stop();
  await strict?.stop();
  vi.restoreAllMocks();
});

/** The needles found in `text`, with where. */
const foundIn = (where: string, text: string, c: Case) => c.needles.filter((n) => text.includes(n)).map(() => `${c.shape}: ${where}`);

describe(`redaction as a property (${CASES} cases, seed ${SEED})`, () => {
  it('no secret a request carried is in the journal, the log or any answer', async () => {
    const rand = prng(SEED);
    const names = Object.keys(SHAPES);
    const cases: Case[] = [];
    const leaks: string[] = [];
    const seen = new Map<string, number>();
    for (let i = 0; i < CASES; i++) {
      const shape = names[i % names.length]!; // every shape, evenly
      const c: Case = { shape, ...SHAPES[shape]!(rand, secretOf(rand)) };
      cases.push(c);
      const sb = c.strict ? strict : plain;
      const r: HttpResult = await sb.request(c.method, c.path, {
        headers: c.headers,
        ...(c.raw !== undefined ? { raw: c.raw } : c.body !== undefined ? { body: c.body } : {}),
      });
      expect(r.status, `${shape}: ${c.method} ${c.path}`).toBeLessThan(500);
      if (c.strict) expect(r.body.error?.code).toBe('HTTPS_REQUIRED');
      seen.set(`${shape} ${r.status}`, (seen.get(`${shape} ${r.status}`) ?? 0) + 1);
      const headers = [...r.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
      leaks.push(...foundIn('answer headers', headers, c));
      if (c.keeps) expect(r.status, 'kept as data, the description comes back').toBe(201);
      else leaks.push(...foundIn(`answer ${r.status} ${r.text.slice(0, 300)}`, r.text, c));
    }

    for (const sb of [plain, strict]) {
      const listing = await sb.request('GET', '/_sandbox/requests?limit=10000');
      expect(listing.status).toBe(200);
      const journaled = cases.filter((c) => Boolean(c.strict) === (sb === strict));
      expect(listing.body.length).toBeGreaterThanOrEqual(journaled.length);
      for (const c of journaled) leaks.push(...foundIn('the journal', listing.text, c));
      // the path filter compares with the path as shown: it cannot find a redacted path a prefix at a time
      for (const c of journaled.filter((x) => x.shape === 'JWT in the path')) {
        const prefix = c.path.slice(0, c.path.indexOf(c.needles[0]!) + 4);
        const found = (await sb.request('GET', `/_sandbox/requests?path=${encodeURIComponent(prefix)}`)).body as unknown[];
        if (found.length > 0) leaks.push(`${c.shape}: the journal's path filter`);
      }
    }
    const log = logged.join('\n');
    for (const c of cases) leaks.push(...foundIn('the log', log, c));

    expect([...new Set(leaks)]).toEqual([]);
    // the cases reached the sandbox's answers of every kind: accepted, refused, unauthenticated, not found
    const statuses = new Set([...seen.keys()].map((k) => Number(k.split(' ').pop())));
    for (const s of [200, 201, 400, 401, 403, 404]) expect(statuses, [...seen.keys()].join(', ')).toContain(s);
  }, 120_000);
});
