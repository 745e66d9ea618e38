// The single serialized writer. A mutation runs synchronously against the in-memory data
// (JavaScript's one thread is the lock), so concurrent requests can never interleave inside
// one; if it throws, its undo log restores every record and index it touched. Its ops then
// join the next group commit: all ops gathered while a write is under way go out together in
// one log append, and each caller is answered only when the append holding its ops is done.
import { randomBytes } from 'node:crypto';
import { Low, Memory } from 'lowdb';
import { COLLECTIONS, emptyData, SCHEMA_VERSION, type CollectionName, type Data, type EntityOf, type Meta } from './model.js';
import { Indexes } from './indexes.js';
import type { Op } from './ops.js';
import { StoreFileError, WalAdapter, type LogAdapter } from './wal-adapter.js';

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

class MemoryLog implements LogAdapter {
  #inner = new Memory<Data>();
  read = () => this.#inner.read();
  write = (data: Data) => this.#inner.write(data);
  append = async () => undefined;
  logBytes = () => 0;
  snapshotBytes = () => 0;
  close = async () => undefined;
}

export interface StoreOptions {
  /** the JSON file; null keeps everything in memory */
  file: string | null;
  fsync?: boolean;
  now: () => string;
}

export class Store {
  data: Data;
  ix: Indexes;
  readonly file: string | null;
  #db: Low<Data>;
  #adapter: LogAdapter;
  #pending: Op[] = [];
  #waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  #writing: Promise<void> | null = null;
  #failed: unknown = null;
  #listeners: (() => void)[] = [];

  private constructor(db: Low<Data>, adapter: LogAdapter, file: string | null) {
    this.#db = db;
    this.#adapter = adapter;
    this.data = db.data;
    this.ix = Indexes.build(this.data);
    this.file = file;
  }

  /** Opens (or creates) the store. A file that cannot be parsed throws StoreFileError and is left untouched. */
  static async open(opts: StoreOptions): Promise<Store> {
    const adapter: LogAdapter = opts.file ? new WalAdapter(opts.file, opts.fsync ?? true) : new MemoryLog();
    const fresh = emptyData(randomBytes(32).toString('hex'), opts.now());
    const db = new Low<Data>(adapter, fresh);
    await db.read();
    const version = db.data.meta.schemaVersion;
    if (typeof version !== 'number' || version > SCHEMA_VERSION) {
      throw new StoreFileError(opts.file ?? 'memory', `schema version ${String(version)} is not supported by this build (${SCHEMA_VERSION})`);
    }
    for (const c of COLLECTIONS) db.data[c] ??= {};
    const store = new Store(db, adapter, opts.file);
    await db.write(); // compaction at start: the log replayed into a fresh snapshot
    return store;
  }

  /**
   * Runs `fn` now, as one atomic change, and resolves with its result once the change is durable.
   * A throw rolls the change back and rejects without writing anything.
   */
  commit<T>(fn: (tx: Tx) => T): Promise<T> {
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
    const tx: Tx = {
      data,
      ix,
      get: (c, id) => (Object.hasOwn(data[c], id) ? (data[c][id] as EntityOf<typeof c>) : undefined),
      put: (c, record) => {
        const coll = data[c] as Record<string, unknown>;
        const id = (record as { id: string }).id;
        const had = Object.hasOwn(coll, id);
        const before = coll[id] as EntityOf<typeof c> | undefined;
        coll[id] = record;
        ix.update(c, before, record);
        undo.push(() => {
          if (had) coll[id] = before;
          else delete coll[id];
          ix.update(c, record, before);
        });
        ops.push({ c, id, v: record });
      },
      remove: (c, id) => {
        const coll = data[c] as Record<string, unknown>;
        if (!Object.hasOwn(coll, id)) return;
        const before = coll[id] as EntityOf<typeof c>;
        delete coll[id];
        ix.update(c, before, undefined);
        undo.push(() => {
          coll[id] = before;
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
      for (const op of ops) this.#pending.push(op);
      if (ops.length > 0) for (const l of this.#listeners) l();
      return result;
    } catch (e) {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
      throw e;
    }
  }

  /** Resolves when every change applied so far is durable. */
  sync(): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#pending.length === 0 && !this.#writing) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#kick();
    });
  }

  /** Called after each applied change (the webhook dispatcher listens). */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Replaces the whole data (reset). The caller has already moved the old file aside. */
  async replace(data: Data): Promise<void> {
    await this.#drain();
    // the files may have been moved aside: reopen the log at its path instead of writing into the moved one
    await this.#adapter.close();
    this.data = data;
    this.#db.data = data;
    this.ix = Indexes.build(data);
    await this.#db.write();
  }

  async close(): Promise<void> {
    await this.#drain();
    if (!this.#failed) await this.#db.write();
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
      const ops = this.#pending;
      const waiters = this.#waiters;
      this.#pending = [];
      this.#waiters = [];
      try {
        await this.#adapter.append(ops);
        if (this.#shouldCompact()) await this.#db.write();
        for (const w of waiters) w.resolve();
      } catch (e) {
        // A write that failed leaves memory ahead of disk: refuse every later change loudly.
        this.#failed = e;
        for (const w of [...waiters, ...this.#waiters]) w.reject(e);
        this.#waiters = [];
        return;
      }
    }
  }

  #shouldCompact(): boolean {
    const log = this.#adapter.logBytes();
    return log > 64 * 1024 * 1024 || (log > 4 * 1024 * 1024 && log > 2 * this.#adapter.snapshotBytes());
  }
}
