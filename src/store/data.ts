// What the store holds in memory: its meta, one collection per name of schema.ts (the large ones
// packed, sharing one codec), and the balances derived from the ledger. This is what lowdb's
// `Low` holds (db.data): the write-ahead adapter's read() builds it, its write() writes it out.
import { Balances, type BalanceReader } from './balances.js';
import { Codec } from './codec.js';
import { PlainCollection, type Collection, type IndexSpec } from './collection.js';
import { COLLECTIONS, emptyData, type CollectionName, type Data, type EntityOf, type Meta } from './model.js';
import { PackedCollection } from './packed.js';
import { MAX_VALUE } from './pairs.js';
import { SCHEMA, type ReaderOf } from './schema.js';

/** What every reader may see: meta, balances and the collections, read-only. */
export type Reads = { readonly meta: Readonly<Meta>; readonly balances: BalanceReader } & {
  readonly [C in CollectionName]: ReaderOf<C>;
};

type Collections = { [C in CollectionName]: Collection<EntityOf<C>> };

export class StoreData {
  meta: Meta;
  readonly balances = new Balances();
  readonly collections: Collections;
  /** the codec of the packed collections: their entries mean something only under it (image.ts) */
  readonly codec = new Codec();
  constructor(meta: Meta) {
    this.meta = { ...meta };
    const codec = this.codec;
    const made = {} as Record<CollectionName, Collection<never>>;
    for (const c of COLLECTIONS) {
      const spec = SCHEMA[c] as { packed: boolean; indexes: Record<string, IndexSpec<never>> };
      made[c] = spec.packed ? new PackedCollection(c, spec.indexes, codec) : new PlainCollection(c, spec.indexes);
    }
    this.collections = made as unknown as Collections;
    this.collections.ledger.observe((before, after) => this.balances.apply(before, after));
  }

  /** The reads of this data (the collections typed by their declared indexes). */
  reads(): Reads {
    return { meta: this.meta, balances: this.balances, ...(this.collections as unknown as { [C in CollectionName]: ReaderOf<C> }) };
  }

  /**
   * A record from the snapshot or the log, or of data handed to a reset: stored with the seq it
   * carries, which must be one no other record of its collection has (the store gave it).
   */
  load(c: CollectionName, id: string, value: unknown): void {
    const coll = this.collections[c] as Collection<EntityOf<CollectionName>>;
    const record = value as EntityOf<CollectionName> | null;
    if (!record || typeof record !== 'object' || Array.isArray(record) || record.id !== id) throw new Error(`${c} ${id}: not its record`);
    const seq = record.seq;
    if (!Number.isSafeInteger(seq) || seq < 1 || seq > MAX_VALUE || coll.seqTaken(seq, id))
      throw new Error(`${c} ${id}: seq ${seq} is not its own`);
    if (seq > this.meta.seq) this.meta.seq = seq;
    coll._set(record);
  }

  /** The whole store as its file holds it: a full scan of everything (tests and tools). */
  toData(): Data {
    const data = emptyData(this.meta.signingSecret, this.meta.createdAt);
    data.meta = { ...this.meta };
    for (const c of COLLECTIONS) {
      const out = data[c] as Record<string, unknown>;
      for (const r of this.collections[c].scan({ order: 'oldest' })) out[r.id] = r;
    }
    return data;
  }

  /** A store holding `data` (reset; tests): each record loaded as from a file. */
  static fromData(data: Data): StoreData {
    const out = new StoreData(data.meta);
    for (const c of COLLECTIONS) for (const [id, r] of Object.entries(data[c] ?? {})) out.load(c, id, r);
    return out;
  }
}
