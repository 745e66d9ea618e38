// A compact binary form of JSON records, kept in memory by the large collections (transactions,
// ledger, ...) instead of live objects: a V8 object costs about 1 KB per transaction, its packed
// form about 200 bytes. Packing is lossless for everything JSON can hold (a decoded record
// stringifies exactly as the original), so the snapshot and the log still hold plain JSON.
// What makes it small: keys are stored once per shape (the list of keys of an object), UUIDs as
// 16 bytes, ISO timestamps as 6, strings that repeat (statuses, account refs, names) as an index
// into a table, and the record's own id, repeated inside it, as one byte.
// The tables belong to one Codec: a packed value means nothing without the Codec that made it.
// A stored entry is the record's id followed by the record (encodeEntry), so that the id can be
// checked without a table of id strings on the heap.
import { PackedReader, type TableRefs } from './codec-read.js';
import { T, uuidToBytes, type Tables } from './codec-format.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_INSIDE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HEX = /^(?:[0-9a-f]{2}){8,}$/;
const MAX_INTERNED = 65_536;
const MAX_INTERNED_LENGTH = 64;
const MAX_CANDIDATES = 8_192;
const MAX_SHAPES = 16_384;
const MAX_DEPTH = 100;
const MAX_DATE_MS = 2 ** 48 - 1;

/** Entries of a codec's tables by their index: what packed values refer to (Codec.tablesOf). */
export interface PackedTables {
  shapes: [number, string[]][];
  strings: [number, string][];
}

export class Codec {
  readonly #tables: Tables = { shapes: [], strings: [] };
  #shapeIx = new Map<string, number>();
  #stringIx = new Map<string, number>();
  /**
   * strings seen in one value, by the number of that value: a sighting in a later value interns
   * them (a string repeated inside one record, a transfer's key and document, is not shared by the
   * next record); bounded, so that one-off values cost little
   */
  #candidates = new Map<string, number>();
  #values = 0;
  #buf = Buffer.allocUnsafe(4096);
  #pos = 0;
  #key: string | undefined;
  readonly #reader = new PackedReader(this.#tables);
  readonly #idBytes = Buffer.alloc(16);

  /** Packs a JSON-like value; `key` (the record's id) is written as one byte wherever the value repeats it. */
  encode(value: unknown, key?: string): string {
    const n = this.encodeBytes(value, key);
    return this.#buf.toString('latin1', 0, n);
  }

  /** Packs into the codec's own buffer (valid until the next call): returns the length used. */
  encodeBytes(value: unknown, key?: string): number {
    this.#values++;
    this.#pos = 0;
    this.#key = key;
    this.#value(value, 0);
    return this.#pos;
  }

  /** Packs a stored entry, the id then the record (which refers to its id by one byte), into `output`. */
  encodeEntry(id: string, record: unknown): number {
    this.#values++;
    this.#pos = 0;
    this.#key = undefined;
    this.#string(id);
    this.#key = id;
    this.#value(record, 0);
    return this.#pos;
  }

  /** The buffer `encodeBytes` and `encodeEntry` wrote into. */
  get output(): Buffer {
    return this.#buf;
  }

  /** The value `encode` was given (a fresh copy each time). */
  decode(packed: string, key?: string): unknown {
    return this.decodeBytes(Buffer.from(packed, 'latin1'), 0, key);
  }

  /** The value packed at `start` in `bytes`. */
  decodeBytes(bytes: Buffer, start: number, key?: string): unknown {
    return this.#reader.value(bytes, start, key);
  }

  /**
   * Only the named top-level fields of the object packed at `start` (the others are stepped over,
   * never built): a read that needs a few fields of a large record allocates only those.
   */
  decodeFields(bytes: Buffer, start: number, fields: ReadonlySet<string>, key?: string): Record<string, unknown> {
    return this.#reader.fields(bytes, start, fields, key);
  }

  /**
   * Where the record of the entry at `start` begins when the entry's id is `id`, else -1. A UUID id
   * is compared as its 16 bytes (no string is made): this is the check behind every lookup by id.
   */
  matchEntryId(bytes: Buffer, start: number, id: string): number {
    if (bytes[start] === T.UUID && uuidToBytes(id, this.#idBytes, 0)) {
      for (let i = 0; i < 16; i++) if (bytes[start + 1 + i] !== this.#idBytes[i]) return -1;
      return start + 17;
    }
    const [found, end] = this.#reader.valueAndEnd(bytes, start);
    return found === id ? end : -1;
  }

  /** The record of an entry whose record begins at `at` (matchEntryId), its id being `id`. */
  decodeRecord(bytes: Buffer, at: number, id: string): unknown {
    return this.#reader.value(bytes, at, id);
  }

  /** The named fields of that record. */
  decodeRecordFields(bytes: Buffer, at: number, fields: ReadonlySet<string>, id: string): Record<string, unknown> {
    return this.#reader.fields(bytes, at, fields, id);
  }

  /**
   * Whether the top-level field `field` of the record of the entry at `start` holds the string `value`, compared where
   * it lies (a UUID as its 16 bytes, an interned string by its table entry): the check behind every
   * record found through an index of one field (collection.ts seqsUnder).
   */
  entryFieldIs(bytes: Buffer, start: number, field: string, value: string): boolean {
    return this.#reader.entryFieldIs(bytes, start, field, value, uuidToBytes(value, this.#idBytes, 0) ? this.#idBytes : null);
  }

  /**
   * The entries of the codec's tables (shapes, interned strings) that the values packed one after
   * another in each of `packed` refer to, each with its index: what a reader of those bytes needs
   * besides them (a named snapshot's file: saved-file.ts). Costs a step over each value, never a build.
   */
  tablesOf(packed: readonly Buffer[]): PackedTables {
    const refs: TableRefs = { shapes: new Uint8Array(this.#tables.shapes.length), strings: new Uint8Array(this.#tables.strings.length) };
    for (const bytes of packed) this.#reader.refs(bytes, 0, bytes.length, refs);
    const pick = <V>(marks: Uint8Array, table: readonly V[]): [number, V][] => {
      const out: [number, V][] = [];
      for (let ix = 0; ix < marks.length; ix++) if (marks[ix] === 1) out.push([ix, table[ix]!]);
      return out;
    };
    return { shapes: pick(refs.shapes, this.#tables.shapes), strings: pick(refs.strings, this.#tables.strings) };
  }

  /** The id of the entry packed at `start` (encodeEntry). */
  entryId(bytes: Buffer, start: number): string {
    return this.#reader.value(bytes, start) as string;
  }

  /** The id of the entry packed at `start`, and where its record begins. */
  entryIdAndEnd(bytes: Buffer, start: number): [string, number] {
    return this.#reader.valueAndEnd(bytes, start) as [string, number];
  }

  /** The record of the entry packed at `start`, and its id. */
  entry(bytes: Buffer, start: number): { id: string; record: unknown } {
    const [id, at] = this.#reader.valueAndEnd(bytes, start);
    return { id: id as string, record: this.#reader.value(bytes, at, id as string) };
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
        return this.#byte(v ? T.TRUE : T.FALSE);
      case 'undefined':
      case 'function':
      case 'symbol':
        return this.#byte(T.UNDEFINED);
      case 'bigint':
        throw new TypeError('a BigInt cannot be stored (JSON has no such value)');
    }
    if (v === null) return this.#byte(T.NULL);
    const o = v as { toJSON?: () => unknown };
    if (typeof o.toJSON === 'function') return this.#value(o.toJSON(), depth + 1);
    if (Array.isArray(v)) {
      this.#byte(T.ARRAY);
      this.#varint(v.length);
      for (const x of v) this.#value(x, depth + 1);
      return;
    }
    const keys = Object.keys(v as object);
    const shape = this.#shape(keys);
    if (shape === -1) {
      this.#byte(T.KEYED);
      this.#varint(keys.length);
      for (const k of keys) {
        this.#string(k);
        this.#value((v as Record<string, unknown>)[k], depth + 1);
      }
      return;
    }
    this.#byte(T.SHAPED);
    this.#varint(shape);
    for (const k of keys) this.#value((v as Record<string, unknown>)[k], depth + 1);
  }

  #shape(keys: string[]): number {
    const sig = keys.join('\u0000');
    let ix = this.#shapeIx.get(sig);
    if (ix === undefined) {
      if (this.#tables.shapes.length >= MAX_SHAPES) return -1;
      ix = this.#tables.shapes.length;
      this.#tables.shapes.push(keys);
      this.#shapeIx.set(sig, ix);
    }
    return ix;
  }

  #number(n: number): void {
    if (Number.isSafeInteger(n) && !Object.is(n, -0)) {
      this.#byte(n >= 0 ? T.UINT : T.NEGINT);
      this.#varint(Math.abs(n));
      return;
    }
    this.#byte(T.FLOAT);
    this.#room(8);
    this.#buf.writeDoubleLE(n, this.#pos);
    this.#pos += 8;
  }

  #string(s: string): void {
    if (this.#key !== undefined && s === this.#key) return this.#byte(T.KEY);
    if (s.length === 36 && UUID.test(s)) return this.#uuid(s, T.UUID);
    if (s.length === 24 && ISO.test(s)) {
      const ms = Date.parse(s);
      if (ms >= 0 && ms <= MAX_DATE_MS && new Date(ms).toISOString() === s) {
        this.#byte(T.DATE);
        this.#room(6);
        this.#buf.writeUIntBE(ms, this.#pos, 6);
        this.#pos += 6;
        return;
      }
    }
    if (s.length >= 16 && s.length % 2 === 0 && HEX.test(s)) {
      this.#byte(T.HEX);
      this.#varint(s.length / 2);
      this.#room(s.length / 2);
      this.#pos += this.#buf.write(s, this.#pos, 'hex');
      return;
    }
    if (s.length <= MAX_INTERNED_LENGTH) {
      const ix = this.#intern(s);
      if (ix !== undefined) {
        this.#byte(T.INTERNED);
        this.#varint(ix);
        return;
      }
    }
    if (s.length > 36) {
      const m = UUID_INSIDE.exec(s);
      if (m) {
        // e.g. a BR Code: the charge's id inside its location, between text shared by many charges
        this.#byte(T.WITH_UUID);
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
    const seen = this.#candidates.get(s);
    if (seen === this.#values) return undefined; // again in the same value: not a sign of sharing
    if (seen !== undefined && this.#tables.strings.length < MAX_INTERNED) {
      this.#candidates.delete(s);
      this.#stringIx.set(s, this.#tables.strings.length);
      this.#tables.strings.push(s);
      return this.#tables.strings.length - 1;
    }
    if (this.#candidates.size >= MAX_CANDIDATES) this.#candidates.clear();
    this.#candidates.set(s, this.#values);
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
      this.#byte(T.LATIN1);
      this.#varint(s.length);
      this.#room(s.length);
      this.#pos += this.#buf.write(s, this.#pos, 'latin1');
      return;
    }
    // UTF-16 code units as they are: exact for any string, lone surrogates included
    this.#byte(T.UTF16);
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
}
