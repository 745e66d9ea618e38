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
  /** loading gave records a seq their file did not hold: the next snapshot should record it */
  seqsGiven = false;

  constructor(meta: Meta) {
    this.meta = { ...meta, seq: Number.isSafeInteger(meta.seq) && meta.seq > 0 ? meta.seq : 0 };
    const codec = new Codec();
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
   * A record from the snapshot or the log. Its seq is kept when it is one this collection has not
   * given to another record; otherwise (a file of an older version, a hand edit) it gets the next.
   */
  load(c: CollectionName, id: string, value: unknown): void {
    const coll = this.collections[c] as Collection<EntityOf<CollectionName>> | undefined;
    // not a record, or a collection this build does not know: nothing to keep
    if (!coll || !value || typeof value !== 'object' || Array.isArray(value)) return;
    let record = value as EntityOf<CollectionName>;
    if (record.id !== id) record = { ...record, id };
    record = this.#withAccount(c, record);
    const seq = record.seq;
    const valid = Number.isSafeInteger(seq) && seq >= 1 && seq <= MAX_VALUE;
    const taken = valid && coll.seqTaken(seq, id);
    if (!valid || taken) {
      record = { ...record, seq: ++this.meta.seq };
      this.seqsGiven = true;
    } else if (seq > this.meta.seq) this.meta.seq = seq;
    coll._set(record);
  }

  /**
   * Deliveries and idempotency records carry their tenant's id (each tenant's due work is indexed by
   * it); a file written before they did gets it from the endpoint, or from the principal (an account
   * or a merchant), both loaded before them.
   */
  #withAccount(c: CollectionName, record: EntityOf<CollectionName>): EntityOf<CollectionName> {
    if (c !== 'deliveries' && c !== 'idempotency') return record;
    const r = record as unknown as { accountId?: string; endpointId?: string; principalId?: string };
    if (typeof r.accountId === 'string') return record;
    const { webhookEndpoints, accounts, merchants } = this.collections;
    const accountId =
      c === 'deliveries'
        ? webhookEndpoints.get(String(r.endpointId))?.accountId
        : accounts.has(String(r.principalId))
          ? String(r.principalId)
          : merchants.get(String(r.principalId))?.accountId;
    return accountId === undefined ? record : { ...record, accountId };
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
