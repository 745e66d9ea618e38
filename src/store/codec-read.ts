// The reading half of the codec (codec.ts): builds values from packed bytes, or steps over them.
// It shares the writer's tables (shapes and interned strings), which only ever grow, so bytes
// packed at any time stay readable.
import { T, uuidFromBytes, type Tables } from './codec-format.js';

const EMPTY = Buffer.alloc(0);

/** Marks, by index, of the shapes and interned strings some packed values refer to (1: referred to). */
export interface TableRefs {
  shapes: Uint8Array;
  strings: Uint8Array;
}

export class PackedReader {
  readonly #tables: Tables;
  #in: Buffer = EMPTY;
  #p = 0;
  #key: string | undefined;

  constructor(tables: Tables) {
    this.#tables = tables;
  }

  /** The value packed at `start`; `key` is what the one-byte id marks stand for. */
  value(bytes: Buffer, start: number, key?: string): unknown {
    this.#begin(bytes, start, key);
    const v = this.#read();
    this.#in = EMPTY;
    return v;
  }

  /** The value at `start`, and where the next one begins. */
  valueAndEnd(bytes: Buffer, start: number, key?: string): [unknown, number] {
    this.#begin(bytes, start, key);
    const v = this.#read();
    const end = this.#p;
    this.#in = EMPTY;
    return [v, end];
  }

  /** Where the value packed at `start` ends (it is stepped over, never built). */
  end(bytes: Buffer, start: number): number {
    this.#begin(bytes, start, undefined);
    this.#skip();
    const end = this.#p;
    this.#in = EMPTY;
    return end;
  }

  /** Marks in `refs` the table entries the values packed from `start` to `end` refer to (they are stepped over, never built). */
  refs(bytes: Buffer, start: number, end: number, refs: TableRefs): void {
    this.#begin(bytes, start, undefined);
    try {
      while (this.#p < end) this.#skip(refs);
    } finally {
      this.#in = EMPTY;
    }
  }

  /** Only the named top-level fields of the object packed at `start`; the others are stepped over. */
  fields(bytes: Buffer, start: number, fields: ReadonlySet<string>, key?: string): Record<string, unknown> {
    this.#begin(bytes, start, key);
    const out: Record<string, unknown> = {};
    const tag = this.#in[this.#p++];
    try {
      if (tag === T.SHAPED) {
        for (const k of this.#tables.shapes[this.#varint()]!) {
          if (fields.has(k)) define(out, k, this.#read());
          else this.#skip();
        }
      } else if (tag === T.KEYED) {
        const n = this.#varint();
        for (let i = 0; i < n; i++) {
          const k = this.#read() as string;
          if (fields.has(k)) define(out, k, this.#read());
          else this.#skip();
        }
      } else throw new Error(`packed record is not an object (tag ${tag} at ${start})`);
    } finally {
      this.#in = EMPTY;
    }
    return out;
  }

  /**
   * Whether the top-level field `field` of the record of the entry at `start` (its id, then its
   * record) is the string `value`; `uuid`: the 16 bytes of `value` when it is a UUID. The fields
   * before it are stepped over; the field is compared where it lies, built only when it is a plain string.
   */
  entryFieldIs(bytes: Buffer, start: number, field: string, value: string, uuid: Uint8Array | null): boolean {
    this.#begin(bytes, start, undefined);
    try {
      const idAt = this.#p;
      this.#skip();
      const tag = this.#in[this.#p++];
      if (tag === T.SHAPED) {
        const at = this.#tables.shapes[this.#varint()]!.indexOf(field);
        if (at < 0) return false;
        for (let i = 0; i < at; i++) this.#skip();
      } else if (tag === T.KEYED) {
        let n = this.#varint();
        for (; n > 0 && this.#read() !== field; n--) this.#skip();
        if (n === 0) return false;
      } else return false;
      switch (this.#in[this.#p]) {
        case T.UUID:
          if (!uuid) return false;
          for (let i = 0; i < 16; i++) if (this.#in[this.#p + 1 + i] !== uuid[i]) return false;
          return true;
        case T.KEY:
          return this.value(bytes, idAt) === value; // the record's own id
        case T.INTERNED:
          this.#p++;
          return this.#tables.strings[this.#varint()] === value;
        default:
          return this.#read() === value;
      }
    } finally {
      this.#in = EMPTY;
    }
  }

  #begin(bytes: Buffer, start: number, key: string | undefined): void {
    this.#in = bytes;
    this.#p = start;
    this.#key = key;
  }

  #varint(): number {
    let n = 0;
    let mul = 1;
    for (;;) {
      const b = this.#in[this.#p++]!;
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 0x80;
    }
  }

  #uuid(): string {
    const id = uuidFromBytes(this.#in, this.#p);
    this.#p += 16;
    return id;
  }

  /** Steps over one packed value without building it; marks in `refs` the table entries it refers to. */
  #skip(refs?: TableRefs): void {
    const tag = this.#in[this.#p++];
    switch (tag) {
      case T.NULL:
      case T.FALSE:
      case T.TRUE:
      case T.UNDEFINED:
      case T.KEY:
        return;
      case T.UINT:
      case T.NEGINT:
        this.#varint();
        return;
      case T.INTERNED: {
        const ix = this.#varint();
        if (refs) refs.strings[ix] = 1;
        return;
      }
      case T.FLOAT:
        this.#p += 8;
        return;
      case T.LATIN1:
      case T.HEX:
      case T.UTF16: {
        const n = this.#varint(); // read first: `#p += read()` would add to the position before the read
        this.#p += tag === T.UTF16 ? 2 * n : n;
        return;
      }
      case T.UUID:
        this.#p += 16;
        return;
      case T.DATE:
        this.#p += 6;
        return;
      case T.ARRAY: {
        const n = this.#varint();
        for (let i = 0; i < n; i++) this.#skip(refs);
        return;
      }
      case T.SHAPED: {
        const ix = this.#varint();
        if (refs) refs.shapes[ix] = 1;
        const n = this.#tables.shapes[ix]!.length;
        for (let i = 0; i < n; i++) this.#skip(refs);
        return;
      }
      case T.KEYED: {
        const n = this.#varint();
        for (let i = 0; i < 2 * n; i++) this.#skip(refs);
        return;
      }
      case T.WITH_UUID:
        this.#skip(refs);
        this.#p += 16;
        this.#skip(refs);
        return;
    }
    throw new Error(`packed record is corrupt (tag ${tag} at ${this.#p - 1})`);
  }

  #read(): unknown {
    const tag = this.#in[this.#p++];
    switch (tag) {
      case T.NULL:
        return null;
      case T.FALSE:
        return false;
      case T.TRUE:
        return true;
      case T.UNDEFINED:
        return undefined;
      case T.UINT:
        return this.#varint();
      case T.NEGINT:
        return -this.#varint();
      case T.FLOAT: {
        const d = this.#in.readDoubleLE(this.#p);
        this.#p += 8;
        return d;
      }
      case T.LATIN1: {
        const n = this.#varint();
        const s = this.#in.toString('latin1', this.#p, this.#p + n);
        this.#p += n;
        return s;
      }
      case T.HEX: {
        const n = this.#varint();
        const s = this.#in.toString('hex', this.#p, this.#p + n);
        this.#p += n;
        return s;
      }
      case T.UTF16: {
        const n = this.#varint();
        const codes = new Array<number>(n);
        for (let i = 0; i < n; i++, this.#p += 2) codes[i] = this.#in[this.#p]! | (this.#in[this.#p + 1]! << 8);
        let out = '';
        for (let i = 0; i < n; i += 8192) out += String.fromCharCode(...codes.slice(i, i + 8192));
        return out;
      }
      case T.INTERNED:
        return this.#tables.strings[this.#varint()];
      case T.UUID:
        return this.#uuid();
      case T.DATE: {
        let ms = 0;
        for (let i = 0; i < 6; i++) ms = ms * 256 + this.#in[this.#p++]!;
        return new Date(ms).toISOString();
      }
      case T.KEY:
        return this.#key;
      case T.ARRAY: {
        const n = this.#varint();
        const a = new Array<unknown>(n);
        for (let i = 0; i < n; i++) a[i] = this.#read();
        return a;
      }
      case T.SHAPED: {
        const keys = this.#tables.shapes[this.#varint()]!;
        const o: Record<string, unknown> = {};
        for (const k of keys) define(o, k, this.#read());
        return o;
      }
      case T.KEYED: {
        const n = this.#varint();
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = this.#read() as string;
          define(o, k, this.#read());
        }
        return o;
      }
      case T.WITH_UUID: {
        const before = this.#read() as string;
        const id = this.#uuid();
        return before + id + (this.#read() as string);
      }
    }
    throw new Error(`packed record is corrupt (tag ${tag} at ${this.#p - 1})`);
  }
}

/** A key set as an own data property, "__proto__" included (JSON.parse does the same). */
function define(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
