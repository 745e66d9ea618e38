// The single serialized writer. A change runs synchronously against the collections in memory
// (JavaScript's one thread is the lock), so concurrent requests can never interleave inside one;
// if it throws, its undo log restores every record, index and meta field it touched. Its ops then
// join the next group commit: all ops gathered while a write is under way go out together in one
// log append, and each caller is answered only when the append holding its ops is done.
// lowdb's Low holds the data: opening is Low.read() through the write-ahead adapter, compaction
// is Low.write() (wal-adapter.ts); compaction runs beside the appends, never in front of them.
// docs/store.md tells the whole story.
import { randomBytes } from 'node:crypto';
import { Low } from 'lowdb';
import type { BalanceReader } from './balances.js';
import { IdleRelease } from './idle-release.js';
import { StoreData, type Reads } from './data.js';
import { emptyData, type CollectionName, type Data, type EntityOf, type Meta, type New } from './model.js';
import type { Op } from './ops.js';
import type { ReaderOf } from './schema.js';
import { MemoryAdapter, WalAdapter, type LogAdapter } from './wal-adapter.js';

export type { Reads } from './data.js';

/** One change: the reads of the store, and its only ways to write. */
export interface Tx extends Reads {
  /**
   * Stores the record whole (a new one, or the replacement of the one with its id) and returns it
   * as stored. The store gives a new record its `seq`; a replacement keeps the one it had.
   */
  put<C extends CollectionName>(c: C, record: New<EntityOf<C>>): Readonly<EntityOf<C>>;
  /** Removes the record; returns it (undefined when there was none). */
  remove<C extends CollectionName>(c: C, id: string): Readonly<EntityOf<C>> | undefined;
  setMeta<K extends 'clockOffsetMs' | 'tokenGeneration'>(key: K, value: Meta[K]): void;
}

export interface StoreOptions {
  /** the JSON file; null keeps everything in memory */
  file: string | null;
  fsync?: boolean;
  now: () => string;
}

export class Store implements Reads {
  readonly file: string | null;
  readonly #db: Low<StoreData>;
  readonly #adapter: LogAdapter;
  #reads: Reads;
  /** log lines (one per applied change) not yet appended */
  #pending: string[] = [];
  #waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  #writing: Promise<void> | null = null;
  #compacting: Promise<void> | null = null;
  #failed: unknown = null;
  #listeners: ((ops: readonly Op[]) => void)[] = [];
  #generation = 0;
  readonly #idle = new IdleRelease();

  private constructor(db: Low<StoreData>, adapter: LogAdapter, file: string | null) {
    this.#db = db;
    this.#adapter = adapter;
    this.#reads = db.data.reads();
    this.file = file;
  }

  /**
   * Opens (or creates) the store. A file this build cannot use (one that does not parse, or of a
   * newer format version) throws StoreFileError and is left untouched.
   */
  static async open(opts: StoreOptions): Promise<Store> {
    const adapter: LogAdapter = opts.file ? new WalAdapter(opts.file, opts.fsync ?? true) : new MemoryAdapter();
    const db = new Low<StoreData>(adapter, new StoreData(emptyData(randomBytes(32).toString('hex'), opts.now()).meta));
    try {
      await db.read();
    } catch (e) {
      await adapter.close();
      throw e;
    }
    const store = new Store(db, adapter, opts.file);
    // the log replayed into a fresh snapshot, a first snapshot for a new store, or an older format rewritten
    if (adapter.compactAtOpen) await db.write();
    return store;
  }

  // ---- reads (the collections are replaced by a reset: always read them through the store) ----

  get meta(): Readonly<Meta> {
    return this.#reads.meta;
  }
  get balances(): BalanceReader {
    return this.#reads.balances;
  }
  get accounts(): ReaderOf<'accounts'> {
    return this.#reads.accounts;
  }
  get merchants(): ReaderOf<'merchants'> {
    return this.#reads.merchants;
  }
  get wallets(): ReaderOf<'wallets'> {
    return this.#reads.wallets;
  }
  get transactions(): ReaderOf<'transactions'> {
    return this.#reads.transactions;
  }
  get ledger(): ReaderOf<'ledger'> {
    return this.#reads.ledger;
  }
  get idempotency(): ReaderOf<'idempotency'> {
    return this.#reads.idempotency;
  }
  get pixKeys(): ReaderOf<'pixKeys'> {
    return this.#reads.pixKeys;
  }
  get rules(): ReaderOf<'rules'> {
    return this.#reads.rules;
  }
  get webhookEndpoints(): ReaderOf<'webhookEndpoints'> {
    return this.#reads.webhookEndpoints;
  }
  get events(): ReaderOf<'events'> {
    return this.#reads.events;
  }
  get deliveries(): ReaderOf<'deliveries'> {
    return this.#reads.deliveries;
  }
  get faults(): ReaderOf<'faults'> {
    return this.#reads.faults;
  }
  get webhookFaults(): ReaderOf<'webhookFaults'> {
    return this.#reads.webhookFaults;
  }
  get webhookSends(): ReaderOf<'webhookSends'> {
    return this.#reads.webhookSends;
  }

  /** Bumped by each reset (replace): a worker that keeps something across changes knows to start over. */
  get generation(): number {
    return this.#generation;
  }

  /** The whole store as its file holds it: a full scan (tests and tools, never a request). */
  toData(): Data {
    return this.#db.data.toData();
  }

  // ---- writes ----

  /**
   * Runs `fn` now, as one atomic change, and resolves with its result once the change is durable.
   * A throw rolls the change back and rejects without writing anything.
   */
  commit<T>(fn: (tx: Tx) => T): Promise<T> {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the write error, passed on as it came
    if (this.#failed) return Promise.reject(this.#failed);
    let result: T;
    try {
      result = this.apply(fn);
    } catch (e) {
      return Promise.reject(e); // as documented: a rejection, never a synchronous throw
    }
    return this.sync().then(() => result);
  }

  /** Runs `fn` as one atomic change in memory and queues its ops; `sync()` waits for them. */
  apply<T>(fn: (tx: Tx) => T): T {
    const data = this.#db.data;
    const ops: Op[] = [];
    const undo: (() => void)[] = [];
    const seqBefore = data.meta.seq;
    const tx: Tx = {
      ...this.#reads,
      put: (c, input) => {
        const coll = data.collections[c];
        const id = input.id;
        const existing = coll.seqOf(id);
        if (input.seq !== undefined && input.seq !== existing)
          throw new Error(`${c} ${id}: a record's seq is given by the store (${input.seq} given, ${String(existing)} stored)`);
        const seq = existing ?? ++data.meta.seq;
        const record = (input.seq === seq ? input : { ...input, seq }) as unknown as EntityOf<typeof c>;
        const { before, stored } = coll._set(record); // a packed collection throws, storing nothing, for a value the log could not hold
        undo.push(() => (before ? coll._set(before as EntityOf<typeof c>) : coll._delete(id)));
        ops.push({ c, id, v: record });
        return stored;
      },
      remove: (c, id) => {
        const coll = data.collections[c];
        const before = coll._delete(id);
        if (before === undefined) return undefined;
        undo.push(() => coll._set(before as EntityOf<typeof c>));
        ops.push({ c, id, del: 1 });
        return before;
      },
      setMeta: (key, value) => {
        const before = data.meta[key];
        data.meta[key] = value;
        undo.push(() => (data.meta[key] = before));
        ops.push({ meta: key, v: value });
      },
    };
    try {
      const result = fn(tx);
      if (result instanceof Promise) throw new Error('a store mutation must be synchronous');
      if (data.meta.seq !== seqBefore) ops.push({ meta: 'seq', v: data.meta.seq });
      // serialized now, inside the change: a value the log cannot hold undoes this change only
      if (ops.length > 0) this.#pending.push(JSON.stringify(ops));
      if (ops.length > 0) {
        for (const l of this.#listeners) l(ops);
        this.#idle.changed();
      }
      return result;
    } catch (e) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
      data.meta.seq = seqBefore;
      throw e;
    }
  }

  /** Resolves when every change applied so far is durable. */
  sync(): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the write error, passed on as it came
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#pending.length === 0 && !this.#writing) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#kick();
    });
  }

  /** Resolves once nothing is being written: appends and any compaction under way (tests, tools). */
  async idle(): Promise<void> {
    await this.#drain();
    await this.#compacting;
  }

  /**
   * Called after each applied change with its ops (the webhook dispatcher listens; the change feed
   * reads which collections and tenants the ops touched). A listener must not keep or alter them.
   */
  onChange(listener: (ops: readonly Op[]) => void): void {
    this.#listeners.push(listener);
  }

  /** Moves the data files aside as `<file>.<suffix>.bak` (reset); null when in memory or there was none. */
  async moveAside(suffix: string): Promise<string | null> {
    await this.sync();
    return this.#adapter.moveAside(suffix);
  }

  /** Replaces the whole data (reset). The caller has already moved the old file aside. */
  async replace(data: Data): Promise<void> {
    await this.idle();
    // the files may have been moved aside: the log is reopened at its path, never written into the moved one
    await this.#adapter.quiesce();
    this.#db.data = StoreData.fromData(data);
    this.#reads = this.#db.data.reads();
    this.#generation++;
    await this.#db.write();
  }

  async close(): Promise<void> {
    this.#idle.close();
    await this.idle();
    if (!this.#failed && this.#adapter.logBytes() > 0) await this.#db.write();
    await this.#adapter.close();
  }

  stats(): { logBytes: number; snapshotBytes: number } {
    return { logBytes: this.#adapter.logBytes(), snapshotBytes: this.#adapter.snapshotBytes() };
  }

  async #drain(): Promise<void> {
    while (this.#writing || this.#pending.length > 0) await this.sync();
  }

  #kick(): void {
    if (this.#writing) return;
    this.#writing = this.#writeLoop().finally(() => {
      this.#writing = null;
      // a sync() that arrived after the loop's last check but before this callback would wait forever
      if (!this.#failed && (this.#waiters.length > 0 || this.#pending.length > 0)) this.#kick();
    });
  }

  async #writeLoop(): Promise<void> {
    while (this.#pending.length > 0 || this.#waiters.length > 0) {
      const lines = this.#pending;
      const waiters = this.#waiters;
      this.#pending = [];
      this.#waiters = [];
      try {
        await this.#adapter.append(lines);
        for (const w of waiters) w.resolve();
        if (this.#shouldCompact()) this.#startCompaction();
      } catch (e) {
        // A write that failed leaves memory ahead of disk: refuse every later change loudly.
        this.#failed = e;
        for (const w of [...waiters, ...this.#waiters]) w.reject(e);
        this.#waiters = [];
        return;
      }
    }
  }

  /**
   * Low.write(): the adapter rotates the log and captures the data at once (later appends wait for
   * the rotation, never for the snapshot), then streams the snapshot beside the appends.
   */
  #startCompaction(): void {
    const running: Promise<void> = this.#db.write().then(
      () => undefined,
      (e: unknown) => console.error('[pix-sandbox] compaction failed (the log keeps every change; it will be retried):', e),
    );
    this.#compacting = running;
    void running.then(() => {
      if (this.#compacting === running) this.#compacting = null;
    });
  }

  #shouldCompact(): boolean {
    if (this.#compacting) return false;
    const log = this.#adapter.logBytes();
    return log > 64 * 1024 * 1024 || (log > 4 * 1024 * 1024 && log > 2 * this.#adapter.snapshotBytes());
  }
}
