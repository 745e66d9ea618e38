// The large collections (transactions, ledger entries, idempotency records, webhook events and
// deliveries) hold their records packed (codec.ts) in an insertion-ordered Map, and show the rest
// of the sandbox a plain-object view of them: `data.transactions[id]`, `Object.values(...)`,
// `Object.keys(...)`, `id in ...`, `for...in` and `JSON.stringify` all work as on an object whose
// keys are in creation order. Each read decodes a fresh copy, so a record can only change
// through the store (tx.put), as the store's contract already says.
// UUID ids are kept as 16-byte keys; other ids as they are.
import type { Codec } from './codec.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** marks an id kept as it is, when it could be taken for a 16-byte key (never a byte itself) */
const ESCAPE = '\u0100';
const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The Map key of an id: 16 one-byte chars for a lower-case UUID, the id itself otherwise. */
const keyBytes = Buffer.alloc(16);

export function keyOf(id: string): string {
  if (id.length === 36 && UUID.test(id)) {
    let j = 0;
    for (let i = 0; i < 36; i += 2) {
      if (i === 8 || i === 13 || i === 18 || i === 23) i++;
      keyBytes[j++] = parseInt(id.slice(i, i + 2), 16);
    }
    // one flat string (a += chain would keep 15 cons cells per key alive in the Map)
    return keyBytes.toString('latin1');
  }
  return id.length === 16 || id.startsWith(ESCAPE) ? ESCAPE + id : id;
}

export function idOf(key: string): string {
  if (key.startsWith(ESCAPE)) return key.slice(1);
  if (key.length !== 16) return key;
  let id = '';
  for (let i = 0; i < 16; i++) {
    id += HEX[key.charCodeAt(i)];
    if (i === 3 || i === 5 || i === 7 || i === 9) id += '-';
  }
  return id;
}

export class PackedCollection<T = unknown> {
  readonly #codec: Codec;
  readonly #map = new Map<string, string>();
  /** the plain-object view handed out as data[collection] */
  readonly view: Record<string, T>;

  constructor(codec: Codec) {
    this.#codec = codec;
    this.view = makeView(this);
    views.set(this.view, this as PackedCollection);
  }

  get size(): number {
    return this.#map.size;
  }

  has(id: string): boolean {
    return this.#map.has(keyOf(id));
  }

  get(id: string): T | undefined {
    const packed = this.#map.get(keyOf(id));
    return packed === undefined ? undefined : (this.#codec.decode(packed, id) as T);
  }

  /** Packs and stores the record; throws (storing nothing) for a value JSON cannot hold. */
  set(id: string, record: T): void {
    const packed = this.#codec.encode(record, id);
    this.#map.set(keyOf(id), packed);
  }

  delete(id: string): boolean {
    return this.#map.delete(keyOf(id));
  }

  clear(): void {
    this.#map.clear();
  }

  *ids(): IterableIterator<string> {
    for (const k of this.#map.keys()) yield idOf(k);
  }

  *records(): IterableIterator<T> {
    for (const [k, packed] of this.#map) yield this.#codec.decode(packed, idOf(k)) as T;
  }

  /** The packed entries as they are now (packed values never change): a consistent capture for a snapshot. */
  capture(): { size: number; entries: IterableIterator<[string, string]>; decode: (key: string, packed: string) => [string, T] } {
    const pairs = [...this.#map];
    const codec = this.#codec;
    return {
      size: pairs.length,
      entries: pairs.values(),
      decode: (key, packed) => {
        const id = idOf(key);
        return [id, codec.decode(packed, id) as T];
      },
    };
  }
}

const views = new WeakMap<object, PackedCollection>();

/** The packed collection behind a view (undefined for a plain object collection). */
export const packedOf = (value: unknown): PackedCollection | undefined => (value && typeof value === 'object' ? views.get(value) : undefined);

function makeView<T>(coll: PackedCollection<T>): Record<string, T> {
  const target: Record<string, T> = {};
  return new Proxy(target, {
    get(t, k, receiver) {
      if (typeof k === 'string') {
        const v = coll.get(k);
        if (v !== undefined) return v;
      }
      return Reflect.get(t, k, receiver);
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
