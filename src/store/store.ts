// The single serialized writer. A mutation runs synchronously against the in-memory data
// (JavaScript's one thread is the lock), so concurrent requests can never interleave inside
// one; if it throws, its undo log restores every record and index it touched. Its ops then
// join the next group commit: all ops gathered while a write is under way go out together in
// one log append, and each caller is answered only when the append holding its ops is done.
// The large collections keep their records packed (packed.ts); their `data[...]` is a view that
// reads like a plain object. Compaction runs beside the appends, never in front of them.
import { randomBytes } from 'node:crypto';
import { Low, Memory } from 'lowdb';
import { Codec } from './codec.js';
import { COLLECTIONS, emptyData, SCHEMA_VERSION, type CollectionName, type Data, type EntityOf, type Meta } from './model.js';
import { Indexes } from './indexes.js';
import { applyOp, type Op } from './ops.js';
import { ownRecord, PackedCollection, packedOf } from './packed.js';
import { StoreFileError, WalAdapter, type LoadSink, type LogAdapter } from './wal-adapter.js';

export interface Tx {
  readonly data: Readonly<Data>;
  readonly ix: Indexes;
  get<C extends CollectionName>(c: C, id: string): EntityOf<C> | undefined;
  put<C extends CollectionName>(c: C, record: EntityOf<C>): void;
  remove<C extends CollectionName>(c: C, id: string): void;
  setMeta<K extends keyof Meta>(key: K, value: Meta[K]): void;
  /** a counter that orders records created within one millisecond */
  nextSeq(): number;
}

/** The collections that grow with use: packed in memory (about a fifth of the size of objects). */
export const PACKED_COLLECTIONS: readonly CollectionName[] = ['transactions', 'ledger', 'idempotency', 'events', 'deliveries'];

class MemoryLog implements LogAdapter {
  #inner = new Memory<Data>();
  read = () => this.#inner.read();
  write = (data: Data) => this.#inner.write(data);
  load = () => Promise.resolve({ compact: false });
  append = () => Promise.resolve();
  compact = () => Promise.resolve({ done: Promise.resolve() });
  logBytes = () => 0;
  snapshotBytes = () => 0;
  quiesce = () => Promise.resolve();
  close = () => Promise.resolve();
}

export interface StoreOptions {
  /** the JSON file; null keeps everything in memory */
  file: string | null;
  fsync?: boolean;
  now: () => string;
}

/** `data` with its large collections packed (records moved, never shared with the plain object). */
function adopt(plain: Data, codec: Codec): Data {
  const data = { ...plain };
  for (const c of COLLECTIONS) {
    const source = (plain[c] ?? {}) as Record<string, unknown>;
    if (!PACKED_COLLECTIONS.includes(c)) {
      (data as unknown as Record<string, unknown>)[c] = source;
      continue;
    }
    if (packedOf(source)) continue;
    const coll = new PackedCollection(codec);
    for (const [id, record] of Object.entries(source)) coll.set(id, record);
    (data as unknown as Record<string, unknown>)[c] = coll.view;
  }
  return data;
}

export class Store {
  data: Data;
  ix: Indexes;
  readonly file: string | null;
  #db: Low<Data>;
  #adapter: LogAdapter;
  /** log lines (one per applied change) not yet appended */
  #pending: string[] = [];
  #waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  #writing: Promise<void> | null = null;
  #compacting: Promise<void> | null = null;
  #failed: unknown = null;
  #listeners: (() => void)[] = [];

  private constructor(db: Low<Data>, adapter: LogAdapter, file: string | null, ix: Indexes) {
    this.#db = db;
    this.#adapter = adapter;
    this.data = db.data;
    this.ix = ix;
    this.file = file;
  }

  /** Opens (or creates) the store. A file that cannot be parsed throws StoreFileError and is left untouched. */
  static async open(opts: StoreOptions): Promise<Store> {
    const adapter: LogAdapter = opts.file ? new WalAdapter(opts.file, opts.fsync ?? true) : new MemoryLog();
    const fresh = emptyData(randomBytes(32).toString('hex'), opts.now());
    let data = adopt(fresh, new Codec());
    let ix = new Indexes();
    const coll = (c: string) =>
      (data as unknown as Record<string, Record<string, unknown>>)[c] ?? ((data as unknown as Record<string, unknown>)[c] = {});
    // records arrive one at a time and are packed at once (a packed collection's view packs what
    // is assigned to it): the store is never held twice over
    const sink: LoadSink = {
      meta: (meta) => {
        data.meta = meta;
      },
      record: (c, id, value) => {
        coll(c)[id] = value;
        ix.update(c as CollectionName, undefined, value as never);
      },
      reset: () => {
        data = adopt(emptyData(fresh.meta.signingSecret, fresh.meta.createdAt), new Codec());
        ix = new Indexes();
      },
      op: (op: Op) => {
        if ('meta' in op) return applyOp(data, op);
        const before = ownRecord(coll(op.c), op.id);
        applyOp(data, op);
        ix.update(op.c, before as never, ('del' in op ? undefined : op.v) as never);
      },
    };
    let loaded: { compact: boolean };
    try {
      loaded = await adapter.load(sink);
    } catch (e) {
      await adapter.close();
      throw e;
    }
    const version = data.meta?.schemaVersion;
    if (typeof version !== 'number' || version > SCHEMA_VERSION) {
      await adapter.close();
      throw new StoreFileError(
        opts.file ?? 'memory',
        `schema version ${String(version)} is not supported by this build (${SCHEMA_VERSION})`,
      );
    }
    const db = new Low<Data>(adapter, data);
    const store = new Store(db, adapter, opts.file, ix);
    // the log replayed into a fresh snapshot, or a first snapshot for a new store
    if (loaded.compact) await (await adapter.compact(data)).done;
    return store;
  }

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
    const ops: Op[] = [];
    const undo: (() => void)[] = [];
    const data = this.data;
    const ix = this.ix;
    // a packed collection's view packs what is assigned to it and unpacks what is deleted: one
    // write path for both kinds of collection
    const coll = (c: CollectionName) => data[c] as Record<string, unknown>;
    const tx: Tx = {
      data,
      ix,
      get: (c, id) => ownRecord(coll(c), id) as EntityOf<typeof c> | undefined,
      put: (c, record) => {
        const id = (record as { id: string }).id;
        const before = tx.get(c, id);
        coll(c)[id] = record; // a packed collection throws, storing nothing, for a value the log could not hold
        ix.update(c, before, record);
        undo.push(() => {
          if (before !== undefined) coll(c)[id] = before;
          else delete coll(c)[id];
          ix.update(c, record, before);
        });
        ops.push({ c, id, v: record });
      },
      remove: (c, id) => {
        const before = tx.get(c, id);
        if (before === undefined) return;
        delete coll(c)[id];
        ix.update(c, before, undefined);
        undo.push(() => {
          coll(c)[id] = before;
          ix.update(c, undefined, before);
        });
        ops.push({ c, id, del: 1 });
      },
      setMeta: (key, value) => {
        const before = data.meta[key];
        data.meta[key] = value;
        undo.push(() => {
          data.meta[key] = before;
        });
        ops.push({ meta: key, v: value });
      },
      nextSeq: () => {
        const next = data.meta.seq + 1;
        tx.setMeta('seq', next);
        return next;
      },
    };
    try {
      const result = fn(tx);
      if (result instanceof Promise) throw new Error('a store mutation must be synchronous');
      // serialized now, inside the change: a value the log cannot hold undoes this change only
      if (ops.length > 0) this.#pending.push(JSON.stringify(ops));
      if (ops.length > 0) for (const l of this.#listeners) l();
      return result;
    } catch (e) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
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

  /** Called after each applied change (the webhook dispatcher listens). */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Replaces the whole data (reset). The caller has already moved the old file aside. */
  async replace(data: Data): Promise<void> {
    await this.idle();
    // the files may have been moved aside: the log is reopened at its path, never written into the moved one
    await this.#adapter.quiesce();
    this.data = adopt(data, new Codec());
    this.#db.data = this.data;
    this.ix = Indexes.build(this.data);
    await (
      await this.#adapter.compact(this.data)
    ).done;
  }

  async close(): Promise<void> {
    await this.idle();
    if (!this.#failed && this.#adapter.logBytes() > 0) await (await this.#adapter.compact(this.data)).done;
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
        if (this.#shouldCompact()) await this.#startCompaction();
      } catch (e) {
        // A write that failed leaves memory ahead of disk: refuse every later change loudly.
        this.#failed = e;
        for (const w of [...waiters, ...this.#waiters]) w.reject(e);
        this.#waiters = [];
        return;
      }
    }
  }

  /** Rotates the log and captures the data now; the snapshot is then written beside the appends. */
  async #startCompaction(): Promise<void> {
    const { done } = await this.#adapter.compact(this.data);
    const running: Promise<void> = done.then(
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
