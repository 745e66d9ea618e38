// One collection of records, and the one way to read it. Every collection, packed (packed.ts) or
// plain (below), answers the same reads, each named for what it costs:
//   get / getFields / has   one record by id: a lookup in the id table
//   scan                    records in creation order (newest first by default): costs what the
//                           caller takes from it, so it is the one read that can walk everything
//   find / findOne / count  records filed under a key of a declared index (schema.ts)
//   orderedIn               records of one group of an ordered index (an account's due work
//                           by its own clock), smallest first; `firstAfter` the next one's instant
// A record read is the store's no longer: a packed collection decodes a fresh copy, a plain one
// hands out a frozen object. Only a transaction's put and remove (store.ts) change a collection,
// through the `_set`/`_delete` below; they keep the id table, the rows and every index in step.
import { hash32 } from './hash.js';
import type { Stored } from './model.js';
import { MAX_VALUE, PairSet } from './pairs.js';

export interface KeyIndexSpec<T> {
  /** the key a record is filed under; null or undefined: not in this index */
  key: (r: T) => string | null | undefined;
  /** the top-level fields `key` reads: a packed collection checks a record's key by decoding only those (seqsUnder) */
  fields?: ReadonlySet<string>;
  /** the key is this one top-level field's value, a string: a packed collection compares it where it lies, decoding nothing */
  field?: string;
}
/** An ordered index per group (each account's due work, ordered by its instant, read with that account's clock). */
export interface GroupOrderIndexSpec<T> {
  /** the group a record is filed under; null or undefined: not in this index */
  group: (r: T) => string | null | undefined;
  /** the instant (or any number) a record is ordered by; null: not in this index */
  order: (r: T) => number | null;
}
export type IndexSpec<T> = KeyIndexSpec<T> | GroupOrderIndexSpec<T>;

export interface ScanOptions {
  /** a cursor: the seq of the last record already seen (it and those before it are skipped) */
  after?: number;
  /** 'newest' (default) or 'oldest' first */
  order?: 'newest' | 'oldest';
}

/** What a route, service or worker may do with a collection: read it. */
export interface Reader<T extends Stored, K extends string = string, G extends string = string> {
  readonly name: string;
  /** how many records it holds */
  readonly size: number;
  get(id: string): Readonly<T> | undefined;
  /** only the named top-level fields (a packed collection decodes nothing else; a plain one hands over the record) */
  getFields(id: string, fields: ReadonlySet<string>): Readonly<Partial<T>> | undefined;
  has(id: string): boolean;
  /** every record in creation order: costs what the caller takes */
  scan(opts?: ScanOptions): IterableIterator<Readonly<T>>;
  /** the records filed under `key` in the index `index`, in creation order */
  find(index: K, key: string, opts?: ScanOptions): IterableIterator<Readonly<T>>;
  /** the newest record filed under `key` */
  findOne(index: K, key: string): Readonly<T> | undefined;
  /** how many records are filed under `key` (by the index alone: a walk over its chunks) */
  count(index: K, key: string): number;
  /** the records of one group of a grouped ordered index whose instant is at most `upTo`, earliest first */
  orderedIn(index: G, group: string, upTo?: number): IterableIterator<Readonly<T>>;
  /** the smallest instant above `after` in one group of a grouped ordered index, or null (one search) */
  firstAfter(index: G, group: string, after: number): number | null;
}

const START = MAX_VALUE + 1;

/** One declared index and its table (test/helpers/store-checks.ts holds each to a full scan). */
export class Index<T> {
  /** a key index: (hash of the key, seq) pairs */
  readonly pairs = new PairSet('uint32');
  /** a grouped ordered index: one ordered set of (instant, seq) per group */
  readonly groups: Map<string, PairSet> | null;
  constructor(
    readonly name: string,
    readonly spec: IndexSpec<T>,
  ) {
    this.groups = 'group' in spec ? new Map() : null;
  }

  groupOf(r: T): string | null {
    if (!('group' in this.spec)) return null;
    return this.spec.group(r) ?? null;
  }

  /** the set of a group (made on first use when `make`) */
  setOf(group: string, make: boolean): PairSet | undefined {
    let set = this.groups!.get(group);
    if (!set && make) this.groups!.set(group, (set = new PairSet('float64')));
    return set;
  }

  keyOf(r: T): number | null {
    if ('group' in this.spec) {
      if (this.groupOf(r) === null) return null;
      const v = this.spec.order(r);
      return v === null || !Number.isFinite(v) ? null : v;
    }
    const k = this.spec.key(r);
    return k === null || k === undefined ? null : hash32(k);
  }
}

export abstract class Collection<T extends Stored> implements Reader<T> {
  /** (seq, where the record is): creation order */
  protected readonly rows = new PairSet('uint32');
  /** the declared indexes' tables: the collection's own bookkeeping (readers see the Reader interface only) */
  readonly indexes: ReadonlyMap<string, Index<T>>;
  readonly #observers: ((before: Readonly<T> | undefined, after: Readonly<T> | undefined) => void)[] = [];

  constructor(
    readonly name: string,
    indexes: Record<string, IndexSpec<T>>,
  ) {
    this.indexes = new Map(Object.entries(indexes).map(([n, spec]) => [n, new Index(n, spec)]));
  }

  // ---- what a kind of collection provides ----

  /** the seq of the record with this id, or undefined */
  abstract seqOf(id: string): number | undefined;
  /** the record in row (seq, at) */
  protected abstract recordAt(seq: number, at: number): Readonly<T> | undefined;
  abstract getFields(id: string, fields: ReadonlySet<string>): Readonly<Partial<T>> | undefined;
  /** stores the record (its seq set); returns what it replaced. Throws, changing nothing, when it cannot be stored. */
  abstract _set(record: T): { before: Readonly<T> | undefined; stored: Readonly<T> };
  /** removes the record; returns it (undefined when there was none) */
  abstract _delete(id: string): Readonly<T> | undefined;

  // ---- reads ----

  get size(): number {
    return this.rows.size;
  }

  has(id: string): boolean {
    return this.seqOf(id) !== undefined;
  }

  get(id: string): Readonly<T> | undefined {
    const seq = this.seqOf(id);
    return seq === undefined ? undefined : this.bySeq(seq);
  }

  /** Whether a record other than `id` has this seq (loading keeps seqs unique). */
  seqTaken(seq: number, id: string): boolean {
    return this.rows.first(seq) !== undefined && this.seqOf(id) !== seq;
  }

  /** The record of this seq (a cursor's), or undefined. */
  bySeq(seq: number): Readonly<T> | undefined {
    const at = this.rows.first(seq);
    return at === undefined ? undefined : this.recordAt(seq, at);
  }

  *scan(opts: ScanOptions = {}): IterableIterator<Readonly<T>> {
    const walk = opts.order === 'oldest' ? this.rows.walk(opts.after ?? 0, START, 1) : this.rows.walk(opts.after ?? START, 0, -1);
    for (const [seq, at] of walk) {
      const r = this.recordAt(seq, at);
      if (r) yield r;
    }
  }

  *find(index: string, key: string, opts: ScanOptions = {}): IterableIterator<Readonly<T>> {
    const ix = this.#keyIndex(index);
    const h = hash32(key);
    const seqs = opts.order === 'oldest' ? ix.pairs.bucket(h, opts.after ?? 0, 1) : ix.pairs.bucket(h, opts.after ?? START, -1);
    for (const seq of seqs) {
      const r = this.bySeq(seq);
      // the hash only says where to look: the key itself decides
      if (r && (ix.spec as KeyIndexSpec<T>).key(r) === key) yield r;
    }
  }

  findOne(index: string, key: string): Readonly<T> | undefined {
    for (const r of this.find(index, key)) return r;
    return undefined;
  }

  count(index: string, key: string): number {
    return this.#keyIndex(index).pairs.count(hash32(key));
  }

  // ---- where records are, without reading them (a scope's records: scope.ts) ----

  /** The seqs of the records filed under `key`, oldest first, each checked against the key itself. */
  seqsUnder(index: string, key: string): number[] {
    return this.seqsUnderEach(index, [key]);
  }

  /** The seqs of the records filed under any of `keys` (the entries of a tenant's transactions), each checked against its key. */
  seqsUnderEach(index: string, keys: readonly string[]): number[] {
    const out: number[] = [];
    if (this.size === 0) return out;
    const ix = this.#keyIndex(index);
    const spec = ix.spec as KeyIndexSpec<T>;
    for (const key of keys) {
      const from = out.length;
      ix.pairs.valuesOf(hash32(key), out);
      // keep those whose key is `key` itself (a hash says where to look, never what the answer is)
      let kept = from;
      for (let i = from; i < out.length; i++) if (this.keyIs(out[i]!, spec, key)) out[kept++] = out[i]!;
      out.length = kept;
    }
    return out;
  }

  /** The seqs of every record of one group of a grouped ordered index. */
  seqsInGroup(index: string, group: string): number[] {
    const set = this.#groupIndex(index).setOf(group, false);
    return set ? Array.from(set.walk(-Infinity, 0, 1), ([, seq]) => seq) : [];
  }

  /** Whether a record has this seq. */
  hasSeq(seq: number): boolean {
    return this.rows.first(seq) !== undefined;
  }

  /** The seq of every record, oldest first. */
  allSeqs(): number[] {
    return Array.from(this.rows.walk(0, START, 1), ([seq]) => seq);
  }

  /** Whether the record of `seq` is filed under `key` in a key index (a packed collection decodes only the fields the index names). */
  protected keyIs(seq: number, spec: KeyIndexSpec<T>, key: string): boolean {
    const r = this.bySeq(seq);
    return r !== undefined && spec.key(r) === key;
  }

  /** The id of the record of `seq`. */
  abstract idAt(seq: number): string | undefined;

  *orderedIn(index: string, group: string, upTo = Infinity): IterableIterator<Readonly<T>> {
    const set = this.#groupIndex(index).setOf(group, false);
    if (set) yield* this.#walkUpTo(set, upTo);
  }

  firstAfter(index: string, group: string, after: number): number | null {
    const set = this.#groupIndex(index).setOf(group, false);
    if (!set) return null;
    for (const [at] of set.walk(after, MAX_VALUE, 1)) return at;
    return null;
  }

  *#walkUpTo(pairs: PairSet, upTo: number): IterableIterator<Readonly<T>> {
    for (const [at, seq] of pairs.walk(-Infinity, 0, 1)) {
      if (at > upTo) return;
      const r = this.bySeq(seq);
      if (r) yield r;
    }
  }

  #groupIndex(index: string): Index<T> {
    const ix = this.indexes.get(index);
    if (!ix?.groups) throw new Error(`${this.name} has no grouped ordered index ${index}`);
    return ix;
  }

  #keyIndex(index: string): Index<T> {
    const ix = this.indexes.get(index);
    if (!ix || !('key' in ix.spec)) throw new Error(`${this.name} has no key index ${index}`);
    return ix;
  }

  // ---- kept in step by the kinds of collection ----

  /** Calls `fn(before, after)` after every change (derived figures such as balances). */
  observe(fn: (before: Readonly<T> | undefined, after: Readonly<T> | undefined) => void): void {
    this.#observers.push(fn);
  }

  protected changed(before: Readonly<T> | undefined, after: Readonly<T> | undefined): void {
    for (const ix of this.indexes.values()) {
      const b = before ? ix.keyOf(before) : null;
      const a = after ? ix.keyOf(after) : null;
      if (ix.groups) {
        const bg = before ? ix.groupOf(before) : null;
        const ag = after ? ix.groupOf(after) : null;
        if (b === a && bg === ag && before?.seq === after?.seq) continue;
        if (b !== null && bg !== null) ix.setOf(bg, false)?.delete(b, before!.seq);
        if (a !== null && ag !== null) ix.setOf(ag, true)!.add(a, after!.seq);
        continue;
      }
      if (b === a && before?.seq === after?.seq) continue;
      if (b !== null) ix.pairs.delete(b, before!.seq);
      if (a !== null) ix.pairs.add(a, after!.seq);
    }
    for (const fn of this.#observers) fn(before, after);
  }

  /** Bytes of the tables and indexes (diagnostics). */
  indexBytes(): number {
    let n = this.rows.bytes();
    for (const ix of this.indexes.values()) {
      n += ix.pairs.bytes();
      for (const set of ix.groups?.values() ?? []) n += set.bytes();
    }
    return n;
  }
}

/** Freezes a record and everything in it: a plain collection's records are shared with every reader. */
function deepFreeze<V>(v: V): V {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** A small collection (accounts, endpoints, rules, ...): frozen objects in a Map. */
export class PlainCollection<T extends Stored> extends Collection<T> {
  readonly #byId = new Map<string, Readonly<T>>();
  readonly #bySeq = new Map<number, Readonly<T>>();

  seqOf(id: string): number | undefined {
    return this.#byId.get(id)?.seq;
  }

  idAt(seq: number): string | undefined {
    return this.#bySeq.get(seq)?.id;
  }

  override get(id: string): Readonly<T> | undefined {
    return this.#byId.get(id);
  }

  protected recordAt(seq: number): Readonly<T> | undefined {
    return this.#bySeq.get(seq);
  }

  getFields(id: string): Readonly<Partial<T>> | undefined {
    return this.#byId.get(id); // the whole record has the fields, and costs nothing more here
  }

  _set(record: T): { before: Readonly<T> | undefined; stored: Readonly<T> } {
    const stored = deepFreeze(structuredClone(record));
    const before = this.#byId.get(record.id);
    if (before && before.seq !== stored.seq) {
      this.rows.delete(before.seq, 0);
      this.#bySeq.delete(before.seq);
    }
    this.rows.add(stored.seq, 0);
    this.#byId.set(stored.id, stored);
    this.#bySeq.set(stored.seq, stored);
    this.changed(before, stored);
    return { before, stored };
  }

  _delete(id: string): Readonly<T> | undefined {
    const before = this.#byId.get(id);
    if (!before) return undefined;
    this.rows.delete(before.seq, 0);
    this.#byId.delete(id);
    this.#bySeq.delete(before.seq);
    this.changed(before, undefined);
    return before;
  }
}
