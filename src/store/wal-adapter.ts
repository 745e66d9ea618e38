// The lowdb adapter of the store: lowdb's Low holds the data in memory (db.data) and calls read()
// to open the store and write() to compact it. On disk the store is a snapshot (`db.json`, see
// snapshot.ts) plus a write-ahead log beside it (`db.json.wal`, one line of ops per group commit,
// written by append()), both in one line format read by one reader (data-file.ts). A commit
// appends only what changed, so its cost does not grow with the store.
//
// read() streams the snapshot into fresh collections a record at a time (the store is never held
// twice over), then replays the logs the snapshot does not cover: rotated ones by number, then
// the current one. Replaying is idempotent (each op carries the whole record).
//
// write() (compaction: at open when there was a log, when the log outgrows the snapshot, at close)
// never holds up commits: at one instant it captures the data and rotates the log
// (`db.json.wal` → `db.json.wal.<k>`; appends wait for the rename, then go to a new `db.json.wal`),
// then streams the snapshot to a temporary file and renames it over db.json, its header saying it
// covers logs up to k, which are then deleted. A crash at any point leaves either the old snapshot
// with every log after it, or the new one with the logs after it: never a replay of changes older
// than the snapshot on top of it.
import { constants } from 'node:fs';
import { copyFile, link, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { FILE_MODE, headerLine, readDataFile, StoreFileError, type FileRead } from './data-file.js';
import { StoreData } from './data.js';
import { emptyData, SCHEMA_VERSION } from './model.js';
import { replayOp, type Op } from './ops.js';
import { replayRestore } from './restore.js';
import { captureOf, isSnapshotTemp, writeSnapshot } from './snapshot.js';

export interface LogAdapter extends Adapter<StoreData> {
  /** set by read(): the store should be compacted once open (a log was replayed, there was no snapshot, or an older format) */
  readonly compactAtOpen: boolean;
  /** makes changes durable: each a JSON array of ops; one call, one log line */
  append(batches: readonly string[]): Promise<void>;
  /** bytes appended since the last rotation */
  logBytes(): number;
  snapshotBytes(): number;
  /**
   * Reset: from this call on, appends wait; `last` (the old data's changes not yet appended) goes at
   * the end of the log, the old store is kept as `<file>.<suffix>.bak`, `data` (captured at the call)
   * becomes the snapshot, and appends go on to a new log. Resolves with the kept name, or null when
   * there was no file.
   */
  replace(data: StoreData, suffix: string, last: readonly string[]): Promise<string | null>;
  /** waits for a compaction under way and releases the log file */
  close(): Promise<void>;
}

/** The in-memory store's adapter: nothing to read, nothing to write. */
export class MemoryAdapter implements LogAdapter {
  readonly compactAtOpen = false;
  read = () => Promise.resolve(null);
  write = () => Promise.resolve();
  append = () => Promise.resolve();
  logBytes = () => 0;
  snapshotBytes = () => 0;
  replace = () => Promise.resolve(null);
  close = () => Promise.resolve();
}

export class WalAdapter implements LogAdapter {
  readonly walFile: string;
  compactAtOpen = false;
  #wal: FileHandle | null = null;
  #logBytes = 0;
  #snapshotBytes = 0;
  /** number of the last rotated log */
  #gen = 0;
  #compaction: Promise<void> | null = null;
  /** the last step that closes or moves the log (a rotation, a reset, a close): appends wait for it (#gate) */
  #rotation: Promise<void> | null = null;
  /** the append under way (at most one: the store's write loop sends them one at a time) */
  #appending: Promise<void> | null = null;
  /** the temporary files an earlier process left are removed by this adapter's first compaction */
  #tidied = false;

  constructor(
    readonly file: string,
    private readonly fsync = true,
  ) {
    this.walFile = `${file}.wal`;
  }

  /** Low.read(): the store as the snapshot and the logs after it make it; null when there is no store yet. */
  async read(): Promise<StoreData | null> {
    // the snapshot's meta line fills in the meta; a store without a snapshot is a new one
    const data = new StoreData(emptyData('', '').meta);
    // a line's ops in order; a restore among them reads its records from where it names (asynchronously)
    const replayFrom = (ops: Op[], from: number): Promise<void> | undefined => {
      for (let i = from; i < ops.length; i++) {
        const op = ops[i]!;
        if ('restore' in op) return replayRestore(data, op.restore, this.file).then(() => replayFrom(ops, i + 1));
        replayOp(data, op);
      }
      return undefined;
    };
    const replay = (ops: Op[]) => replayFrom(ops, 0);
    const snap = await readDataFile(this.file, 'snapshot', replay);
    if (snap && !data.meta.signingSecret) throw new StoreFileError(this.file, 'it holds no meta line');
    const rotated = await rotatedLogs(this.walFile);
    const covered = snap?.header?.covers ?? 0;
    const reads: FileRead[] = snap ? [snap] : [];
    for (const log of [...rotated.filter((r) => r.n > covered).map((r) => r.file), this.walFile]) {
      const read = await readDataFile(log, 'log', replay);
      if (!read) continue;
      if (!snap && read.lines > 0) throw new StoreFileError(this.file, `it is missing while its log ${log} exists`);
      reads.push(read);
    }
    this.#gen = Math.max(covered, ...rotated.map((r) => r.n));
    this.#snapshotBytes = snap?.bytes ?? 0;
    // a log replayed (or torn) goes into a fresh snapshot, and a file of an earlier format is rewritten in this one
    this.compactAtOpen =
      !snap ||
      rotated.length > 0 ||
      reads.some((r) => (r !== snap && (r.lines > 0 || r.dropped)) || (r.header !== null && r.header.version < SCHEMA_VERSION));
    return snap ? data : null;
  }

  /**
   * Low.write(): compaction. The capture and the start of the rotation happen in one synchronous
   * step (no append of a later change can reach the rotated log); the rest runs beside the appends.
   */
  async write(data: StoreData): Promise<void> {
    while (this.#compaction) await this.#compaction; // one at a time
    const k = ++this.#gen;
    const source = captureOf(data, k);
    const rotation = this.#gate(() => this.#rotate(k));
    const done = (async () => {
      await rotation;
      this.#snapshotBytes = await writeSnapshot(this.file, source, this.fsync);
      for (const r of await rotatedLogs(this.walFile)) if (r.n <= k) await unlink(r.file).catch(() => undefined);
      if (!this.#tidied) await this.#removeTemporaries();
    })();
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.#compaction = settled;
    void settled.then(() => {
      if (this.#compaction === settled) this.#compaction = null;
    });
    await done;
  }

  /**
   * Runs `step` once the append under way and the step before are done, and makes every later append
   * wait for it: a step that closes or moves the log never closes it under an append (a write to a
   * closed handle fails, and a failed append fails the store), and no append lands in a moved file.
   * Set synchronously, in the caller's step: an append that begins after this call waits.
   */
  #gate(step: () => Promise<void>): Promise<void> {
    // a step that failed fails the appends behind it (the store then refuses changes), not the steps
    const before = Promise.all([this.#rotation?.catch(() => undefined), this.#appending]);
    const gate = before.then(step);
    this.#rotation = gate;
    return gate;
  }

  /** Closes the log (its lines are of changes a capture taken before the gate already holds). */
  async #closeLog(): Promise<void> {
    await this.#wal?.close();
    this.#wal = null;
  }

  /** From here on appends go to a new log; the rotated one is covered by the snapshot being written. */
  async #rotate(k: number): Promise<void> {
    await this.#closeLog();
    await rename(this.walFile, `${this.walFile}.${k}`).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    this.#logBytes = 0;
    await this.#handle(); // the new, empty log exists from now on
  }

  /** `batches` are JSON arrays of ops (one per change); one append writes them as one line. */
  async append(batches: readonly string[]): Promise<void> {
    if (batches.length === 0) return;
    // the gate is read and the append registered in one step: a gate set later waits for this append
    const rotation = this.#rotation;
    const write = rotation ? rotation.then(() => this.#write(batches)) : this.#write(batches);
    this.#appending = write.catch(() => undefined);
    await write;
  }

  /** One line of `batches` at the end of the log, durable when this resolves. */
  async #write(batches: readonly string[]): Promise<void> {
    const text = batches.length === 1 ? `${batches[0]}\n` : `[${batches.map((b) => b.slice(1, -1)).join(',')}]\n`;
    const wal = await this.#handle();
    await wal.write(text);
    if (this.fsync) await wal.datasync();
    this.#logBytes += text.length;
  }

  logBytes(): number {
    return this.#logBytes;
  }

  snapshotBytes(): number {
    return this.#snapshotBytes;
  }

  replace(data: StoreData, suffix: string, last: readonly string[]): Promise<string | null> {
    const k = ++this.#gen;
    const source = captureOf(data, k);
    const compaction = this.#compaction; // its snapshot would land over the kept file's name
    let kept: string | null = null;
    const replaced = this.#gate(async () => {
      await compaction;
      if (last.length > 0) await this.#write(last); // the old data's last changes go with it
      await this.#rotate(k);
      kept = await this.#keepAside(suffix, k);
      // the one step from the old store to the new: a snapshot covering every old log, renamed over db.json
      this.#snapshotBytes = await writeSnapshot(this.file, source, this.fsync);
      for (const r of await rotatedLogs(this.walFile)) if (r.n <= k) await unlink(r.file).catch(() => undefined);
    });
    return replaced.then(() => kept);
  }

  /**
   * Keeps the old store (db.json and its logs up to `k`, all rotated) as `<file>.<suffix>.bak` and its
   * logs, under a name no file has yet (two resets in one millisecond keep both); null when there was
   * no snapshot. Hard links (a copy where the file system has none): the old store stays whole at its
   * own names until the new snapshot replaces it, so a crash leaves one store or the other.
   */
  async #keepAside(suffix: string, k: number): Promise<string | null> {
    if (!(await exists(this.file))) return null;
    let target = `${this.file}.${suffix}.bak`;
    for (let n = 2; await exists(target); n++) target = `${this.file}.${suffix}-${n}.bak`;
    const keep = (from: string, to: string) => link(from, to).catch(() => copyFile(from, to, constants.COPYFILE_EXCL));
    for (const r of await rotatedLogs(this.walFile)) if (r.n <= k) await keep(r.file, `${target}.wal.${r.n}`);
    await keep(this.file, target);
    return target;
  }

  async close(): Promise<void> {
    const compaction = this.#compaction;
    await this.#gate(async () => {
      await compaction;
      await this.#closeLog();
    });
  }

  /** The log, opened for appending (readable by its owner only); a new one starts with its header. */
  async #handle(): Promise<FileHandle> {
    if (this.#wal) return this.#wal;
    const wal = await open(this.walFile, 'a', FILE_MODE);
    if ((await wal.stat()).size === 0) {
      const header = headerLine('log');
      await wal.write(header);
      this.#logBytes += header.length;
    }
    return (this.#wal = wal);
  }

  /** The snapshots' temporary files a crash in the middle of a compaction left behind (compactions here run one at a time). */
  async #removeTemporaries(): Promise<void> {
    this.#tidied = true;
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    for (const name of await readdir(dir).catch(() => [] as string[]))
      if (isSnapshotTemp(name, base)) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

/** The rotated logs beside `walFile` (`<walFile>.<k>`), oldest first. */
async function rotatedLogs(walFile: string): Promise<{ n: number; file: string }[]> {
  const dir = path.dirname(walFile);
  const base = `${path.basename(walFile)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((f) => f.startsWith(base) && /^\d+$/.test(f.slice(base.length)))
    .map((f) => ({ n: Number(f.slice(base.length)), file: path.join(dir, f) }))
    .sort((a, b) => a.n - b.n);
}
