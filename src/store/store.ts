// The single serialized writer. A change runs synchronously against the collections in memory
// (JavaScript's one thread is the lock), so concurrent requests can never interleave inside one;
// if it throws, its undo log restores every record, index and meta field it touched. Its ops then
// join the next group commit: all ops gathered while a write is under way go out together in one
// log append, and each caller is answered only when the append holding its ops is done.
// lowdb's Low holds the data: opening is Low.read() through the write-ahead adapter, compaction
// is Low.write() (wal-adapter.ts); compaction runs beside the appends, never in front of them.
// docs/store.md tells the whole story.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Low } from 'lowdb';
import type { BalanceReader } from './balances.js';
import { IdleRelease } from './idle-release.js';
import { StoreData, type Reads } from './data.js';
import { emptyData, type CollectionName, type Data, type Meta, type Stored } from './model.js';
import { buildImage, captureImage, type Image } from './image.js';
import type { Op, RestoreOp } from './ops.js';
import { originImage } from './restore.js';
import { scopeSeqs } from './scope.js';
import { Shelf, SNAPSHOTS_FOLDER } from './saved.js';
import type { ReaderOf } from './schema.js';
import { MemoryAdapter, WalAdapter, type LogAdapter } from './wal-adapter.js';

import { openChange, type Tx } from './tx.js';

export type { Reads } from './data.js';
export type { Tx } from './tx.js';

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
  /** the snapshot files named by restores in #pending: kept until a compaction covers them (saved.ts) */
  #pendingFiles: string[] = [];
  #waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  #writing: Promise<void> | null = null;
  #compacting: Promise<void> | null = null;
  #failed: unknown = null;
  #listeners: ((ops: readonly Op[]) => void)[] = [];
  #generation = 0;
  /** restores of each tenant so far (restoresOf) */
  readonly #restores = new Map<string, number>();
  /** compactions begun so far (a snapshot file a restore names is kept until a later one is done) */
  #compactions = 0;
  readonly #idle = new IdleRelease();
  /** the named snapshots: their files and images (saved.ts) */
  readonly shelf: Shelf;

  private constructor(db: Low<StoreData>, adapter: LogAdapter, file: string | null, fsync: boolean) {
    this.#db = db;
    this.#adapter = adapter;
    this.#reads = db.data.reads();
    this.file = file;
    this.shelf = new Shelf(file === null ? null : path.join(path.dirname(file), SNAPSHOTS_FOLDER), fsync);
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
    const store = new Store(db, adapter, opts.file, opts.fsync ?? true);
    // the log replayed into a fresh snapshot, a first snapshot for a new store, or an older format rewritten
    if (adapter.compactAtOpen) await store.#compact();
    await store.#tidyShelf();
    return store;
  }

  /**
   * At open, no log names a snapshot file any more: files the catalog does not name go (a save a
   * crash cut short), and so does a catalog entry whose file is gone (removed by hand).
   */
  async #tidyShelf(): Promise<void> {
    const named = new Map<string, string>();
    for (const s of this.savedSnapshots.scan()) named.set(s.file, s.id);
    const missing = await this.shelf.tidy(new Set(named.keys()));
    if (missing.length === 0) return;
    console.error(`[pix-sandbox] named snapshots whose file is gone are forgotten: ${missing.map((f) => named.get(f)).join(', ')}`);
    await this.commit((tx) => {
      for (const f of missing) tx.remove('savedSnapshots', named.get(f)!);
    });
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
  get origins(): ReaderOf<'origins'> {
    return this.#reads.origins;
  }
  get savedSnapshots(): ReaderOf<'savedSnapshots'> {
    return this.#reads.savedSnapshots;
  }

  /**
   * Bumped by each reset (replace) and each restore of the whole sandbox: a worker that keeps something
   * across changes knows to start over.
   */
  get generation(): number {
    return this.#generation;
  }

  /** How many times the tenant was restored (or reset) so far: work begun before one (a webhook attempt) is not recorded over it. */
  restoresOf(accountId: string): number {
    return this.#restores.get(accountId) ?? 0;
  }

  // ---- images of a scope (named snapshots: docs/store.md#named-snapshots) ----

  /** The records of a tenant (or, null, of the whole sandbox's state) as they stand now, copied out; no record is decoded. */
  capture(accountId: string | null): Image {
    return captureImage(this.#db.data, scopeSeqs(this.#db.data, accountId));
  }

  /** An image of records given as objects (a snapshot's file read back). */
  imageOf(records: Iterable<[CollectionName, Readonly<Stored>]>): Image {
    return buildImage(this.#db.data, records);
  }

  /** The tenant's origin as an image (null when it has none: created before origins were kept). */
  originOf(accountId: string): Image | null {
    return originImage(this.#db.data, accountId);
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
    const change = openChange(data, this.#reads);
    const seqBefore = data.meta.seq;
    try {
      const result = fn(change.tx);
      if (result instanceof Promise) throw new Error('a store mutation must be synchronous');
      const { ops } = change;
      if (data.meta.seq !== seqBefore) ops.push({ meta: 'seq', v: data.meta.seq });
      // serialized now, inside the change: a value the log cannot hold undoes this change only
      if (ops.length > 0) this.#pending.push(JSON.stringify(ops));
      for (const op of change.restored) this.#restored(op);
      if (ops.length > 0) {
        for (const l of this.#listeners) l(ops);
        this.#idle.changed();
      }
      return result;
    } catch (e) {
      change.rollBack();
      data.meta.seq = seqBefore;
      throw e;
    }
  }

  /** A restore was applied: workers hear of it, and its snapshot file is kept while the log names it. */
  #restored(op: RestoreOp): void {
    if (op.scope === null) this.#generation++;
    else this.#restores.set(op.scope, this.restoresOf(op.scope) + 1);
    if ('file' in op.from) {
      this.shelf.pin(op.from.file);
      this.#pendingFiles.push(op.from.file);
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

  /**
   * Replaces the whole data (reset) with `fresh(old meta)` and the change `first` (the fixtures), and
   * keeps the old store aside as `<file>.<suffix>.bak`; resolves with that name (null when in memory or
   * there was none) once the new data is durable. The old data ends and the new begins in one
   * synchronous step, whatever is being written: the old data's changes not yet written go to its
   * files before they are set aside, the new data's after them, to its own (docs/store.md#reset).
   */
  async replace(suffix: string, fresh: (old: Readonly<Meta>) => Data, first: (tx: Tx) => void): Promise<string | null> {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the write error, passed on as it came
    if (this.#failed) throw this.#failed;
    const old = { data: this.#db.data, reads: this.#reads, restores: [...this.#restores], lines: this.#pending, waiters: this.#waiters };
    // the named snapshots of the old data, by their files: those go with it (a save begun after this instant keeps its own)
    const shelved = [...this.#reads.savedSnapshots.scan()].map((saved) => saved.file);
    this.#db.data = StoreData.fromData(fresh(old.data.meta));
    this.#reads = this.#db.data.reads();
    this.#generation++; // before the first change, so that its listeners know the data was replaced
    this.#restores.clear();
    this.#pending = [];
    this.#waiters = [];
    try {
      this.apply(first);
    } catch (e) {
      // fixtures that do not load change nothing: the old data stays, its files where they were
      this.#db.data = old.data;
      this.#reads = old.reads;
      this.#generation--;
      for (const [k, v] of old.restores) this.#restores.set(k, v);
      this.#pending = old.lines;
      this.#waiters = old.waiters;
      throw e;
    }
    // appends wait from here until the old data's last lines are in its log, its store aside and the
    // new data, `first` included, the new snapshot: that snapshot makes `first` durable, so its log
    // line is not written as well. An append of the old data under way ends in the old log first.
    const replacing = this.#adapter.replace(this.#db.data, suffix, old.lines);
    this.#pending = [];
    this.#pendingFiles = []; // the old data's restores: their files go with the named snapshots below
    await replacing.then(
      () => old.waiters.forEach((w) => w.resolve()),
      (e: unknown) => {
        old.waiters.forEach((w) => w.reject(e));
        throw e;
      },
    );
    // the named snapshots went with the old data (its catalog): their files go too
    await this.shelf.clear(shelved);
    return replacing;
  }

  async close(): Promise<void> {
    this.#idle.close();
    await this.idle();
    if (!this.#failed && this.#adapter.logBytes() > 0) await this.#compact();
    await this.#adapter.close();
  }

  stats(): { logBytes: number; snapshotBytes: number } {
    return { logBytes: this.#adapter.logBytes(), snapshotBytes: this.#adapter.snapshotBytes() };
  }

  async #drain(): Promise<void> {
    // a write under way is awaited to its end, never joined with a waiter of nothing: a waiter pushed
    // while the loop ends would make it start again, and again, without ever letting go (a livelock)
    while (this.#writing || this.#pending.length > 0) await (this.#writing ?? this.sync());
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
      const files = this.#pendingFiles;
      this.#pending = [];
      this.#waiters = [];
      this.#pendingFiles = [];
      try {
        await this.#adapter.append(lines);
        // the restores naming these files are in the log now: a compaction that begins from here on covers them
        for (const f of files) this.shelf.settle(f, this.#compactions);
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
    const running: Promise<void> = this.#compact().then(
      () => undefined,
      (e: unknown) => console.error('[pix-sandbox] compaction failed (the log keeps every change; it will be retried):', e),
    );
    this.#compacting = running;
    void running.then(() => {
      if (this.#compacting === running) this.#compacting = null;
    });
  }

  /** Low.write(), numbered: once it is done, no log names a file a restore before it named. */
  async #compact(): Promise<void> {
    const n = ++this.#compactions;
    await this.#db.write();
    await this.shelf.compacted(n);
  }

  #shouldCompact(): boolean {
    if (this.#compacting) return false;
    const log = this.#adapter.logBytes();
    return log > 64 * 1024 * 1024 || (log > 4 * 1024 * 1024 && log > 2 * this.#adapter.snapshotBytes());
  }
}
