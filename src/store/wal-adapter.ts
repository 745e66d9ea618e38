// A lowdb adapter that keeps the store as a JSON snapshot (`db.json`, written atomically by
// lowdb's TextFile) plus a write-ahead log beside it (`db.json.wal`, one JSON line per group
// commit). A commit appends only what changed, so its cost does not grow with the store;
// the snapshot is rewritten (compaction) at start-up and when the log outgrows it.
// Replaying the log is idempotent (each op carries the whole record), so a crash between
// writing a snapshot and truncating the log loses nothing and duplicates nothing.
import { open, rename, stat, readFile, type FileHandle } from 'node:fs/promises';
import { TextFile } from 'lowdb/node';
import type { Adapter } from 'lowdb';
import type { Data } from './model.js';
import { applyOp, type Op } from './ops.js';

export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot use the data file ${file}: ${reason}`);
  }
}

export interface LogAdapter extends Adapter<Data> {
  /** make one batch of ops durable */
  append(ops: readonly Op[]): Promise<void>;
  /** bytes appended since the last snapshot */
  logBytes(): number;
  snapshotBytes(): number;
  close(): Promise<void>;
}

export class WalAdapter implements LogAdapter {
  readonly walFile: string;
  #snapshot: TextFile;
  #wal: FileHandle | null = null;
  #logBytes = 0;
  #snapshotBytes = 0;

  constructor(
    readonly file: string,
    private readonly fsync = true,
  ) {
    this.walFile = `${file}.wal`;
    this.#snapshot = new TextFile(file);
  }

  async read(): Promise<Data | null> {
    const text = await this.#snapshot.read();
    let data: Data | null = null;
    if (text !== null) {
      try {
        data = JSON.parse(text) as Data;
      } catch (e) {
        throw new StoreFileError(this.file, `it is not valid JSON (${(e as Error).message})`);
      }
      if (!data || typeof data !== 'object' || !data.meta || typeof data.meta !== 'object') {
        throw new StoreFileError(this.file, 'it is not a pix-sandbox store (no "meta" object)');
      }
      this.#snapshotBytes = text.length;
    }
    const log = await readLog(this.walFile);
    if (log.length > 0 && data === null) {
      throw new StoreFileError(this.file, `it is missing while its log ${this.walFile} exists`);
    }
    if (data) for (const ops of log) for (const op of ops) applyOp(data, op);
    return data;
  }

  /** Compaction: a full snapshot, then an empty log. Callers make sure no append runs meanwhile. */
  async write(data: Data): Promise<void> {
    const text = JSON.stringify(data);
    await this.#snapshot.write(text);
    this.#snapshotBytes = text.length;
    const wal = await this.#handle();
    await wal.truncate(0);
    this.#logBytes = 0;
  }

  async append(ops: readonly Op[]): Promise<void> {
    if (ops.length === 0) return;
    const line = `${JSON.stringify(ops)}\n`;
    const wal = await this.#handle();
    await wal.write(line);
    if (this.fsync) await wal.datasync();
    this.#logBytes += line.length;
  }

  logBytes(): number {
    return this.#logBytes;
  }

  snapshotBytes(): number {
    return this.#snapshotBytes;
  }

  async close(): Promise<void> {
    await this.#wal?.close();
    this.#wal = null;
  }

  async #handle(): Promise<FileHandle> {
    this.#wal ??= await open(this.walFile, 'a');
    return this.#wal;
  }
}

/** Parses the log; a torn last line (a crash mid-append, never acknowledged) is dropped. */
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

/** Moves a data file (and its log) aside, as reset does before it starts afresh. */
export async function moveAside(file: string, suffix: string): Promise<string | null> {
  try {
    await stat(file);
  } catch {
    return null;
  }
  const target = `${file}.${suffix}.bak`;
  await rename(file, target);
  await rename(`${file}.wal`, `${target}.wal`).catch(() => undefined);
  return target;
}
