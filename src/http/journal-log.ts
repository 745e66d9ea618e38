// The request journal (docs/control-api.md#request-journal): a ring per tenant (./journal-ring.ts), and
// the redaction (./redact.ts) every entry goes through before it is shown. Apart from the journal stage (./journal.ts,
// express middleware) because the app context holds the journal, and a consumer of the package's types
// must not need express's types (skipLibCheck: false).
import querystring from 'node:querystring';
import type { SeenRequest } from '../domain/request-match.js';
import type { Wire } from '../schemas/from-schema.js';
import type { journalEntrySchema } from '../schemas/control-responses.js';
import { mergeBySeq } from '../store/page.js';
import { Ring, type Kept, type RawEntry, type Texts } from './journal-ring.js';
import { redact, redactText } from './redact.js';

/** One entry as GET /_sandbox/requests shows it: the type of its schema. */
export type JournalEntry = Wire<typeof journalEntrySchema>;

const FORM = /^application\/x-www-form-urlencoded/i;

/** A captured request body as the journal shows it: parsed by its type, redacted. */
function shownBody(t: Pick<Texts, 'shown' | 'body' | 'bodyType'>): unknown {
  if (t.shown !== null) return JSON.parse(t.shown) as unknown;
  const body = t.body;
  if (body === null) return null;
  const type = t.bodyType ?? '';
  if (/json/i.test(type)) {
    try {
      return redact(JSON.parse(body));
    } catch {
      // shown as text it could carry a secret the redaction cannot find outside JSON
      return `(${Buffer.byteLength(body)} bytes of ${type} that are not valid JSON)`;
    }
  }
  if (FORM.test(type)) return redact(querystring.parse(body));
  return `(${Buffer.byteLength(body)} bytes of ${type || 'no Content-Type'})`;
}

function parseAnswer(text: string | null, contentType: string | null): unknown {
  if (text === null) return null;
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

function present(e: Kept, accountId: string | null, t: Texts): JournalEntry {
  return {
    seq: e.seq,
    accountId,
    at: new Date(e.atMs).toISOString(),
    method: t.method!,
    path: redactText(t.url!),
    status: e.status,
    durationMs: e.durationMs,
    requestId: t.requestId!,
    requestHeaders: redact(JSON.parse(t.headers!)) as JournalEntry['requestHeaders'],
    requestBody: shownBody(t),
    responseBody: redact(parseAnswer(t.response, t.contentType)),
  };
}

/** What a listing asks for; every filter is applied to the kept entries, before any is made into its wire shape. */
export interface JournalQuery {
  /** one tenant's ring (null: the requests of no known tenant); absent: every ring, merged newest first */
  accountId?: string | null;
  method?: string;
  status?: number;
  /** a prefix of the path as shown (its query string redacted) */
  path?: string;
  requestId?: string;
  limit?: number;
}

function matches(t: Texts, q: JournalQuery): boolean {
  if (q.method !== undefined && t.method !== q.method) return false;
  if (q.requestId !== undefined && t.requestId !== q.requestId) return false;
  // compared with the path as shown: a filter must not find out, a prefix at a time, what is redacted
  if (q.path !== undefined && !redactText(t.url!).startsWith(q.path)) return false;
  return true;
}

/** A header name as HTTP allows it (a token, lower case): one whose JSON key can be looked for in the raw headers. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * One journal entry as a verification sees it (SeenRequest), moved from entry to entry (Journal.eachSeen).
 * Its status and method come from the ring's columns; its URL is read when its path or query is asked
 * for, its other texts when its headers or body are.
 */
class Seen implements SeenRequest {
  seq = 0;
  status = 0;
  method = '';
  #ring: Ring | null = null;
  #slot = 0;
  #url: string | null = null;
  #path: string | null = null;
  #query: Record<string, string> | null = null;
  #headers: Record<string, unknown> | null = null;
  /** the headers text last parsed, and what it parsed to: an app sends the same headers entry after entry, parsed once */
  #parsed: { text: string; headers: Record<string, unknown> } | null = null;
  #body: { value: unknown } | null = null;
  /** the JSON key of each header name asked about, as bytes: made once per verification, not per entry */
  readonly #keys = new Map<string, Buffer>();

  /** `bodies`: the bodies parsed, by seq, kept for a second read of the same entries (a failure's near misses) */
  constructor(readonly bodies?: Map<number, unknown>) {}

  at(ring: Ring, slot: number): void {
    this.#ring = ring;
    this.#slot = slot;
    this.#url = this.#path = this.#query = this.#headers = this.#body = null;
    this.seq = ring.seqAt(slot);
    this.status = ring.statusAt(slot);
    this.method = ring.methodAt(slot);
  }

  /** as the journal shows it: a verification never matches on a secret, nor tells one a prefix at a time */
  #shownUrl(): string {
    return (this.#url ??= redactText(this.#ring!.textAt(this.#slot, 'url')!));
  }

  get path(): string {
    if (this.#path === null) {
      const url = this.#shownUrl();
      const q = url.indexOf('?');
      this.#path = q < 0 ? url : url.slice(0, q);
    }
    return this.#path;
  }

  query(): Record<string, string> {
    const url = this.#shownUrl();
    const q = url.indexOf('?');
    // the first value of a repeated name
    return (this.#query ??= q < 0 ? {} : Object.fromEntries([...new URLSearchParams(url.slice(q + 1))].reverse()));
  }

  headers(): Record<string, unknown> {
    if (this.#headers === null) {
      const text = this.#ring!.textAt(this.#slot, 'headers')!;
      if (this.#parsed?.text !== text) this.#parsed = { text, headers: redact(JSON.parse(text)) as Record<string, unknown> };
      this.#headers = this.#parsed.headers;
    }
    return this.#headers;
  }

  mayHaveHeader(name: string): boolean {
    if (this.#headers !== null || !HEADER_NAME.test(name)) return true;
    let key = this.#keys.get(name);
    if (!key) this.#keys.set(name, (key = Buffer.from(`${JSON.stringify(name)}:`)));
    // the headers are kept as JSON.stringify(req.headers): a key is `"name":`, and the same bytes cannot
    // stand inside a value, whose quotes are escaped; redaction never adds a key a client did not send
    return this.#ring!.textHolds(this.#slot, 'headers', key);
  }

  body(): unknown {
    if (this.#body === null && this.bodies?.has(this.seq)) this.#body = { value: this.bodies.get(this.seq) };
    if (this.#body === null) {
      // its body's texts alone, and only when it had one (most requests have none): the headers are not read for it
      const [ring, slot] = [this.#ring!, this.#slot];
      const body = ring.hasBodyAt(slot)
        ? shownBody({ body: ring.textAt(slot, 'body'), shown: ring.textAt(slot, 'shown'), bodyType: ring.textAt(slot, 'bodyType') })
        : null;
      this.#body = { value: body };
      if (body !== null) this.bodies?.set(this.seq, body);
    }
    return this.#body.value;
  }
}

/**
 * The journal: a ring per tenant (docs/decisions.md#d63-a-journal-per-tenant), so that a busy tenant
 * never pushes out another's entries; requests of no known tenant have a ring of their own. Rings are
 * made as their first entry comes and grow with their entries. Entries are numbered across rings, so
 * a listing of several is one order, newest first.
 */
export class Journal {
  readonly #rings = new Map<string | null, Ring>();
  #seq = 0;
  #listeners: ((accountId: string | null | undefined) => void)[] = [];
  /** `capacity`: entries kept per tenant (0 turns the journal off) */
  constructor(readonly capacity: number) {}

  /** Keeps the exchange in its tenant's ring, numbered across rings. */
  add(raw: RawEntry): void {
    if (this.capacity === 0) return;
    let ring = this.#rings.get(raw.accountId);
    if (!ring) this.#rings.set(raw.accountId, (ring = new Ring(this.capacity)));
    ring.add(++this.#seq, raw);
    for (const l of this.#listeners) l(raw.accountId);
  }

  /**
   * Called after each entry added (with its tenant) and each clear (with the tenant cleared, undefined
   * for every one): the change feed tells the dashboard, a waiting verification looks again. Returns
   * the function that stops it.
   */
  onChange(listener: (accountId: string | null | undefined) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  /** One tenant's rings, or (undefined) every one, merged newest first: the entries and the ring each is of. */
  #newest(accountId: string | null | undefined): Iterable<Kept & { accountId: string | null }> {
    const rings = [...this.#rings].filter(([id]) => accountId === undefined || id === accountId);
    return mergeBySeq(
      rings.map(([id, ring]) =>
        (function* () {
          for (const e of ring.newest()) yield { ...e, accountId: id };
        })(),
      ),
    );
  }

  /**
   * The requests as a verification reads them (docs/control-api.md#verifying-requests): one tenant's
   * ring, or (undefined) each ring in turn, each newest first, until `visit` returns false. The request
   * handed over is one object, reused: its status and method cost no text read (the ring's columns), its
   * path one; the query, the headers and the body are parsed and redacted as a listing shows them only
   * when asked for.
   */
  eachSeen(accountId: string | null | undefined, visit: (r: SeenRequest) => boolean | void, bodies?: Map<number, unknown>): void {
    const seen = new Seen(bodies);
    for (const [id, ring] of this.#rings) {
      if (accountId !== undefined && id !== accountId) continue;
      let stopped = false;
      ring.eachNewest((slot) => {
        seen.at(ring, slot);
        if (visit(seen) === false) stopped = true;
        return !stopped;
      });
      if (stopped) return;
    }
  }

  /** Newest first, filtered, redacted: at most `limit`; it costs the entries looked at, and only those shown are made into their shape. */
  list(q: JournalQuery = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const limit = q.limit ?? Infinity;
    if (limit <= 0) return out;
    for (const e of this.#newest(q.accountId)) {
      if (q.status !== undefined && e.status !== q.status) continue;
      const texts = e.texts();
      if (!matches(texts, q)) continue;
      out.push(present(e, e.accountId, texts));
      if (out.length >= limit) break;
    }
    return out;
  }

  /**
   * One tenant's entries as kept, newest first, unredacted: for the integration report
   * (src/services/report.ts), which reads them whole and shows only their numbers. Costs the entries read.
   */
  *exchanges(accountId: string | null): Generator<Kept> {
    const ring = this.#rings.get(accountId);
    if (ring) yield* ring.newest();
  }

  /** Empties one tenant's ring (null: the ring of no known tenant), or every ring. */
  clear(accountId?: string | null): void {
    if (accountId === undefined) this.#rings.clear();
    else this.#rings.delete(accountId);
    for (const l of this.#listeners) l(accountId);
  }

  /** bytes of the rings' text chunks, every ring together (their columns aside) */
  get bytes(): number {
    let n = 0;
    for (const ring of this.#rings.values()) n += ring.bytes;
    return n;
  }

  /** entries kept, every ring together */
  get size(): number {
    let n = 0;
    for (const ring of this.#rings.values()) n += ring.count;
    return n;
  }
}
