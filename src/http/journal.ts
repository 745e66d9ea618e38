// The request journal (CONTRACT §12): a bounded ring of recent API requests and their answers,
// for a tester to see what their app really sent. It is diagnostic and lives in memory only
// (not in the store): a restart empties it, and a reset clears it.
// Only the API a client under test calls is journaled: /v1/... and the charge locations /pix/...;
// control calls (/_sandbox, a dashboard polling it) and /openapi.json are not.
// Every secret is redacted from what the journal shows: Authorization values, client secrets,
// access tokens, the admin token, in headers, JSON and form bodies, and query strings alike.
// Recording is on every API request's path, so headers and the bytes answered are kept raw and
// redacted only when the journal is listed (nothing unredacted ever leaves); a request body is
// redacted at once, since that copy is also what bounds its size.
import type { RequestHandler, Response } from 'express';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context.js';
import type { JournalEntry } from './journal-entry.js';

const JOURNALED = /^\/(v1|pix)(\/|$)/;
/** bytes of a response kept per entry (a QR image is ~2 KiB), so 500 entries stay small */
const MAX_CAPTURE_BYTES = 32 * 1024;
const MAX_STRING = 512;
export const REDACTED = '[REDACTED]';

const SECRET_FIELDS = new Set([
  'authorization',
  'proxy-authorization',
  'x-sandbox-admin-token',
  'cookie',
  'set-cookie',
  'client_secret',
  'clientsecret',
  'access_token',
  'accesstoken',
  'refresh_token',
  'id_token',
  'password',
  'secret',
]);
const JWT = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}$/;

/** A header value keeps its scheme ("Bearer", "Basic") so the journal still shows how a client authenticated. */
function redactValue(key: string, value: unknown): unknown {
  if (typeof value === 'string' && (key === 'authorization' || key === 'proxy-authorization')) {
    const scheme = /^(\w+)\s/.exec(value);
    return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
  }
  return REDACTED;
}

/** Values kept per redacted copy, so that an entry stays small whatever a client sends (a 1 MiB body of 50,000 keys). */
const MAX_NODES = 500;

/** A deep copy with secrets replaced, long strings (QR images) shortened, and at most MAX_NODES values. */
export function redact(value: unknown, depth = 0, budget = { left: MAX_NODES }): unknown {
  budget.left--;
  if (typeof value === 'string') {
    if (JWT.test(value)) return REDACTED;
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20 || budget.left < 0) return '…';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => (budget.left > 0 ? redact(v, depth + 1, budget) : '…'));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    if (budget.left <= 0) {
      out['…'] = 'further fields left out';
      break;
    }
    const v = (value as Record<string, unknown>)[k];
    const kept = SECRET_FIELDS.has(k.toLowerCase()) ? redactValue(k.toLowerCase(), v) : redact(v, depth + 1, budget);
    // defined, not assigned: a "__proto__" key stays a plain field of the copy
    Object.defineProperty(out, k.length > MAX_STRING ? `${k.slice(0, MAX_STRING)}…` : k, {
      value: kept,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The query string's secret parameters redacted (some clients put credentials there). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const k of [...params.keys()]) if (SECRET_FIELDS.has(k.toLowerCase()) || JWT.test(params.get(k) ?? '')) params.set(k, REDACTED);
  return `${url.slice(0, q)}?${params.toString().replace(/%5BREDACTED%5D/g, REDACTED)}`;
}

/** What the stage records: references and the answer as sent, converted and redacted only by `list()`. */
export interface RawEntry {
  seq: number;
  /** sandbox time when the request arrived, epoch ms (made into text when listed) */
  atMs: number;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  requestId: string;
  headers: Record<string, unknown>;
  /** already redacted (bounded) when the parser set it */
  body: unknown;
  /** the answer as handed to end(): a string or bytes, at most MAX_CAPTURE_BYTES of it */
  response: string | Buffer | null;
  contentType: string | undefined;
}

/** At most MAX_CAPTURE_BYTES (characters, for text) of an answer, kept as it came: no copy, no conversion, when small. */
function clip(chunk: unknown): string | Buffer | null {
  if (typeof chunk === 'string') return chunk.length > MAX_CAPTURE_BYTES ? chunk.slice(0, MAX_CAPTURE_BYTES) : chunk;
  if (Buffer.isBuffer(chunk)) return chunk.length > MAX_CAPTURE_BYTES ? Buffer.from(chunk.subarray(0, MAX_CAPTURE_BYTES)) : chunk;
  return null;
}

function present(e: RawEntry): JournalEntry {
  return {
    seq: e.seq,
    at: new Date(e.atMs).toISOString(),
    method: e.method,
    path: redactUrl(e.url),
    status: e.status,
    durationMs: e.durationMs,
    requestId: e.requestId,
    requestHeaders: redact(e.headers) as Record<string, unknown>,
    requestBody: e.body ?? null,
    responseBody: redact(parseCaptured(e.response, e.contentType)),
  };
}

/** A ring of the newest `capacity` entries. */
export class Journal {
  #ring: (RawEntry | undefined)[];
  #next = 0;
  #seq = 0;
  constructor(readonly capacity: number) {
    this.#ring = new Array<RawEntry | undefined>(capacity);
  }

  /** Stores the entry, numbering it (its `seq` is set here). */
  add(raw: RawEntry): void {
    if (this.capacity === 0) return;
    raw.seq = ++this.#seq;
    this.#ring[this.#next] = raw;
    this.#next = (this.#next + 1) % this.capacity;
  }

  /** Newest first, redacted. */
  list(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= this.capacity; i++) {
      const slot = this.#ring[(this.#next - i + this.capacity) % this.capacity];
      if (slot) out.push(present(slot));
    }
    return out;
  }

  clear(): void {
    this.#ring = new Array<RawEntry | undefined>(this.capacity);
    this.#next = 0;
  }

  get size(): number {
    let n = 0;
    for (const slot of this.#ring) if (slot) n++;
    return n;
  }
}

function parseCaptured(response: string | Buffer | null, contentType: string | undefined): unknown {
  if (response === null) return null;
  const text = typeof response === 'string' ? response : response.toString('utf8');
  if (contentType && /json/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      /* fall through: keep it as text */
    }
  }
  if (contentType && !/^(text\/|application\/(json|[\w.+-]*\+json|x-www-form-urlencoded))/i.test(contentType))
    return `(${text.length} bytes of ${contentType})`;
  return text;
}

/**
 * Hands the journal the body as the client sent it (parseBody calls this before validation fills
 * in defaults). Redacted now, not when listed: the copy is bounded (MAX_NODES), the client's body may not be.
 */
export function noteBody(res: Response, body: unknown): void {
  const entry = res.locals.journalEntry as RawEntry | undefined;
  if (entry) entry.body = body === undefined ? null : redact(body);
}

/** The journal stage: first in the pipeline, so that it sees every answer, injected faults included. */
export function journalStage(ctx: AppContext): RequestHandler {
  const journal = ctx.journal;
  return (req, res, next) => {
    if (journal.capacity === 0 || !JOURNALED.test(req.path)) return next();
    const started = performance.now();
    // one object per request, filled in as the request goes (body: noteBody; the rest: at end())
    const entry: RawEntry = {
      seq: 0,
      atMs: ctx.clock.nowMs(),
      method: req.method,
      url: req.originalUrl,
      status: 0,
      durationMs: 0,
      requestId: '',
      headers: req.headers,
      body: undefined,
      response: null,
      contentType: undefined,
    };
    res.locals.journalEntry = entry;
    // Journaled paths answer with res.json/res.send, which hand the whole body to one end() call:
    // the entry is recorded there, keeping the chunk as it is (converted when the journal is listed).
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with res as `this` below
    const end = res.end as (this: Response, chunk?: unknown, encoding?: unknown, cb?: unknown) => Response;
    res.end = function journaledEnd(this: Response, chunk?: unknown, encoding?: unknown, cb?: unknown) {
      entry.status = res.statusCode;
      entry.durationMs = Math.round((performance.now() - started) * 100) / 100;
      entry.requestId = String(res.locals.requestId ?? '');
      entry.response = clip(chunk);
      entry.contentType = res.getHeader('content-type')?.toString();
      journal.add(entry);
      return end.call(this, chunk, encoding, cb);
    } as typeof res.end;
    next();
  };
}
