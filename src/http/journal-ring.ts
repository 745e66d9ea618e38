// The storage of the request journal (docs/control-api.md#request-journal): one tenant's newest entries,
// kept outside the JavaScript heap (docs/store.md#how-memory-is-kept-small says why): their numbers in
// typed columns, their texts appended to byte chunks, a text equal to the one before it in the ring
// written once per chunk. An entry is read back, parsed and redacted only when the journal is listed
// (./journal-log.ts). Free of express, as the app context's types must be (skipLibCheck: false).

/** Characters (or bytes) of a request body or an answer an entry keeps as it came (a QR image is ~2 KiB). */
export const MAX_CAPTURE_BYTES = 32 * 1024;

/** What the stage records of one exchange, handed to the journal once its answer has ended. */
export interface RawEntry {
  /** the tenant the request belongs to (./tenant.ts), null when none can be told: the ring it is kept in */
  accountId: string | null;
  /** real time when the request arrived, epoch ms */
  atMs: number;
  /** the tenant's clock when the answer ended, epoch ms (the report's token windows are on it) */
  clockMs: number;
  /** the request came over plain HTTP (no TLS) */
  plain: boolean;
  /** an injected fault (docs/control-api.md#faults) answered it */
  injected: boolean;
  /** the answer's Retry-After header, as sent */
  retryAfter: string | undefined;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** the request's headers as JSON text */
  headers: string;
  /**
   * The body as read, before anything parsed it: its text when at most MAX_CAPTURE_BYTES; for a longer
   * one, what is shown instead (a redacted, bounded copy of what its parser made of it, or its size).
   */
  body: string | { shown: unknown } | null;
  /** the request's Content-Type: how its body is parsed when listed */
  bodyType: string | undefined;
  /** the answer as handed to end(): a string or bytes, at most MAX_CAPTURE_BYTES of it */
  response: string | Buffer | null;
  contentType: string | undefined;
}

/** The texts of an entry, in the order its record holds them. */
const TEXTS = ['method', 'url', 'requestId', 'headers', 'bodyType', 'body', 'shown', 'response', 'contentType', 'retryAfter'] as const;
type TextName = (typeof TEXTS)[number];
export type Texts = Record<TextName, string | null>;

const textsOf = (e: RawEntry): (string | Buffer | null)[] => [
  e.method,
  e.url,
  e.requestId,
  e.headers,
  e.bodyType ?? null,
  typeof e.body === 'string' ? e.body : null,
  e.body !== null && typeof e.body === 'object' ? JSON.stringify(e.body.shown) : null,
  e.response,
  e.contentType ?? null,
  e.retryAfter ?? null,
];

/** An entry as kept: its numbers, and where its texts are. */
export interface Kept {
  seq: number;
  atMs: number;
  clockMs: number;
  plain: boolean;
  injected: boolean;
  durationMs: number;
  status: number;
  texts: () => Texts;
  /** one of its texts alone, the others left unread (the report reads a few of each entry's) */
  text: (name: TextName) => string | null;
}

// A record in a chunk is its texts in TEXTS order, each a tag byte and a 32-bit number: INLINE, the
// byte length and the UTF-8 bytes; SAME, the offset in the same chunk of the INLINE text it repeats;
// NONE. A repeat points only within its own chunk, and a chunk lives as long as its newest entry.
const INLINE = 0;
const SAME = 1;
const NONE = 2;
const FIRST_CHUNK = 4 * 1024;
const MAX_CHUNK = 256 * 1024;
const FIRST_SLOTS = 16;
// an entry's flags
const PLAIN = 1;
const INJECTED = 2;
/** the request had a body (kept as it came, or shown instead) */
const BODY = 4;
/**
 * The methods an entry's method column names by their index, so that a verification compares a method
 * without reading the entry's texts; another method is OTHER, and read from its record.
 */
const METHOD_CODES = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const OTHER = 255;

function grown<A extends Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array>(a: A, length: number): A {
  const b = new (a.constructor as new (n: number) => A)(length);
  b.set(a);
  return b;
}

/** One tenant's newest `capacity` entries: typed columns that grow to the capacity, then are written round. */
export class Ring {
  #count = 0;
  /** once full: the oldest entry's slot, where the next one goes */
  #next = 0;
  #seq = new Float64Array(0);
  #at = new Float64Array(0);
  #clock = new Float64Array(0);
  /** PLAIN | INJECTED | BODY */
  #flags = new Uint8Array(0);
  /** the method's index in METHOD_CODES, or OTHER */
  #method = new Uint8Array(0);
  #duration = new Float32Array(0);
  #status = new Uint16Array(0);
  #chunkOf = new Uint32Array(0);
  #offset = new Uint32Array(0);
  /** byte chunks, the first of them numbered #firstChunk; texts are appended to the last */
  #chunks: Buffer[] = [];
  #firstChunk = 0;
  #used = 0;
  /** the texts of the entry before, and where their INLINE bytes are in the last chunk */
  #last: { chunk: number; texts: (string | Buffer | null)[]; at: number[] } | null = null;

  constructor(readonly capacity: number) {}

  get count(): number {
    return this.#count;
  }

  /** bytes of the chunks it holds: the texts of its entries, and the unused end of its last chunk */
  get bytes(): number {
    return this.#chunks.reduce((n, c) => n + c.length, 0);
  }

  add(seq: number, e: RawEntry): void {
    const texts = textsOf(e);
    const bytes = texts.map((t) => (t === null ? 0 : typeof t === 'string' ? Buffer.byteLength(t) : t.length));
    const worst = bytes.reduce((n, b) => n + 5 + b, 0);
    const chunkNo = this.#room(worst);
    const chunk = this.#chunks[chunkNo - this.#firstChunk]!;
    const start = this.#used;
    const last = this.#last?.chunk === chunkNo ? this.#last : null;
    const at: number[] = [];
    let p = start;
    texts.forEach((t, i) => {
      const before = last?.texts[i];
      if (t === null) {
        chunk[p] = NONE;
        at.push(-1);
      } else if (typeof t === 'string' && t === before && last!.at[i]! >= 0) {
        chunk[p] = SAME;
        chunk.writeUInt32LE(last!.at[i]!, p + 1);
        at.push(last!.at[i]!);
      } else {
        chunk[p] = INLINE;
        chunk.writeUInt32LE(bytes[i]!, p + 1);
        if (typeof t === 'string') chunk.write(t, p + 5, 'utf8');
        else t.copy(chunk, p + 5);
        at.push(p);
        p += bytes[i]!;
      }
      p += 5;
    });
    this.#used = p;
    this.#last = { chunk: chunkNo, texts, at };
    const slot = this.#slot();
    this.#seq[slot] = seq;
    this.#at[slot] = e.atMs;
    this.#clock[slot] = e.clockMs;
    this.#flags[slot] = (e.plain ? PLAIN : 0) | (e.injected ? INJECTED : 0) | (e.body !== null ? BODY : 0);
    const method = METHOD_CODES.indexOf(e.method);
    this.#method[slot] = method < 0 ? OTHER : method;
    this.#duration[slot] = e.durationMs;
    this.#status[slot] = e.status;
    this.#chunkOf[slot] = chunkNo;
    this.#offset[slot] = start;
    // chunks older than the oldest entry's hold nothing kept
    const oldest = this.#chunkOf[this.#count < this.capacity ? 0 : this.#next]!;
    while (this.#firstChunk < oldest) {
      const gone = this.#chunks.shift();
      this.#firstChunk++;
      // a text read from it is read no more: its memo lets the chunk go
      for (const memo of this.#seen) if (memo.chunk === gone) [memo.chunk, memo.text, memo.sought] = [null, null, null];
    }
  }

  /** The number of the chunk the next record goes in, with `bytes` free at #used. */
  #room(bytes: number): number {
    const lastNo = this.#firstChunk + this.#chunks.length - 1;
    const last = this.#chunks.at(-1);
    if (last && this.#used + bytes <= last.length) return lastNo;
    const size = Math.max(bytes, Math.min(MAX_CHUNK, last ? last.length * 2 : FIRST_CHUNK));
    // not from Buffer's pool: a pooled slice would keep its whole pool alive
    this.#chunks.push(Buffer.allocUnsafeSlow(size));
    this.#used = 0;
    return lastNo + 1;
  }

  /** The slot the next entry goes in: the columns grow while the ring fills, then the oldest is written over. */
  #slot(): number {
    if (this.#count === this.capacity) {
      const slot = this.#next;
      this.#next = (this.#next + 1) % this.capacity;
      return slot;
    }
    if (this.#count === this.#seq.length) {
      const length = Math.min(this.capacity, Math.max(FIRST_SLOTS, this.#seq.length * 2));
      this.#seq = grown(this.#seq, length);
      this.#at = grown(this.#at, length);
      this.#clock = grown(this.#clock, length);
      this.#flags = grown(this.#flags, length);
      this.#method = grown(this.#method, length);
      this.#duration = grown(this.#duration, length);
      this.#status = grown(this.#status, length);
      this.#chunkOf = grown(this.#chunkOf, length);
      this.#offset = grown(this.#offset, length);
    }
    return this.#count++;
  }

  /** The entry's texts. */
  #texts(chunkNo: number, offset: number): Texts {
    const chunk = this.#chunks[chunkNo - this.#firstChunk]!;
    const read = (at: number) => chunk.toString('utf8', at + 5, at + 5 + chunk.readUInt32LE(at + 1));
    const out: Record<string, string | null> = {};
    let p = offset;
    for (const name of TEXTS) {
      const tag = chunk[p];
      out[name] = tag === NONE ? null : tag === SAME ? read(chunk.readUInt32LE(p + 1)) : read(p);
      p += tag === INLINE ? 5 + chunk.readUInt32LE(p + 1) : 5;
    }
    return out as Texts;
  }

  /**
   * Where one text of the entry is in its chunk (the others skipped): the position of its INLINE record
   * (a repeated text's is its first), -1 when it has none. A chunk is never written over, so a chunk and
   * a position name the same bytes for as long as the chunk is kept.
   */
  #where(chunk: Buffer, offset: number, name: TextName): number {
    let p = offset;
    for (const n of TEXTS) {
      const tag = chunk[p];
      if (n === name) return tag === NONE ? -1 : tag === SAME ? chunk.readUInt32LE(p + 1) : p;
      p += tag === INLINE ? 5 + chunk.readUInt32LE(p + 1) : 5;
    }
    return -1;
  }

  /**
   * Of each name, the text last read or searched: where it is, the string made of it, and the bytes last
   * sought in it and whether they were found. A text repeated entry after entry is decoded and searched once.
   */
  readonly #seen = TEXTS.map(() => ({
    chunk: null as Buffer | null,
    at: -1,
    text: null as string | null,
    sought: null as Buffer | null,
    holds: false,
  }));

  /** The memo of the text of `name` at this place, emptied when the place is another. */
  #memo(name: TextName, chunk: Buffer, at: number) {
    const last = this.#seen[TEXTS.indexOf(name)]!;
    if (last.chunk !== chunk || last.at !== at) [last.chunk, last.at, last.text, last.sought] = [chunk, at, null, null];
    return last;
  }

  #text(chunkNo: number, offset: number, name: TextName): string | null {
    const chunk = this.#chunks[chunkNo - this.#firstChunk]!;
    const at = this.#where(chunk, offset, name);
    if (at < 0) return null;
    const last = this.#memo(name, chunk, at);
    return (last.text ??= chunk.toString('utf8', at + 5, at + 5 + chunk.readUInt32LE(at + 1)));
  }

  /** One text of the entry in `slot`, the others left unread; the same string as the entry before's when it repeats it. */
  textAt(slot: number, name: TextName): string | null {
    return this.#text(this.#chunkOf[slot]!, this.#offset[slot]!, name);
  }

  /** Whether the entry in `slot` had a request body: told from its column, for the many requests without one. */
  hasBodyAt(slot: number): boolean {
    return (this.#flags[slot]! & BODY) !== 0;
  }

  /** The method of the entry in `slot`: from its column, its record read only for a method not in METHOD_CODES. */
  methodAt(slot: number): string {
    const code = this.#method[slot]!;
    return code === OTHER ? this.textAt(slot, 'method')! : METHOD_CODES[code]!;
  }

  /**
   * Whether the entry's text `name` holds these bytes, looked for in place (no text made of it): what
   * tells a verification that a header is absent without parsing the headers.
   */
  textHolds(slot: number, name: TextName, bytes: Buffer): boolean {
    const chunk = this.#chunks[this.#chunkOf[slot]! - this.#firstChunk]!;
    const at = this.#where(chunk, this.#offset[slot]!, name);
    if (at < 0) return false;
    const last = this.#memo(name, chunk, at);
    if (last.sought !== bytes) {
      last.sought = bytes;
      last.holds = chunk.subarray(at + 5, at + 5 + chunk.readUInt32LE(at + 1)).indexOf(bytes) >= 0;
    }
    return last.holds;
  }

  /** The slot of the entry `i` places from the newest (0: the newest). */
  #slotFrom(i: number): number {
    const n = this.#count;
    const start = n < this.capacity ? n : this.#next + n;
    return (start - 1 - i + n) % n;
  }

  /**
   * Newest first without a generator or an object per entry: `visit(slot)` for each until it returns
   * false; the entry's parts are read with seqAt, statusAt, methodAt, textAt and textHolds (what a verification reads).
   */
  eachNewest(visit: (slot: number) => boolean | void): void {
    for (let i = 0; i < this.#count; i++) if (visit(this.#slotFrom(i)) === false) return;
  }

  seqAt(slot: number): number {
    return this.#seq[slot]!;
  }

  statusAt(slot: number): number {
    return this.#status[slot]!;
  }

  /** newest first */
  *newest(): Generator<Kept> {
    for (let i = 0; i < this.#count; i++) {
      const slot = this.#slotFrom(i);
      const [chunkNo, offset] = [this.#chunkOf[slot]!, this.#offset[slot]!];
      yield {
        seq: this.#seq[slot]!,
        atMs: this.#at[slot]!,
        clockMs: this.#clock[slot]!,
        plain: (this.#flags[slot]! & PLAIN) !== 0,
        injected: (this.#flags[slot]! & INJECTED) !== 0,
        durationMs: Math.round(this.#duration[slot]! * 100) / 100,
        status: this.#status[slot]!,
        texts: () => this.#texts(chunkNo, offset),
        text: (name) => this.#text(chunkNo, offset, name),
      };
    }
  }
}
