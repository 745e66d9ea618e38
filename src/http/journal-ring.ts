// The request journal's ring and its redaction (docs/control-api.md#request-journal): kept apart
// from the journal stage (an express middleware) because the app context holds the ring, and a
// consumer of the package's types must not need express's types (skipLibCheck: false).
import type { JournalEntry } from './journal-entry.js';

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

function present(e: RawEntry): JournalEntry {
  return {
    seq: e.seq,
    at: new Date(e.atMs).toISOString(),
    method: e.method,
    path: redactUrl(e.url),
    status: e.status,
    durationMs: e.durationMs,
    requestId: e.requestId,
    requestHeaders: redact(e.headers) as JournalEntry['requestHeaders'],
    requestBody: e.body ?? null,
    responseBody: redact(parseCaptured(e.response, e.contentType)),
  };
}

/** A ring of the newest `capacity` entries. */
export class Journal {
  #ring: (RawEntry | undefined)[];
  #next = 0;
  #seq = 0;
  #listeners: (() => void)[] = [];
  constructor(readonly capacity: number) {
    this.#ring = new Array<RawEntry | undefined>(capacity);
  }

  /** Stores the entry, numbering it (its `seq` is set here). */
  add(raw: RawEntry): void {
    if (this.capacity === 0) return;
    raw.seq = ++this.#seq;
    this.#ring[this.#next] = raw;
    this.#next = (this.#next + 1) % this.capacity;
    for (const l of this.#listeners) l();
  }

  /** Called after each entry added and each clear (the change feed tells the dashboard). */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
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
    for (const l of this.#listeners) l();
  }

  get size(): number {
    let n = 0;
    for (const slot of this.#ring) if (slot) n++;
    return n;
  }
}
