// A compact binary form of JSON records, kept in memory by the large collections (transactions,
// ledger, ...) instead of live objects: a V8 object costs about 1 KB per transaction, its packed
// form about 200 bytes. Packing is lossless for everything JSON can hold (a decoded record
// stringifies exactly as the original), so the snapshot and the log still hold plain JSON.
// What makes it small: keys are stored once per shape (the list of keys of an object), UUIDs as
// 16 bytes, ISO timestamps as 6, strings that repeat (statuses, account refs, names) as an index
// into a table, and the record's own id, repeated inside it, as one byte.
// The tables belong to one Codec: a packed value means nothing without the Codec that made it.

const T_NULL = 0;
const T_FALSE = 1;
const T_TRUE = 2;
const T_UNDEFINED = 3;
const T_UINT = 4;
const T_NEGINT = 5;
const T_FLOAT = 6;
const T_LATIN1 = 7;
const T_UTF16 = 8;
const T_INTERNED = 9;
const T_UUID = 10;
const T_DATE = 11;
const T_KEY = 12;
const T_ARRAY = 13;
const T_SHAPED = 14;
const T_KEYED = 15;
const T_WITH_UUID = 16;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_INSIDE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MAX_INTERNED = 65_536;
const MAX_INTERNED_LENGTH = 64;
const MAX_CANDIDATES = 8_192;
const MAX_SHAPES = 16_384;
const MAX_DEPTH = 100;
const MAX_DATE_MS = 2 ** 48 - 1;

const EMPTY = Buffer.alloc(0);

export class Codec {
  #shapes: string[][] = [];
  #shapeIx = new Map<string, number>();
  #strings: string[] = [];
  #stringIx = new Map<string, number>();
  /** strings seen once: a second sighting interns them (bounded, so one-off values cost little) */
  #candidates = new Set<string>();
  #buf = Buffer.allocUnsafe(4096);
  #pos = 0;
  #key: string | undefined;
  #in: Buffer = Buffer.alloc(0);
  #p = 0;

  /** Packs a JSON-like value; `key` (the record's id) is written as one byte wherever the value repeats it. */
  encode(value: unknown, key?: string): string {
    const n = this.encodeBytes(value, key);
    return this.#buf.toString('latin1', 0, n);
  }

  /** Packs into the codec's own buffer (valid until the next call): returns it and the length used. */
  encodeBytes(value: unknown, key?: string): number {
    this.#pos = 0;
    this.#key = key;
    this.#value(value, 0);
    return this.#pos;
  }

  /** The buffer `encodeBytes` wrote into. */
  get output(): Buffer {
    return this.#buf;
  }

  /** The value `encode` was given (a fresh copy each time). */
  decode(packed: string, key?: string): unknown {
    return this.decodeBytes(Buffer.from(packed, 'latin1'), 0, key);
  }

  /** The value packed at `start` in `bytes`. */
  decodeBytes(bytes: Buffer, start: number, key?: string): unknown {
    this.#in = bytes;
    this.#p = start;
    this.#key = key;
    const v = this.#read();
    this.#in = EMPTY;
    return v;
  }

  /**
   * Only the named top-level fields of the object packed at `start` (the others are stepped over,
   * never built): a read that needs a few fields of a large record allocates only those.
   */
  decodeFields(bytes: Buffer, start: number, fields: ReadonlySet<string>, key?: string): Record<string, unknown> {
    this.#in = bytes;
    this.#p = start;
    this.#key = key;
    const out: Record<string, unknown> = {};
    const tag = this.#in[this.#p++];
    if (tag === T_SHAPED) {
      for (const k of this.#shapes[this.#readVarint()]!) {
        if (fields.has(k)) define(out, k, this.#read());
        else this.#skip();
      }
    } else if (tag === T_KEYED) {
      const n = this.#readVarint();
      for (let i = 0; i < n; i++) {
        const k = this.#read() as string;
        if (fields.has(k)) define(out, k, this.#read());
        else this.#skip();
      }
    } else {
      this.#in = EMPTY;
      throw new Error(`packed record is not an object (tag ${tag} at ${start})`);
    }
    this.#in = EMPTY;
    return out;
  }

  // ---- writing ----

  #room(n: number): void {
    if (this.#pos + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#pos + n));
    this.#buf.copy(next, 0, 0, this.#pos);
    this.#buf = next;
  }

  #byte(b: number): void {
    this.#room(1);
    this.#buf[this.#pos++] = b;
  }

  #varint(n: number): void {
    this.#room(8);
    while (n >= 0x80) {
      this.#buf[this.#pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.#buf[this.#pos++] = n;
  }

  #value(v: unknown, depth: number): void {
    if (depth > MAX_DEPTH) throw new TypeError(`a record nested more than ${MAX_DEPTH} levels deep cannot be stored`);
    switch (typeof v) {
      case 'string':
        return this.#string(v);
      case 'number':
        return this.#number(v);
      case 'boolean':
        return this.#byte(v ? T_TRUE : T_FALSE);
      case 'undefined':
      case 'function':
      case 'symbol':
        return this.#byte(T_UNDEFINED);
      case 'bigint':
        throw new TypeError('a BigInt cannot be stored (JSON has no such value)');
    }
    if (v === null) return this.#byte(T_NULL);
    const o = v as { toJSON?: () => unknown };
    if (typeof o.toJSON === 'function') return this.#value(o.toJSON(), depth + 1);
    if (Array.isArray(v)) {
      this.#byte(T_ARRAY);
      this.#varint(v.length);
      for (const x of v) this.#value(x, depth + 1);
      return;
    }
    const keys = Object.keys(v as object);
    const shape = this.#shape(keys);
    if (shape === -1) {
      this.#byte(T_KEYED);
      this.#varint(keys.length);
      for (const k of keys) {
        this.#string(k);
        this.#value((v as Record<string, unknown>)[k], depth + 1);
      }
      return;
    }
    this.#byte(T_SHAPED);
    this.#varint(shape);
    for (const k of keys) this.#value((v as Record<string, unknown>)[k], depth + 1);
  }

  #shape(keys: string[]): number {
    const sig = keys.join('\u0000');
    let ix = this.#shapeIx.get(sig);
    if (ix === undefined) {
      if (this.#shapes.length >= MAX_SHAPES) return -1;
      ix = this.#shapes.length;
      this.#shapes.push(keys);
      this.#shapeIx.set(sig, ix);
    }
    return ix;
  }

  #number(n: number): void {
    if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
      this.#byte(n >= 0 ? T_UINT : T_NEGINT);
      this.#varint(Math.abs(n));
      return;
    }
    this.#byte(T_FLOAT);
    this.#room(8);
    this.#buf.writeDoubleLE(n, this.#pos);
    this.#pos += 8;
  }

  #string(s: string): void {
    if (this.#key !== undefined && s === this.#key) return this.#byte(T_KEY);
    if (s.length === 36 && UUID.test(s)) return this.#uuid(s, T_UUID);
    if (s.length === 24 && ISO.test(s)) {
      const ms = Date.parse(s);
      if (ms >= 0 && ms <= MAX_DATE_MS && new Date(ms).toISOString() === s) {
        this.#byte(T_DATE);
        this.#room(6);
        this.#buf.writeUIntBE(ms, this.#pos, 6);
        this.#pos += 6;
        return;
      }
    }
    if (s.length <= MAX_INTERNED_LENGTH) {
      const ix = this.#intern(s);
      if (ix !== undefined) {
        this.#byte(T_INTERNED);
        this.#varint(ix);
        return;
      }
    }
    if (s.length > 36) {
      const m = UUID_INSIDE.exec(s);
      if (m) {
        // e.g. a BR Code: the charge's id inside its location, between text shared by many charges
        this.#byte(T_WITH_UUID);
        this.#string(s.slice(0, m.index));
        this.#uuid(m[0], -1);
        this.#string(s.slice(m.index + 36));
        return;
      }
    }
    this.#plain(s);
  }

  #intern(s: string): number | undefined {
    const ix = this.#stringIx.get(s);
    if (ix !== undefined) return ix;
    if (this.#candidates.has(s) && this.#strings.length < MAX_INTERNED) {
      this.#candidates.delete(s);
      this.#stringIx.set(s, this.#strings.length);
      this.#strings.push(s);
      return this.#strings.length - 1;
    }
    if (this.#candidates.size >= MAX_CANDIDATES) this.#candidates.clear();
    this.#candidates.add(s);
    return undefined;
  }

  #plain(s: string): void {
    let oneByte = true;
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) > 0xff) {
        oneByte = false;
        break;
      }
    }
    if (oneByte) {
      this.#byte(T_LATIN1);
      this.#varint(s.length);
      this.#room(s.length);
      this.#pos += this.#buf.write(s, this.#pos, 'latin1');
      return;
    }
    // UTF-16 code units as they are: exact for any string, lone surrogates included
    this.#byte(T_UTF16);
    this.#varint(s.length);
    this.#room(s.length * 2);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      this.#buf[this.#pos++] = c & 0xff;
      this.#buf[this.#pos++] = c >>> 8;
    }
  }

  #uuid(s: string, tag: number): void {
    if (tag >= 0) this.#byte(tag);
    this.#room(16);
    uuidToBytes(s, this.#buf, this.#pos); // s matched UUID: always true
    this.#pos += 16;
  }

  // ---- reading ----

  #readVarint(): number {
    let n = 0;
    let mul = 1;
    for (;;) {
      const b = this.#in[this.#p++]!;
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 0x80;
    }
  }

  #readUuid(): string {
    const id = uuidFromBytes(this.#in, this.#p);
    this.#p += 16;
    return id;
  }

  /** Steps over one packed value without building it. */
  #skip(): void {
    const tag = this.#in[this.#p++];
    switch (tag) {
      case T_NULL:
      case T_FALSE:
      case T_TRUE:
      case T_UNDEFINED:
      case T_KEY:
        return;
      case T_UINT:
      case T_NEGINT:
      case T_INTERNED:
        this.#readVarint();
        return;
      case T_FLOAT:
        this.#p += 8;
        return;
      case T_LATIN1:
      case T_UTF16: {
        const n = this.#readVarint(); // read first: `#p += read()` would add to the position before the read
        this.#p += tag === T_UTF16 ? 2 * n : n;
        return;
      }
      case T_UUID:
        this.#p += 16;
        return;
      case T_DATE:
        this.#p += 6;
        return;
      case T_ARRAY: {
        const n = this.#readVarint();
        for (let i = 0; i < n; i++) this.#skip();
        return;
      }
      case T_SHAPED: {
        const n = this.#shapes[this.#readVarint()]!.length;
        for (let i = 0; i < n; i++) this.#skip();
        return;
      }
      case T_KEYED: {
        const n = this.#readVarint();
        for (let i = 0; i < 2 * n; i++) this.#skip();
        return;
      }
      case T_WITH_UUID:
        this.#skip();
        this.#p += 16;
        this.#skip();
        return;
    }
    throw new Error(`packed record is corrupt (tag ${tag} at ${this.#p - 1})`);
  }

  #read(): unknown {
    const tag = this.#in[this.#p++];
    switch (tag) {
      case T_NULL:
        return null;
      case T_FALSE:
        return false;
      case T_TRUE:
        return true;
      case T_UNDEFINED:
        return undefined;
      case T_UINT:
        return this.#readVarint();
      case T_NEGINT:
        return -this.#readVarint();
      case T_FLOAT: {
        const d = this.#in.readDoubleLE(this.#p);
        this.#p += 8;
        return d;
      }
      case T_LATIN1: {
        const n = this.#readVarint();
        const s = this.#in.toString('latin1', this.#p, this.#p + n);
        this.#p += n;
        return s;
      }
      case T_UTF16: {
        const n = this.#readVarint();
        const codes = new Array<number>(n);
        for (let i = 0; i < n; i++, this.#p += 2) codes[i] = this.#in[this.#p]! | (this.#in[this.#p + 1]! << 8);
        let out = '';
        for (let i = 0; i < n; i += 8192) out += String.fromCharCode(...codes.slice(i, i + 8192));
        return out;
      }
      case T_INTERNED:
        return this.#strings[this.#readVarint()];
      case T_UUID:
        return this.#readUuid();
      case T_DATE: {
        let ms = 0;
        for (let i = 0; i < 6; i++) ms = ms * 256 + this.#in[this.#p++]!;
        return new Date(ms).toISOString();
      }
      case T_KEY:
        return this.#key;
      case T_ARRAY: {
        const n = this.#readVarint();
        const a = new Array<unknown>(n);
        for (let i = 0; i < n; i++) a[i] = this.#read();
        return a;
      }
      case T_SHAPED: {
        const keys = this.#shapes[this.#readVarint()]!;
        const o: Record<string, unknown> = {};
        for (const k of keys) define(o, k, this.#read());
        return o;
      }
      case T_KEYED: {
        const n = this.#readVarint();
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = this.#read() as string;
          define(o, k, this.#read());
        }
        return o;
      }
      case T_WITH_UUID: {
        const before = this.#read() as string;
        const id = this.#readUuid();
        return before + id + (this.#read() as string);
      }
    }
    throw new Error(`packed record is corrupt (tag ${tag} at ${this.#p - 1})`);
  }
}

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;

/**
 * Writes the 16 bytes of a lower-case canonical UUID into `out` at `at`; false (having written
 * part of them, perhaps) for anything else.
 */
export function uuidToBytes(id: string, out: Uint8Array, at: number): boolean {
  if (id.length !== 36 || id.charCodeAt(8) !== 45 || id.charCodeAt(13) !== 45 || id.charCodeAt(18) !== 45 || id.charCodeAt(23) !== 45)
    return false;
  for (let i = 0; i < 36; i += 2) {
    if (i === 8 || i === 13 || i === 18 || i === 23) i++;
    const a = id.charCodeAt(i);
    const b = id.charCodeAt(i + 1);
    const hi = a < 128 ? HEX_VALUE[a]! : -1;
    const lo = b < 128 ? HEX_VALUE[b]! : -1;
    if (hi < 0 || lo < 0) return false;
    out[at++] = (hi << 4) | lo;
  }
  return true;
}

const uuidText = Buffer.alloc(36);
const HEX_CODES = new TextEncoder().encode('0123456789abcdef');

/** The canonical text of the 16 bytes at `start`: one flat string (ids are kept by indexes and callers). */
export function uuidFromBytes(bytes: Uint8Array, start: number): string {
  let o = 0;
  for (let i = 0; i < 16; i++) {
    const b = bytes[start + i]!;
    uuidText[o++] = HEX_CODES[b >> 4]!;
    uuidText[o++] = HEX_CODES[b & 15]!;
    if (i === 3 || i === 5 || i === 7 || i === 9) uuidText[o++] = 45; // '-'
  }
  return uuidText.toString('latin1');
}

/** A key set as an own data property, "__proto__" included (JSON.parse does the same). */
function define(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
