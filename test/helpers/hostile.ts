// Seeded generators of hostile HTTP requests for test/torture/hostile.test.ts: wrong types, huge
// and deeply nested bodies, prototype keys, unicode (lone surrogates, RTL, NUL), truncated JSON,
// wrong content types, odd and duplicated headers, bogus Content-Length, path tricks and odd
// methods. Requests that fetch cannot send (bad framing, unnormalized paths, forbidden methods)
// go through raw sockets.
import net from 'node:net';
import jwt from 'jsonwebtoken';
import { int, pick } from './torture.js';

export interface Ids {
  accountId: string;
  otherAccountId: string;
  merchantId: string;
  walletId: string;
  waitingChargeId: string;
  paidChargeId: string;
  transferId: string;
  pixCode: string;
  endpointId: string;
  deliveryId: string;
  ruleId: string;
  pixKey: string;
  uiFile: string;
  accountToken: string;
  merchantToken: string;
  signingSecret: string;
  /** the sandbox's own origin (http://127.0.0.1:<port>) */
  origin: string;
}

export interface HostileRequest {
  /** the generator that made it */
  kind: string;
  /** the route template it aims at ("POST /v1/merchants") */
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** complete raw request bytes, sent through a socket instead of fetch */
  raw?: Buffer;
  /** the request is certain to be refused (phase A sends only these) */
  reject: boolean;
}

export interface RouteSpec {
  method: string;
  path: string;
  /** the route reads a JSON body */
  body: boolean;
  /** a valid body (null: the route takes none) */
  valid: (() => Record<string, unknown>) | null;
  auth: 'account' | 'merchant' | 'none';
  headers?: () => Record<string, string>;
}

const uuidLike = () => crypto.randomUUID();

/** Routes whose body fields are all optional: an object of unknown keys is a valid (empty) body there. */
const ALL_OPTIONAL = new Set(['/_sandbox/reset', '/_sandbox/charges/:id/pay', '/_sandbox/clock/freeze', '/_sandbox/clock/unfreeze']);

/** Valid request bodies and auth per route; routes found on the app but missing here get a generic spec. */
export function routeCatalog(ids: Ids, rand: () => number): Map<string, RouteSpec> {
  const doc = '52998224725';
  const specs: RouteSpec[] = [];
  const add = (method: string, path: string, auth: RouteSpec['auth'], valid: RouteSpec['valid'], extra: Partial<RouteSpec> = {}) =>
    specs.push({ method, path, body: valid !== null, valid, auth, ...extra });
  add('POST', '/v1/oauth/token', 'none', () => ({
    grant_type: 'client_credentials',
    client_id: 'sandbox-client',
    client_secret: 'sandbox-secret',
  }));
  add('POST', '/v1/banking/cash-in/pix', 'account', () => ({
    amount: int(rand, 100, 50_000),
    description: 'hostile',
    customer: { name: 'Maria Silva', document: doc, email: 'maria@example.com', phone: '11987654321' },
    externalId: 'h-1',
    expiration: 3600,
  }));
  add(
    'POST',
    '/v1/banking/cash-out/pix',
    'account',
    () => ({
      type: 'pix_key',
      description: 'hostile',
      amount: String(int(rand, 1, 500)),
      details: { name: 'Fornecedor', key: doc, keyType: 'CPF', document: doc },
    }),
    { headers: () => ({ 'x-idempotency-key': uuidLike() }) },
  );
  add('GET', '/v1/banking/transactions/:transactionId', 'account', null);
  add('GET', '/v1/banking/balance', 'account', null);
  add('GET', '/v1/merchants', 'account', null);
  add('POST', '/v1/merchants', 'account', () => ({
    name: 'Loja',
    document: '11222333000181',
    document_type: 'CNPJ',
    email: 'loja@example.com',
    phone: '1133334444',
  }));
  add('GET', '/v1/merchants/balance', 'merchant', null);
  add('GET', '/v1/merchants/:merchantId', 'account', null);
  add('PATCH', '/v1/merchants/:merchantId', 'account', () => ({ name: 'Loja Nova', phone: '11999998888' }));
  add('GET', '/pix/qr/v2/:id', 'none', null);
  add('GET', '/openapi.json', 'none', null);
  add('GET', '/_sandbox/health', 'none', null);
  add('POST', '/_sandbox/reset', 'none', () =>
    rand() < 0.5
      ? {}
      : {
          fixtures: {
            accounts: [
              {
                id: ids.accountId,
                name: 'Sandbox default account',
                client_id: 'sandbox-client',
                client_secret: 'sandbox-secret',
                splitEnabled: true,
                balance: 1_000_000,
              },
            ],
          },
        },
  );
  add('GET', '/_sandbox/accounts', 'none', null);
  add('POST', '/_sandbox/accounts', 'none', () => ({ name: 'Tenant', splitEnabled: true, settleAfterSeconds: 5, balance: 1000 }));
  add('GET', '/_sandbox/accounts/:id', 'none', null);
  add('PATCH', '/_sandbox/accounts/:id', 'none', () => ({ settleAfterSeconds: int(rand, 0, 10) }));
  // no body: a tenant's reset takes none (garbage bodies are for the routes that read one)
  add('POST', '/_sandbox/accounts/:id/reset', 'none', null);
  add('POST', '/_sandbox/accounts/:id/credit', 'none', () => ({ amount: int(rand, 1, 1000), description: 'top-up' }));
  add('GET', '/_sandbox/wallets/:walletId', 'none', null);
  add('POST', '/_sandbox/wallets/:walletId/credit', 'none', () => ({ amount: int(rand, 1, 1000) }));
  add('GET', '/_sandbox/merchants', 'none', null);
  add('GET', '/_sandbox/merchants/:id', 'none', null);
  add('PATCH', '/_sandbox/merchants/:id', 'none', () => ({ status: 'ACTIVE' }));
  add('GET', '/_sandbox/transactions', 'none', null);
  add('GET', '/_sandbox/transactions/:id', 'none', null);
  add('POST', '/_sandbox/charges/:id/pay', 'none', () => ({ payer: { name: 'Pagador', document: doc, ispb: '00000000' } }));
  add('POST', '/_sandbox/charges/:id/expire', 'none', null);
  // a snapshot's restore reads no body either
  add('POST', '/_sandbox/snapshots/:name/restore', 'none', null);
  add('POST', '/_sandbox/charges/:id/cancel', 'none', null);
  add('POST', '/_sandbox/pix/pay', 'none', () => ({ pixCode: ids.pixCode }));
  add('POST', '/_sandbox/transfers/:id/complete', 'none', null);
  add('POST', '/_sandbox/transfers/:id/fail', 'none', () => ({ code: 'HOSTILE_FAILURE', message: 'failed on purpose' }));
  add('GET', '/_sandbox/pix-keys', 'none', null);
  add('POST', '/_sandbox/pix-keys', 'none', () => ({
    key: 'hostile@example.com',
    keyType: 'EMAIL',
    owner: { name: 'Dona', document: doc },
  }));
  add('DELETE', '/_sandbox/pix-keys', 'none', null);
  add('GET', '/_sandbox/pix-keys/:key', 'none', null);
  add('DELETE', '/_sandbox/pix-keys/:key', 'none', null);
  add('GET', '/_sandbox/rules', 'none', null);
  add('POST', '/_sandbox/rules', 'none', () => ({ match: { type: 'CASH_IN', amount: 777_777 }, outcome: { action: 'wait' } }));
  add('DELETE', '/_sandbox/rules', 'none', null);
  add('DELETE', '/_sandbox/rules/:id', 'none', null);
  add('GET', '/_sandbox/webhooks', 'none', null);
  // port 9 on loopback: nothing listens, every attempt fails at once and nothing leaves the machine
  add('POST', '/_sandbox/webhooks', 'none', () => ({ url: 'http://127.0.0.1:9/hook', events: ['cashin.paid'] }));
  add('DELETE', '/_sandbox/webhooks', 'none', null);
  add('GET', '/_sandbox/webhooks/:id', 'none', null);
  add('DELETE', '/_sandbox/webhooks/:id', 'none', null);
  add('GET', '/_sandbox/webhooks/deliveries', 'none', null);
  add('GET', '/_sandbox/webhooks/deliveries/:id', 'none', null);
  add('POST', '/_sandbox/webhooks/deliveries/:id/redeliver', 'none', null);
  add('POST', '/_sandbox/webhooks/fire', 'none', () => ({ transactionId: ids.paidChargeId }));
  add('GET', '/_sandbox/webhooks/faults', 'none', null);
  // delivery faults touch only deliveries to port 9, which fail at once anyway
  add('POST', '/_sandbox/webhooks/faults', 'none', () =>
    pick(rand, [
      { endpointId: ids.endpointId, action: pick(rand, ['duplicate', 'reorder', 'drop', 'bad-signature', 'stale-signature']) },
      { action: 'delay', seconds: int(rand, 1, 60), times: int(rand, 1, 3), eventType: 'cashin.paid' },
    ]),
  );
  add('DELETE', '/_sandbox/webhooks/faults', 'none', null);
  add('DELETE', '/_sandbox/webhooks/faults/:id', 'none', null);
  add('POST', '/_sandbox/webhooks/send', 'none', () => ({
    endpointId: ids.endpointId,
    body: { id: `hostile-${int(rand, 0, 99)}`, type: 'cashin.paid' },
    signature: pick(rand, ['valid', 'bad', 'stale']),
  }));
  add('GET', '/_sandbox/webhooks/sends', 'none', null);
  add('GET', '/_sandbox/clock', 'none', null);
  add('POST', '/_sandbox/clock/advance', 'none', () => ({ seconds: int(rand, 1, 120), accountId: ids.otherAccountId }));
  add('POST', '/_sandbox/clock/freeze', 'none', () => ({ accountId: ids.otherAccountId }));
  add('POST', '/_sandbox/clock/unfreeze', 'none', () => ({ accountId: ids.otherAccountId }));
  add('GET', '/_sandbox/requests', 'none', null);
  add('DELETE', '/_sandbox/requests', 'none', null);
  // faults are only ever sent invalid bodies: a valid one would make later 5xx answers legitimate
  add('GET', '/_sandbox/faults', 'none', null);
  add('POST', '/_sandbox/faults', 'none', null, { body: true });
  add('DELETE', '/_sandbox/faults', 'none', null);
  add('DELETE', '/_sandbox/faults/:id', 'none', null);
  add('GET', '/_sandbox/ui', 'none', null);
  add('GET', '/_sandbox/ui/:file', 'none', null);
  return new Map(specs.map((s) => [`${s.method} ${s.path}`, s]));
}

/** The real id a route's path parameter names. */
function realParam(route: string, name: string, ids: Ids, rand: () => number): string {
  if (name === 'file') return ids.uiFile;
  if (name === 'key') return ids.pixKey;
  if (name === 'walletId') return ids.walletId;
  if (name === 'merchantId') return ids.merchantId;
  if (name === 'transactionId') return pick(rand, [ids.waitingChargeId, ids.paidChargeId, ids.transferId]);
  if (route.includes('/charges/') || route.includes('/pix/qr/')) return pick(rand, [ids.waitingChargeId, ids.paidChargeId]);
  if (route.includes('/transfers/')) return ids.transferId;
  if (route.includes('/accounts/')) return pick(rand, [ids.accountId, ids.otherAccountId]);
  if (route.includes('/merchants/')) return ids.merchantId;
  if (route.includes('/rules/')) return ids.ruleId;
  if (route.includes('/deliveries/')) return ids.deliveryId;
  if (route.includes('/webhooks/')) return ids.endpointId;
  if (route.includes('/transactions/')) return pick(rand, [ids.waitingChargeId, ids.transferId]);
  return uuidLike();
}

/** Path parameter values that no route may accept (400 or 404), encoded for a URL. */
const BAD_PARAMS = [
  'not-a-uuid',
  '00000000-0000-4000-8000-00000000000Z',
  '00000000-0000-4000-8000-0000000000001',
  '%00',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '%zz',
  '%E0%A4%A',
  '%C0%AE%C0%AE',
  '__proto__',
  'constructor',
  'prototype',
  encodeURIComponent('é中文𝄞'),
  encodeURIComponent('\u202eRTL'),
  '%F0%9F%98%80',
  'a'.repeat(2048),
  '-1',
  '1e309',
  'null',
  'undefined',
  '%20',
  '%0d%0aSet-Cookie:%20x=1',
];

/** Random UUIDs name nothing: 404 (never a 500, never another tenant's record). */
const missingParam = () => uuidLike();

function fillPath(route: string, fill: (name: string) => string): string {
  return route.replace(/:(\w+)/g, (_m, name: string) => fill(name));
}

// ---------- values ----------

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83dz', '\udc00\ud800'];
const UNICODE = [
  'é',
  '中文',
  '𝄞',
  '\u202eevil\u202c',
  'שלום',
  'مرحبا',
  '\u200b\u200d\ufeff',
  '\u0000',
  '\u0007\u001b[31m',
  '😀'.repeat(50),
  'Ａ',
  'ﬀ',
  '\r\n',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '{{7*7}}',
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'hasOwnProperty', 'toString', 'valueOf'];

function hostileString(rand: () => number): string {
  const r = rand();
  if (r < 0.2) return pick(rand, LONE_SURROGATES);
  if (r < 0.55) return pick(rand, UNICODE) + pick(rand, UNICODE);
  if (r < 0.65) return 'x'.repeat(int(rand, 141, 5000));
  if (r < 0.75) return '';
  if (r < 0.85) return pick(rand, PROTO_KEYS);
  return `${pick(rand, UNICODE)}${'9'.repeat(int(rand, 1, 40))}`;
}

function wrongTypeFor(original: unknown, rand: () => number): unknown {
  const t = Array.isArray(original) ? 'array' : original === null ? 'null' : typeof original;
  const choices: (() => unknown)[] = [];
  if (t !== 'number') choices.push(() => pick(rand, [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 123456789012345]));
  if (t !== 'string') choices.push(() => hostileString(rand) || 'x');
  if (t !== 'boolean') choices.push(() => rand() < 0.5);
  if (t === 'string' || t === 'number' || t === 'boolean')
    choices.push(
      () => [original],
      () => ({ value: original }),
    );
  if (t === 'string' || t === 'boolean' || t === 'object') choices.push(() => null);
  return pick(rand, choices)();
}

/** Every JSON pointer path to a leaf or object in `v`. */
function paths(v: unknown, prefix: string[] = []): string[][] {
  if (v === null || typeof v !== 'object') return [prefix];
  const out: string[][] = prefix.length ? [prefix] : [];
  for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...prefix, k]));
  return out;
}

function getAt(v: any, p: string[]): unknown {
  return p.reduce((o, k) => (o == null ? undefined : o[k]), v);
}

function setAt(v: any, p: string[], value: unknown): void {
  let o = v;
  for (const k of p.slice(0, -1)) o = o[k];
  o[p[p.length - 1]!] = value;
}

/** JSON text with a key the JSON object literal syntax would otherwise turn into a prototype. */
function withRawKey(json: string, key: string, valueJson: string): string {
  const inner = json.trim().slice(1, -1).trim();
  return `{${JSON.stringify(key)}:${valueJson}${inner ? `,${inner}` : ''}}`;
}

function deepNest(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object' ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

// ---------- auth ----------

function badAuthorization(ids: Ids, rand: () => number): string {
  const now = Math.floor(Date.now() / 1000);
  const options = [
    () => 'Bearer',
    () => 'Bearer ',
    () => 'Bearer a.b.c',
    () => 'bearer  ' + 'x'.repeat(int(rand, 1, 4000)),
    () => `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`,
    () => 'Token abc',
    () => `Bearer ${ids.accountToken}x`,
    () => `Bearer ${ids.accountToken.split('.').slice(0, 2).join('.')}.`,
    // alg "none": unsigned
    () =>
      `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'x', acc: ids.accountId, iat: now, exp: now + 300 })).toString('base64url')}.`,
    // signed with another secret
    () =>
      `Bearer ${jwt.sign({ sub: 'sandbox-client', acc: ids.accountId, jti: 'x' }, 'not-the-secret', { algorithm: 'HS256', expiresIn: 300 })}`,
    // expired
    () =>
      `Bearer ${jwt.sign({ sub: 'sandbox-client', acc: ids.accountId, jti: 'x', iat: now - 4000, exp: now - 3700 }, ids.signingSecret, { algorithm: 'HS256' })}`,
    // a principal that does not exist, or a prototype name as one
    () =>
      `Bearer ${jwt.sign({ sub: 'ghost', acc: pick(rand, [uuidLike(), '__proto__', 'constructor']), jti: 'x' }, ids.signingSecret, { algorithm: 'HS256', expiresIn: 300 })}`,
    () =>
      `Bearer ${jwt.sign({ sub: 'ghost', acc: ids.accountId, mer: pick(rand, [uuidLike(), '__proto__', 'toString']), jti: 'x' }, ids.signingSecret, { algorithm: 'HS256', expiresIn: 300 })}`,
    // claims of the wrong types
    () =>
      `Bearer ${jwt.sign({ sub: 1, acc: { id: ids.accountId }, mer: [1], jti: null }, ids.signingSecret, { algorithm: 'HS256', expiresIn: 300 })}`,
    () => `Bearer ${jwt.sign('just a string payload', ids.signingSecret, { algorithm: 'HS256' })}`,
    // signed with the real key (read from a data file) but living too long, or not at all, or issued
    // in the future, or without a generation or of another (docs/decisions.md#d70-tokens-live-300-seconds-and-die-with-their-credentials)
    () => {
      const claims = pick(rand, [
        { iat: now, gen: 1 },
        { iat: now, exp: now + 86_400 * 365, gen: 1 },
        { iat: now, exp: now + 301, gen: 1 },
        { iat: now + 86_400, exp: now + 86_400 + 300, gen: 1 },
        { iat: now, exp: now + 300 },
        { iat: now, exp: now + 300, gen: 1_000_000 },
        { iat: now, exp: now + 300, gen: '1' },
      ]);
      const signed = jwt.sign({ sub: 'sandbox-client', acc: ids.accountId, jti: 'x', ...claims }, ids.signingSecret, {
        algorithm: 'HS256',
        noTimestamp: true,
      });
      return `Bearer ${signed}`;
    },
  ];
  return pick(rand, options)();
}

// ---------- raw sockets ----------

export interface RawResult {
  status: number;
  head: string;
}

/** Sends raw bytes and reads the status line of the answer (0 when the server answers nothing before closing). */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 1500): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let buf = '';
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(buf);
      resolve({ status: m ? Number(m[1]) : 0, head: buf.slice(0, 300) });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      if (/^HTTP\/1\.[01] \d{3}/.test(buf) && buf.includes('\r\n\r\n')) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    // half-close: a request that promises more body than it sends ends here instead of waiting
    socket.end(bytes);
  });
}

function rawRequest(method: string, target: string, headers: [string, string][], body?: string | Buffer): Buffer {
  const head = `${method} ${target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([
    Buffer.from(head, 'latin1'),
    body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body),
  ]);
}

/** The same request as raw bytes (the path exactly as written). */
function toRaw(req: HostileRequest): Buffer {
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);
  const headers: [string, string][] = [
    ['Host', '127.0.0.1'],
    ...Object.entries(req.headers),
    ['Content-Length', String(body?.length ?? 0)],
    ['Connection', 'close'],
  ];
  return rawRequest(req.method, req.path, headers, body);
}

// ---------- the generator ----------

/** The integer query parameters of the lists (every one read by one strict parser). */
const INTEGER_QUERIES: Record<string, string[]> = {
  '/v1/merchants': ['limit', 'page'],
  '/_sandbox/accounts': ['limit', 'after'],
  '/_sandbox/merchants': ['limit', 'after'],
  '/_sandbox/transactions': ['limit', 'after'],
  '/_sandbox/pix-keys': ['limit', 'after'],
  '/_sandbox/webhooks': ['limit', 'after'],
  '/_sandbox/webhooks/deliveries': ['limit', 'after'],
  '/_sandbox/webhooks/sends': ['limit'],
  '/_sandbox/requests': ['limit'],
};

/** A PNG whose header claims 6000 × 6000 pixels (its one chunk of data is not even that image's). */
const PIXEL_BOMB = ((): Buffer => {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(6000, 0);
  ihdr.writeUInt32BE(6000, 4);
  ihdr[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IEND', Buffer.alloc(0)),
  ]);
})();

export interface Generator {
  /** a request certain to be refused without changing anything */
  rejected(): HostileRequest;
  /** any hostile request: refused, or accepted with odd but valid content */
  mixed(): HostileRequest;
}

export function hostileGenerator(
  routes: { method: string; path: string }[],
  catalog: Map<string, RouteSpec>,
  ids: Ids,
  rand: () => number,
): Generator {
  const specOf = (r: { method: string; path: string }): RouteSpec =>
    catalog.get(`${r.method} ${r.path}`) ?? {
      method: r.method,
      path: r.path,
      body: r.method !== 'GET' && r.method !== 'DELETE',
      valid: () => ({}),
      auth: r.path.startsWith('/v1/') ? 'account' : 'none',
    };
  const specs = routes.map(specOf);
  const mutating = specs.filter((s) => s.method !== 'GET');
  const withBody = specs.filter((s) => s.body);
  const withParams = specs.filter((s) => s.path.includes(':'));
  const authed = specs.filter((s) => s.auth !== 'none');

  const authHeader = (s: RouteSpec): Record<string, string> =>
    s.auth === 'none' ? {} : { authorization: `Bearer ${s.auth === 'merchant' ? ids.merchantToken : ids.accountToken}` };
  const realPath = (s: RouteSpec) => fillPath(s.path, (n) => realParam(s.path, n, ids, rand));
  const base = (kind: string, s: RouteSpec, reject: boolean, over: Partial<HostileRequest> = {}): HostileRequest => ({
    kind,
    route: `${s.method} ${s.path}`,
    method: s.method,
    path: realPath(s),
    headers: { ...authHeader(s), ...(s.headers?.() ?? {}) },
    reject,
    ...over,
  });
  const json = (s: RouteSpec) => (s.valid ? s.valid() : {});

  /** Body-level garbage that no schema accepts: not an object, not JSON, not JSON's media type, too big. */
  const garbageBody = (s: RouteSpec): HostileRequest => {
    const valid = JSON.stringify(json(s));
    const r = rand();
    const ct = { 'content-type': 'application/json' };
    if (r < 0.15)
      return base('non-object-json', s, true, {
        headers: { ...base('', s, true).headers, ...ct },
        body: pick(rand, ['[]', '"x"', '1', 'null', 'true', '[{}]', '-0', '1e999', `[${valid}]`]),
      });
    if (r < 0.35) {
      const cut = valid.length > 2 ? int(rand, 1, valid.length - 1) : 1;
      return base('truncated-json', s, true, { headers: { ...base('', s, true).headers, ...ct }, body: valid.slice(0, cut) });
    }
    if (r < 0.45)
      return base('not-json', s, true, {
        headers: { ...base('', s, true).headers, ...ct },
        body: pick(rand, [
          '{a:1}',
          "{'a':1}",
          '{"a":1,}',
          '{"a":NaN}',
          '\u0000',
          '\ufeff{"a":1',
          '{"a":"\\x41"}',
          '{"a":"\\ud800"',
          '<xml/>',
          '{"a":1}{"b":2}',
          '\u00ff\u00fe{',
        ]),
      });
    if (r < 0.65) {
      const type = pick(rand, [
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/jsonx',
        'image/png',
        '*/*',
        'application/x-www-form-urlencoded',
        'text/json; charset=koi8-r',
      ]);
      // the token endpoint takes form bodies: there, send a form that lacks credentials
      const body = type === 'application/x-www-form-urlencoded' ? 'grant_type=client_credentials&client_id=x&client_secret=y' : valid;
      return base('wrong-content-type', s, true, { headers: { ...base('', s, true).headers, 'content-type': type }, body });
    }
    if (r < 0.72) {
      // over 1 MiB: 413
      const big = `{"description":"${'x'.repeat(1024 * 1024 + int(rand, 1, 4096))}"}`;
      return base('oversized-body', s, true, { headers: { ...base('', s, true).headers, ...ct }, body: big });
    }
    if (r < 0.8 && !ALL_OPTIONAL.has(s.path))
      return base('deep-nesting', s, true, {
        headers: { ...base('', s, true).headers, ...ct },
        body: `{"a":1,"nested":${deepNest(int(rand, 5_000, 60_000), rand() < 0.5 ? 'object' : 'array')}}`.replace(
          '{"a":1,',
          pick(rand, ['[', '{"a":1,']),
        ),
      });
    if (r < 0.9) {
      // a known field with a value of the wrong type
      const v = json(s);
      const ps = paths(v);
      // (webhooks/send: its `body` takes any JSON, so no type is wrong there)
      if (ps.length === 0 || s.path === '/v1/oauth/token' || s.path === '/_sandbox/reset' || s.path === '/_sandbox/webhooks/send')
        return garbageBody(s);
      const p = pick(rand, ps);
      setAt(v, p, wrongTypeFor(getAt(v, p), rand));
      return base('wrong-type', s, true, { headers: { ...base('', s, true).headers, ...ct }, body: JSON.stringify(v) });
    }
    // prototype keys only, required fields missing (routes whose fields are all optional take that as a valid empty body)
    if (ALL_OPTIONAL.has(s.path)) return garbageBody(s);
    return base('proto-only', s, true, {
      headers: { ...base('', s, true).headers, ...ct },
      body: pick(rand, [
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '{"__proto__":null}',
        '{"prototype":[]}',
      ]),
    });
  };

  const rejectedViaAuth = (): HostileRequest => {
    const s = pick(rand, authed);
    const r = rand();
    const headers: Record<string, string> = { ...(s.headers?.() ?? {}) };
    if (r > 0.1) headers.authorization = badAuthorization(ids, rand);
    const req = base('bad-auth', s, true, { headers });
    if (s.body) {
      req.headers['content-type'] = 'application/json';
      req.body = JSON.stringify(json(s));
    }
    return req;
  };

  const rejectedViaParam = (): HostileRequest => {
    const s = pick(rand, withParams);
    const value = rand() < 0.7 ? pick(rand, BAD_PARAMS) : missingParam();
    const req = base('bad-param', s, true, { path: fillPath(s.path, () => value) });
    // a DELETE of a directory key or rule by a name that does not exist is a 404 or an idempotent 204 with no change
    if (s.body) {
      req.headers['content-type'] = 'application/json';
      req.body = JSON.stringify(json(s));
    }
    // fetch would resolve dot segments (%2e%2e) before sending: those go out byte for byte
    if (value.includes('%2e') || rand() < 0.2) req.raw = toRaw(req);
    return req;
  };

  const rejectedViaRaw = (): HostileRequest => {
    const s = pick(
      rand,
      mutating.filter((m) => m.body),
    );
    const path = realPath(s);
    const auth = Object.entries(authHeader(s));
    const valid = JSON.stringify(json(s));
    const host: [string, string] = ['Host', '127.0.0.1'];
    const r = rand();
    let raw: Buffer;
    let kind: string;
    if (r < 0.15) {
      kind = 'raw-content-length-too-big';
      raw = rawRequest(
        s.method,
        path,
        [
          host,
          ...auth,
          ['Content-Type', 'application/json'],
          ['Content-Length', String(valid.length + int(rand, 1, 100))],
          ['Connection', 'close'],
        ],
        valid.slice(0, Math.floor(valid.length / 2)),
      );
    } else if (r < 0.3) {
      kind = 'raw-content-length-too-small';
      raw = rawRequest(
        s.method,
        path,
        [
          host,
          ...auth,
          ['Content-Type', 'application/json'],
          ['Content-Length', String(Math.max(1, Math.floor(valid.length / 2)))],
          ['Connection', 'close'],
        ],
        valid,
      );
    } else if (r < 0.4) {
      kind = 'raw-content-length-duplicated';
      raw = rawRequest(
        s.method,
        path,
        [
          host,
          ...auth,
          ['Content-Type', 'application/json'],
          ['Content-Length', String(valid.length)],
          ['Content-Length', '3'],
          ['Connection', 'close'],
        ],
        valid,
      );
    } else if (r < 0.5) {
      kind = 'raw-content-length-invalid';
      raw = rawRequest(
        s.method,
        path,
        [
          host,
          ...auth,
          ['Content-Type', 'application/json'],
          ['Content-Length', pick(rand, ['-1', 'abc', '1e3', '0x10', '99999999999999999999'])],
          ['Connection', 'close'],
        ],
        valid,
      );
    } else if (r < 0.6) {
      kind = 'raw-header-too-large';
      raw = rawRequest(
        s.method,
        path,
        [
          host,
          ...auth,
          ['X-Huge', 'h'.repeat(int(rand, 17_000, 40_000))],
          ['Content-Type', 'application/json'],
          ['Content-Length', String(valid.length)],
          ['Connection', 'close'],
        ],
        valid,
      );
    } else if (r < 0.7) {
      kind = 'raw-header-invalid-chars';
      raw = rawRequest(
        s.method,
        path,
        [
          host,
          ...auth,
          ['X-Bad', pick(rand, ['a\u0000b', 'x\u007fy', 'line\rbreak'])],
          ['Content-Type', 'application/json'],
          ['Content-Length', String(valid.length)],
          ['Connection', 'close'],
        ],
        valid,
      );
    } else if (r < 0.8) {
      // path tricks a client library would normalize away; the server must not
      kind = 'raw-path-trick';
      const trick = pick(rand, [
        `/v1/banking/../..${path}/..`,
        `/x/..${path}`,
        `/%2e%2e${path}`,
        `${path}/%2e%2e/`,
        `//${path.slice(1)}`,
        `${path}%00`,
        `${path}/..`,
        `/_sandbox/../_sandbox/reset`,
        `/v1/oauth/token/../../_sandbox/reset`,
        `${path.toUpperCase()}`,
        `${path}%2F`,
        `http://evil.example${path}`,
        `*`,
        `/${'a/'.repeat(int(rand, 500, 3000))}`,
      ]);
      // a body that no schema accepts, so that even a route the trick resolved to refuses it
      raw = rawRequest(
        s.method,
        trick,
        [host, ['Content-Type', 'application/json'], ['Content-Length', '2'], ['Connection', 'close']],
        '[]',
      );
    } else if (r < 0.9) {
      kind = 'raw-chunked-broken';
      raw = rawRequest(
        s.method,
        path,
        [host, ...auth, ['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked'], ['Connection', 'close']],
        `ff\r\n${valid.slice(0, 10)}\r\nzz\r\n`,
      );
    } else {
      kind = 'raw-te-and-cl';
      raw = rawRequest(
        s.method,
        path,
        [
          host,
          ...auth,
          ['Content-Type', 'application/json'],
          ['Transfer-Encoding', 'chunked'],
          ['Content-Length', '5'],
          ['Connection', 'close'],
        ],
        `2\r\n[]\r\n0\r\n\r\n`,
      );
    }
    return base(kind, s, true, { raw });
  };

  const control = specs.filter((x) => x.path.startsWith('/_sandbox/') && x.path !== '/_sandbox/health');
  /** control lists and the public one whose integer query parameters are read strictly (docs/decisions.md#d72-strict-query-integers) */
  const integerQueries = specs
    .filter((x) => x.method === 'GET')
    .flatMap((x) => (INTEGER_QUERIES[x.path] ?? []).map((name) => ({ spec: x, name })));

  /** The shapes of the hardening audit (issue 22): every one refused, nothing changed. */
  const rejectedViaHardening = (): HostileRequest => {
    const r = rand();
    if (r < 0.15) {
      // a page of another site: its Origin, or the Sec-Fetch-Site a browser adds
      const s = pick(rand, control);
      const req = base('cross-site', s, true);
      if (rand() < 0.5)
        req.headers.origin = pick(rand, ['https://evil.example', 'null', 'http://127.0.0.1:1', 'http://localhost', 'file://']);
      else req.headers['sec-fetch-site'] = pick(rand, ['cross-site', 'same-site']);
      if (s.body) {
        req.headers['content-type'] = 'application/json';
        req.body = JSON.stringify(json(s));
      }
      return req;
    }
    if (r < 0.3) {
      // a DNS-rebinding page: the control API asked for under the attacker's own name
      const s = pick(rand, control);
      const host = pick(rand, ['evil.example', 'rebind.attacker.example:8080', '127.0.0.1.nip.io', 'localhost.evil.example', 'a.b']);
      const req = base('foreign-host', s, true);
      const headers: [string, string][] = [['Host', host], ...Object.entries(req.headers), ['Connection', 'close']];
      const body = s.body ? JSON.stringify(json(s)) : undefined;
      if (body) headers.push(['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(body))]);
      else headers.push(['Content-Length', '0']);
      return { ...req, raw: rawRequest(s.method, req.path, headers, body) };
    }
    if (r < 0.45) {
      // what a page may send anywhere without asking: a form's or text's type, even with no body
      const s = pick(
        rand,
        control.filter((x) => x.method !== 'GET'),
      );
      const type = pick(rand, [
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data; boundary=x',
        'text/plain; charset=utf-8',
      ]);
      const body = pick(rand, ['', 'a=1', '{"name":"x"}']);
      return base('control-form-type', s, true, { headers: { ...base('', s, true).headers, 'content-type': type }, body });
    }
    if (r < 0.6 && integerQueries.length > 0) {
      // query integers past every bound, or not written in digits
      const { spec, name } = pick(rand, integerQueries);
      const value = pick(rand, [
        '1e400',
        'Infinity',
        '-Infinity',
        'NaN',
        '1.0',
        '%2B5',
        '%205',
        '5%20',
        '0x10',
        '1e2',
        '0b1',
        '99999999999999999',
      ]);
      return base('query-integer', spec, true, { path: `${realPath(spec)}?${name}=${value}` });
    }
    const s = (path: string) => specs.find((x) => x.method === 'POST' && x.path === path);
    const far = pick(rand, ['9999-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '10000-01-01T00:00:00Z', '+010000-01-01T00:00:00Z']);
    const shapes: [RouteSpec | undefined, () => Record<string, unknown>][] = [
      [s('/_sandbox/accounts'), () => ({ name: 'Far', clock: { at: far, frozen: rand() < 0.5 } })],
      [s('/_sandbox/clock/advance'), () => ({ to: far, ...(rand() < 0.5 ? { accountId: ids.otherAccountId } : {}) })],
      [
        s('/_sandbox/webhooks'),
        () => ({
          url: pick(rand, ['ftp://127.0.0.1/h', 'javascript:alert(1)', 'http://127.0.0.1:0/h', 'http://127.0.0.1:65536/h', 'data:,x']),
        }),
      ],
      [
        s('/_sandbox/reset'),
        () => ({
          fixtures: {
            accounts: [{ id: ids.accountId, name: 'A', client_id: 'a', client_secret: 'b', clock: { at: far } }],
            webhooks: [{ url: 'file:///etc/passwd' }],
          },
        }),
      ],
      // an image whose header claims 36 million pixels: refused before decoding
      [s('/_sandbox/pix/pay'), () => ({ qrImage: `data:image/png;base64,${PIXEL_BOMB.toString('base64')}` })],
    ];
    const [spec, body] = pick(
      rand,
      shapes.filter(([x]) => x !== undefined),
    );
    return base('hardening-body', spec!, true, {
      headers: { ...base('', spec!, true).headers, 'content-type': 'application/json' },
      body: JSON.stringify(body()),
    });
  };

  const oddMethod = (reject: boolean): HostileRequest => {
    const s = pick(rand, specs);
    const known = new Set(routes.filter((r) => r.path === s.path).map((r) => r.method));
    // a method the path does not have: 405 (or 501/400 from node's parser for unknown verbs, never 5xx from the app)
    const candidates = [
      'PUT',
      'DELETE',
      'PATCH',
      'POST',
      'PROPFIND',
      'MKCOL',
      'LINK',
      'PURGE',
      'SEARCH',
      'TRACE',
      'CONNECT',
      'get',
      'FOO',
      'HEAD',
    ].filter((m) => !known.has(m) && !(m === 'HEAD' && known.has('GET')));
    const method = pick(rand, candidates);
    const raw = rawRequest(method, realPath(s), [
      ['Host', '127.0.0.1'],
      ...Object.entries(authHeader(s)),
      ['Content-Length', '0'],
      ['Connection', 'close'],
    ]);
    return base('odd-method', s, reject, { method, raw });
  };

  const rejected = (): HostileRequest => {
    const r = rand();
    if (r < 0.3) return garbageBody(pick(rand, withBody));
    if (r < 0.47) return rejectedViaAuth();
    if (r < 0.64) return rejectedViaParam();
    if (r < 0.76) return rejectedViaRaw();
    if (r < 0.88) return rejectedViaHardening();
    return oddMethod(true);
  };

  /** A valid body with hostile additions or free text: may be accepted, must never break anything. */
  const oddButValid = (): HostileRequest => {
    const candidates = withBody.filter((s) => s.valid !== null && s.path !== '/_sandbox/faults');
    let s = pick(rand, candidates);
    // a reset rehashes the fixture secrets (scrypt): rarer, to keep the run short
    if (s.path === '/_sandbox/reset' && rand() < 0.8) s = pick(rand, candidates);
    let text = JSON.stringify(json(s));
    let kind = 'odd-but-valid';
    const r = rand();
    if (r < 0.4) {
      // extra keys: prototype names, unicode, very long names; valid JSON, unknown to the schema
      const n = int(rand, 1, 4);
      for (let i = 0; i < n; i++) {
        const key = rand() < 0.5 ? pick(rand, PROTO_KEYS) : hostileString(rand) || 'k';
        const value = pick(rand, [
          '{"polluted":true}',
          '{"prototype":{"polluted":true}}',
          '1',
          '"x"',
          'null',
          JSON.stringify(hostileString(rand)),
        ]);
        text = withRawKey(text, key, value);
      }
    } else if (r < 0.8) {
      // hostile free text in string fields (names, descriptions, messages)
      const v = json(s);
      for (const p of paths(v)) {
        const leaf = p[p.length - 1]!;
        if (typeof getAt(v, p) === 'string' && /name|description|message/.test(leaf))
          setAt(v, p, (hostileString(rand) || 'x').slice(0, int(rand, 1, 160)));
      }
      text = JSON.stringify(v);
    } else {
      // extras inside known objects, or at the top: prototype keys, or nesting deep enough to
      // break any recursive copy or serializer that meets it (JSON.stringify gives up near 5,000)
      const v = json(s);
      const objs = paths(v).filter(
        (p) => p.length > 0 && getAt(v, p) !== null && typeof getAt(v, p) === 'object' && !Array.isArray(getAt(v, p)),
      );
      text = JSON.stringify(v);
      const deep = rand() < 0.5;
      const key = deep ? 'extra' : pick(rand, PROTO_KEYS);
      const value = deep ? deepNest(int(rand, 2_000, 20_000), rand() < 0.5 ? 'object' : 'array') : '{"polluted":true}';
      if (objs.length > 0 && rand() < 0.7) {
        const p = pick(rand, objs);
        const inner = JSON.stringify(getAt(v, p));
        text = text.replace(inner, withRawKey(inner, key, value));
      } else text = withRawKey(text, key, value);
      kind = deep ? 'deep-extra' : 'proto-extra';
    }
    return base(kind, s, false, {
      headers: {
        ...base('', s, false).headers,
        'content-type': pick(rand, ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.api+json']),
      },
      body: text,
    });
  };

  const oddHeaders = (): HostileRequest => {
    const s = pick(rand, specs);
    const req = base('odd-headers', s, false);
    const r = rand();
    if (r < 0.3) req.headers['x-request-id'] = pick(rand, ['', 'x'.repeat(5000), '../../etc', 'é', 'a b c', '${jndi}']);
    else if (r < 0.6)
      req.headers['x-idempotency-key'] = pick(rand, ['', 'not-a-uuid', uuidLike().toUpperCase(), `${uuidLike()} `, 'x'.repeat(3000)]);
    else if (r < 0.7) req.headers['x-huge'] = 'v'.repeat(int(rand, 1000, 12_000));
    else if (r < 0.8) {
      // what the dashboard's own page sends: accepted
      req.headers['sec-fetch-site'] = pick(rand, ['same-origin', 'none']);
      if (rand() < 0.5) req.headers.origin = ids.origin;
    } else req.headers.accept = pick(rand, ['text/html', 'application/xml', '*/*;q=0', 'image/png']);
    if (s.body) {
      req.headers['content-type'] = 'application/json';
      req.body = JSON.stringify(json(s));
    }
    return req;
  };

  const oddQuery = (): HostileRequest => {
    const s = pick(
      rand,
      specs.filter((x) => x.method === 'GET'),
    );
    const q = pick(rand, [
      '?page=1&page=2',
      '?limit=1e3',
      '?limit=-1',
      '?limit=101',
      '?limit=99999999999999999999',
      '?status=__proto__',
      '?__proto__[polluted]=1',
      '?constructor[prototype][polluted]=1',
      '?page[]=1',
      '?accountId=%00',
      '?status=ACTIVE&status=SUSPENDED',
      `?q=${'x'.repeat(6000)}`,
      '?type=CASH_IN&type=CASH_OUT',
      '?limit=0x10',
      '?limit=1e400',
      '?limit=Infinity',
      '?after=1.0',
      '?limit=%2B5',
      '?%zz=1',
      '?externalId=%E0%A4%A',
    ]);
    return base('odd-query', s, false, { path: realPath(s) + q });
  };

  const validCall = (): HostileRequest => {
    // ordinary traffic in between, so that hostile requests meet real state changes
    const s = pick(
      rand,
      // resets would take away the merchants and transactions the other requests name
      specs.filter((x) => !['/_sandbox/faults', '/_sandbox/reset', '/_sandbox/accounts/:id/reset'].includes(x.path) || x.method === 'GET'),
    );
    const req = base('valid', s, false);
    if (s.body) {
      req.headers['content-type'] = 'application/json';
      req.body = JSON.stringify(json(s));
    }
    return req;
  };

  return {
    rejected,
    mixed: () => {
      const r = rand();
      if (r < 0.35) return rejected();
      if (r < 0.6) return oddButValid();
      if (r < 0.72) return oddHeaders();
      if (r < 0.82) return oddQuery();
      if (r < 0.9) return oddMethod(false);
      return validCall();
    },
  };
}
