// The lowdb adapter of the store: lowdb's Low holds the data in memory (db.data) and calls read()
// to open the store and write() to compact it. On disk the store is a JSON snapshot (`db.json`,
// one record per line, see snapshot.ts) plus a write-ahead log beside it (`db.json.wal`, one JSON
// line per group commit, written by append()). A commit appends only what changed, so its cost
// does not grow with the store.
//
// read() streams the snapshot into fresh collections a record at a time (the store is never held
// twice over), then replays the logs the snapshot does not cover: rotated ones by number, then
// the current one. Replaying is idempotent (each op carries the whole record); a torn last line
// (a crash in the middle of an append that was never acknowledged) is dropped.
//
// write() (compaction: at open when there was a log, when the log outgrows the snapshot, at close,
// at reset) never holds up commits: at one instant it captures the data and rotates the log
// (`db.json.wal` → `db.json.wal.<k>`; appends wait for the rename, then go to a new `db.json.wal`),
// then streams the snapshot to a temporary file and renames it over db.json with `"_wal": k`: it
// covers logs up to k, which are then deleted. A crash at any point leaves either the old snapshot
// with every log after it, or the new one with the logs after it: never a replay of changes older
// than the snapshot on top of it.
import { open, readdir, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { StoreData } from './data.js';
import type { Meta } from './model.js';
import { replayOp, type Op } from './ops.js';
import { captureOf, readSnapshot, SnapshotFormatError, writeSnapshot, type SnapshotSink } from './snapshot.js';

export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot use the data file ${file}: ${reason}`);
  }
}

export interface LogAdapter extends Adapter<StoreData> {
  /** set by read(): the store should be compacted once open (a log was replayed, or there was no snapshot) */
  readonly compactAtOpen: boolean;
  /** makes changes durable: each a JSON array of ops; one call, one log line */
  append(batches: readonly string[]): Promise<void>;
  /** bytes appended since the last rotation */
  logBytes(): number;
  snapshotBytes(): number;
  /** waits for a compaction under way and releases the log file (before files are moved aside) */
  quiesce(): Promise<void>;
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
  quiesce = () => Promise.resolve();
  close = () => Promise.resolve();
}

/** The adapter of each open data file, so that moving the file aside can first let it settle. */
const adapters = new Map<string, WalAdapter>();

export class WalAdapter implements LogAdapter {
  readonly walFile: string;
  compactAtOpen = false;
  #wal: FileHandle | null = null;
  #logBytes = 0;
  #snapshotBytes = 0;
  /** number of the last rotated log */
  #gen = 0;
  #compaction: Promise<void> | null = null;
  /** a log rotation under way: appends wait for it */
  #rotation: Promise<void> | null = null;
  #appending: Promise<void> | null = null;

  constructor(
    readonly file: string,
    private readonly fsync = true,
  ) {
    this.walFile = `${file}.wal`;
  }

  /** Low.read(): the store as the snapshot and the logs after it make it; null when there is no store yet. */
  async read(): Promise<StoreData | null> {
    let data: StoreData | null = null;
    const sink: SnapshotSink = {
      meta: (meta: Meta) => {
        data = new StoreData(meta);
      },
      record: (c, id, value) => data?.load(c as never, id, value),
      reset: () => {
        data = null;
      },
    };
    let snap: Awaited<ReturnType<typeof readSnapshot>>;
    try {
      snap = await readSnapshot(this.file, sink);
    } catch (e) {
      if (e instanceof SnapshotFormatError) throw new StoreFileError(this.file, e.message);
      throw e;
    }
    const rotated = await rotatedLogs(this.walFile);
    const covered = snap?.wal ?? 0;
    const logs = [...rotated.filter((r) => r.n > covered).map((r) => r.file), this.walFile];
    let logged = rotated.length > 0;
    for (const log of logs) {
      const batches = await readLog(log);
      if (batches.length > 0 || (await sizeOf(log)) > 0) logged = true;
      if (batches.length > 0 && !data) throw new StoreFileError(this.file, `it is missing while its log ${log} exists`);
      for (const ops of batches) for (const op of ops) replayOp(data!, op);
    }
    this.#gen = Math.max(covered, ...rotated.map((r) => r.n));
    this.#snapshotBytes = snap?.bytes ?? 0;
    this.compactAtOpen = !snap || snap.layout === 'whole' || logged;
    return data;
  }

  /**
   * Low.write(): compaction. The capture and the start of the rotation happen in one synchronous
   * step (no append of a later change can reach the rotated log); the rest runs beside the appends.
   */
  async write(data: StoreData): Promise<void> {
    while (this.#compaction) await this.#compaction; // one at a time
    adapters.set(path.resolve(this.file), this); // the adapter that writes this file (a reader only reads)
    const k = ++this.#gen;
    const source = captureOf(data, k);
    const rotation = this.#rotate(k);
    this.#rotation = rotation;
    const done = (async () => {
      await rotation;
      this.#snapshotBytes = await writeSnapshot(this.file, source, this.fsync);
      for (const r of await rotatedLogs(this.walFile)) if (r.n <= k) await unlink(r.file).catch(() => undefined);
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

  /** From here on appends go to a new log; the rotated one is covered by the snapshot being written. */
  async #rotate(k: number): Promise<void> {
    await this.#appending; // its lines are of changes the capture already holds
    await this.#wal?.close();
    this.#wal = null;
    await rename(this.walFile, `${this.walFile}.${k}`).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
    this.#logBytes = 0;
    await this.#handle(); // the new, empty log exists from now on
  }

  /** `batches` are JSON arrays of ops (one per change); one append writes them as one line. */
  async append(batches: readonly string[]): Promise<void> {
    if (batches.length === 0) return;
    await this.#rotation;
    const text = batches.length === 1 ? `${batches[0]}\n` : `[${batches.map((b) => b.slice(1, -1)).join(',')}]\n`;
    const write = (async () => {
      const wal = await this.#handle();
      await wal.write(text);
      if (this.fsync) await wal.datasync();
    })();
    this.#appending = write.catch(() => undefined);
    await write;
    this.#logBytes += text.length;
  }

  logBytes(): number {
    return this.#logBytes;
  }

  snapshotBytes(): number {
    return this.#snapshotBytes;
  }

  async quiesce(): Promise<void> {
    await this.#compaction;
    await this.#wal?.close();
    this.#wal = null;
  }

  async close(): Promise<void> {
    await this.quiesce();
    if (adapters.get(path.resolve(this.file)) === this) adapters.delete(path.resolve(this.file));
  }

  async #handle(): Promise<FileHandle> {
    this.#wal ??= await open(this.walFile, 'a');
    return this.#wal;
  }
}

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

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

/** Parses a log; a torn last line (a crash mid-append, never acknowledged) is dropped. */
async function readLog(file: string): Promise<Op[][]> {
  let text: string;
  try {
    text = await readFile(file, 'utf-8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const lines = text.split('\n');
  const batches: Op[][] = [];
  lines.forEach((line, i) => {
    if (line === '') return;
    try {
      batches.push(JSON.parse(line) as Op[]);
    } catch {
      const last = i === lines.length - 1;
      if (!last) throw new StoreFileError(file, `line ${i + 1} of the log is not valid JSON`);
    }
  });
  return batches;
}

/** Moves a data file (and its logs) aside, as reset does before it starts afresh. */
export async function moveAside(file: string, suffix: string): Promise<string | null> {
  await adapters.get(path.resolve(file))?.quiesce();
  try {
    await stat(file);
  } catch {
    return null;
  }
  const target = `${file}.${suffix}.bak`;
  await rename(file, target);
  const wal = `${file}.wal`;
  for (const log of [wal, ...(await rotatedLogs(wal)).map((r) => r.file)])
    await rename(log, `${target}${path.basename(log).slice(path.basename(file).length)}`).catch(() => undefined);
  return target;
}
