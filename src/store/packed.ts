// The large collections (transactions, ledger entries, idempotency records, webhook events and
// deliveries) hold their records packed (codec.ts) in an arena of 1 MiB buffers, found through an
// insertion-ordered Map from id to position, and show the rest of the sandbox a plain-object view
// of them: `data.transactions[id]`, `Object.values(...)`, `Object.keys(...)`, `id in ...`,
// `for...in` and `JSON.stringify` all work as on an object whose keys are in creation order. Each
// read decodes a fresh copy, so a record can only change through the store (tx.put), as the
// store's contract already says.
// Why an arena: the packed bytes live outside the JavaScript heap (no object per record for the
// collector to visit, and the young generation does not grow while 100,000 records are loaded);
// the Map holds a 16-byte key per UUID id and a number. A record that changes is written anew and
// its old bytes become garbage; the arena is rewritten when garbage outweighs what is alive.
import { uuidFromBytes, uuidToBytes, type Codec } from './codec.js';

/** marks an id kept as it is, when it could be taken for a 16-byte key (never a byte itself) */
const ESCAPE = '\u0100';
const CHUNK = 1 << 20;
const LENGTH_BYTES = 4;

const keyBytes = Buffer.alloc(16);

/** The Map key of an id: 16 one-byte chars for a lower-case UUID, the id itself otherwise. */
export function keyOf(id: string): string {
  // one flat string (a += chain would keep 15 cons cells per key alive in the Map)
  if (uuidToBytes(id, keyBytes, 0)) return keyBytes.toString('latin1');
  return id.length === 16 || id.startsWith(ESCAPE) ? ESCAPE + id : id;
}

export function idOf(key: string): string {
  if (key.startsWith(ESCAPE)) return key.slice(1);
  if (key.length !== 16) return key;
  keyBytes.write(key, 0, 16, 'latin1');
  return uuidFromBytes(keyBytes, 0);
}

/**
 * Append-only storage of byte strings in 1 MiB chunks. A position is chunk × CHUNK + offset; each
 * entry starts with its length. Chunks are never written twice, so positions taken earlier stay
 * valid for whoever still holds the chunk list (a snapshot being written).
 */
class Arena {
  chunks: Buffer[] = [];
  #used = CHUNK; // no chunk yet: the first write opens one
  live = 0;
  garbage = 0;

  append(src: Buffer, length: number): number {
    const need = length + LENGTH_BYTES;
    if (this.#used + need > (this.chunks.at(-1)?.length ?? 0)) {
      this.chunks.push(Buffer.allocUnsafe(Math.max(CHUNK, need)));
      this.#used = 0;
    }
    const ci = this.chunks.length - 1;
    const chunk = this.chunks[ci]!;
    const at = this.#used;
    chunk.writeUInt32LE(length, at);
    src.copy(chunk, at + LENGTH_BYTES, 0, length);
    this.#used += need;
    this.live += need;
    return ci * CHUNK + at;
  }

  /** The chunk and the start of the bytes at `pos`. */
  locate(pos: number, chunks = this.chunks): [Buffer, number] {
    const ci = Math.floor(pos / CHUNK);
    return [chunks[ci]!, (pos % CHUNK) + LENGTH_BYTES];
  }

  sizeAt(pos: number): number {
    const [chunk, start] = this.locate(pos);
    return chunk.readUInt32LE(start - LENGTH_BYTES) + LENGTH_BYTES;
  }

  free(pos: number): void {
    const n = this.sizeAt(pos);
    this.live -= n;
    this.garbage += n;
  }

  copyFrom(other: Arena, pos: number): number {
    const [chunk, start] = other.locate(pos);
    const length = chunk.readUInt32LE(start - LENGTH_BYTES);
    return this.append(chunk.subarray(start, start + length), length);
  }
}

export class PackedCollection<T = unknown> {
  readonly #codec: Codec;
  readonly #map = new Map<string, number>();
  #arena = new Arena();
  /** the plain-object view handed out as data[collection] */
  readonly view: Record<string, T>;

  constructor(codec: Codec) {
    this.#codec = codec;
    this.view = makeView(this);
    views.set(this.view, this);
  }

  get size(): number {
    return this.#map.size;
  }

  has(id: string): boolean {
    return this.#map.has(keyOf(id));
  }

  get(id: string): T | undefined {
    const at = this.#locate(id);
    return at && (this.#codec.decodeBytes(at[0], at[1], id) as T);
  }

  /** Only the named top-level fields of a record (see Codec.decodeFields). */
  getFields(id: string, fields: ReadonlySet<string>): Partial<T> | undefined {
    const at = this.#locate(id);
    return at && (this.#codec.decodeFields(at[0], at[1], fields, id) as Partial<T>);
  }

  /** Where the record of `id` is packed, or undefined. */
  #locate(id: string): [Buffer, number] | undefined {
    const pos = this.#map.get(keyOf(id));
    return pos === undefined ? undefined : this.#arena.locate(pos);
  }

  /** Packs and stores the record; throws (storing nothing) for a value JSON cannot hold. */
  set(id: string, record: T): void {
    const length = this.#codec.encodeBytes(record, id);
    const key = keyOf(id);
    const old = this.#map.get(key);
    if (old !== undefined) this.#arena.free(old);
    this.#map.set(key, this.#arena.append(this.#codec.output, length));
    this.#tidy();
  }

  delete(id: string): boolean {
    const key = keyOf(id);
    const old = this.#map.get(key);
    if (old === undefined) return false;
    this.#arena.free(old);
    this.#map.delete(key);
    this.#tidy();
    return true;
  }

  *ids(): IterableIterator<string> {
    for (const k of this.#map.keys()) yield idOf(k);
  }

  /** Bytes held: alive, and garbage not yet reclaimed (diagnostics). */
  stats(): { records: number; liveBytes: number; garbageBytes: number; chunks: number } {
    return { records: this.#map.size, liveBytes: this.#arena.live, garbageBytes: this.#arena.garbage, chunks: this.#arena.chunks.length };
  }

  /** The records as they are now, decoded later: chunks are never written twice, so the capture stays consistent. */
  capture(): { size: number; entries: IterableIterator<[string, number]>; decode: (key: string, pos: number) => [string, T] } {
    const pairs = [...this.#map];
    const arena = this.#arena;
    const chunks = arena.chunks.slice();
    const codec = this.#codec;
    return {
      size: pairs.length,
      entries: pairs.values(),
      decode: (key, pos) => {
        const id = idOf(key);
        const [chunk, start] = arena.locate(pos, chunks);
        return [id, codec.decodeBytes(chunk, start, id) as T];
      },
    };
  }

  /** Rewrites the arena once garbage outweighs the live bytes (updates and deletions leave garbage). */
  #tidy(): void {
    const a = this.#arena;
    if (a.garbage < 4 * CHUNK || a.garbage < a.live) return;
    const next = new Arena();
    for (const [key, pos] of this.#map) this.#map.set(key, next.copyFrom(a, pos));
    this.#arena = next;
  }
}

const views = new WeakMap<object, PackedCollection>();

/** The packed collection behind a view (undefined for a plain object collection). */
export const packedOf = (value: unknown): PackedCollection | undefined =>
  value && typeof value === 'object' ? views.get(value) : undefined;

/**
 * A collection's own record by id, or undefined. On a packed collection it decodes once; reading
 * through the view would pass two traps (Object.hasOwn's descriptor, then the read).
 */
export function ownRecord<T>(coll: Record<string, T>, id: string): T | undefined {
  const packed = views.get(coll) as PackedCollection<T> | undefined;
  if (packed) return packed.get(id);
  return Object.hasOwn(coll, id) ? coll[id] : undefined;
}

/**
 * The named fields of a collection's own record by id (a plain collection hands over the whole
 * record, which has them too), or undefined: for reads that need a few fields of large records.
 */
export function ownFields<V>(coll: Record<string, unknown>, id: string, fields: ReadonlySet<string>): V | undefined {
  const packed = views.get(coll);
  if (packed) return packed.getFields(id, fields) as V | undefined;
  return (Object.hasOwn(coll, id) ? coll[id] : undefined) as V | undefined;
}

function makeView<T>(coll: PackedCollection<T>): Record<string, T> {
  const target: Record<string, T> = {};
  return new Proxy(target, {
    get(t, k, receiver) {
      if (typeof k === 'string') {
        const v = coll.get(k);
        if (v !== undefined) return v;
      }
      return Reflect.get(t, k, receiver) as unknown;
    },
    set(_t, k, v) {
      if (typeof k !== 'string') return false;
      coll.set(k, v as T);
      return true;
    },
    has(t, k) {
      return (typeof k === 'string' && coll.has(k)) || Reflect.has(t, k);
    },
    deleteProperty(_t, k) {
      if (typeof k === 'string') coll.delete(k);
      return true;
    },
    ownKeys() {
      return [...coll.ids()];
    },
    // an accessor: enumerating keys (Object.keys, for...in, hasOwn) decodes nothing; reading does
    getOwnPropertyDescriptor(_t, k) {
      if (typeof k !== 'string' || !coll.has(k)) return undefined;
      return { get: () => coll.get(k), set: (v: T) => coll.set(k, v), enumerable: true, configurable: true };
    },
    defineProperty(_t, k, desc) {
      if (typeof k !== 'string' || !('value' in desc)) return false;
      coll.set(k, desc.value as T);
      return true;
    },
  });
}
