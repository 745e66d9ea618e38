// Named snapshots where they are kept (docs/store.md#named-snapshots): each in a file of the data
// folder's snapshots/ (its records as the store packs them: saved-file.ts; a file written before
// format version 3 is JSON lines, one record a line, and is read here), written whole and made
// durable before the catalog names it; and, while the sandbox
// runs, as an image in memory (image.ts), from which a restore puts a scope back by changing only
// what differs. An in-memory sandbox keeps the images only. The file of a snapshot that was replaced
// or deleted goes only once nothing can need it again: the change that stopped naming it is durable,
// and no log that a restart would replay names it in a restore (a compaction that began after that
// restore was durable covers it).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { readDataFile, StoreFileError, type Header } from './data-file.js';
import { FOLDER_MODE } from './data-folder.js';
import type { Image } from './image.js';
import type { CollectionName, Stored } from './model.js';
import { readSavedFile, writeSavedFile, type SavedHeader } from './saved-file.js';

/** The folder of named snapshots, beside db.json. */
export const SNAPSHOTS_FOLDER = 'snapshots';
/** Images of a file-backed sandbox kept in memory beyond this are dropped, oldest used first (read again from their file when needed). */
const IMAGE_BUDGET_BYTES = 128 << 20;

/** The records of a saved file, in file order: packed (saved-file.ts), or JSON lines (written before format version 3). */
export async function readSaved(file: string): Promise<{ header: SavedHeader; records: [CollectionName, Stored][] }> {
  const packed = await readSavedFile(file);
  if (packed) return { header: savedHeader(packed.header), records: packed.records };
  const records: [CollectionName, Stored][] = [];
  let header: Header | null = null;
  const read = await readDataFile(file, 'saved', (ops, h) => {
    header = h;
    for (const op of ops) {
      if (!('c' in op) || !('v' in op)) throw new Error('a named snapshot holds records only');
      records.push([op.c, op.v as Stored]);
    }
  });
  if (!read) throw new StoreFileError(file, 'it is missing');
  return { header: savedHeader((header ?? read.header)!), records };
}

const savedHeader = (h: Header): SavedHeader => ({ name: h.name!, accountId: h.accountId ?? null, sandboxMs: h.sandboxMs! });

export class Shelf {
  /** the snapshots/ folder; null: an in-memory sandbox, whose snapshots are their images */
  readonly dir: string | null;
  readonly #fsync: boolean;
  /** by file name (an in-memory sandbox's: the key it would have), in order of last use */
  readonly #images = new Map<string, Image>();
  #imageBytes = 0;
  /** files a restore named: kept while a change naming them may be replayed (threshold: see settle) */
  readonly #pins = new Map<string, number>();
  /** files the catalog stopped naming in a durable change, waiting for their pins to go */
  readonly #retired = new Set<string>();

  constructor(dir: string | null, fsync: boolean) {
    this.dir = dir;
    this.#fsync = fsync;
  }

  /**
   * A new file name for the snapshot `name`, never one in use (a replaced snapshot's file may still be
   * needed); in an in-memory sandbox, the key of its image.
   */
  newFile(name: string): string {
    return `${name}.${randomBytes(6).toString('hex')}.snap`;
  }

  /**
   * Keeps the image, and writes it to `file` (when on disk) durably: the file and its name are on disk
   * when this resolves. Resolves with the bytes the snapshot takes (its file, or its image in memory).
   */
  async save(header: SavedHeader, file: string, image: Image): Promise<number> {
    let bytes = image.packedBytes;
    if (this.dir !== null) {
      await mkdir(this.dir, { recursive: true, mode: FOLDER_MODE });
      bytes = await writeSavedFile(path.join(this.dir, file), header, image, this.#fsync);
    }
    this.#keep(file, image);
    return bytes;
  }

  /** The snapshot's image, from memory, or read again from its file (null when it has neither). */
  async image(file: string, build: (records: [CollectionName, Stored][]) => Image): Promise<Image | null> {
    const kept = this.#images.get(file);
    if (kept) {
      this.#images.delete(file);
      this.#images.set(file, kept); // most recently used last
      return kept;
    }
    if (this.dir === null) return null;
    const image = build((await readSaved(path.join(this.dir, file))).records);
    this.#keep(file, image);
    return image;
  }

  #keep(key: string, image: Image): void {
    const old = this.#images.get(key);
    if (old) this.#imageBytes -= old.packedBytes;
    this.#images.delete(key);
    this.#images.set(key, image);
    this.#imageBytes += image.packedBytes;
    if (this.dir === null) return; // in memory, the image is the snapshot
    for (const [k, im] of this.#images) {
      if (this.#imageBytes <= IMAGE_BUDGET_BYTES || k === key) break;
      this.#images.delete(k);
      this.#imageBytes -= im.packedBytes;
    }
  }

  /** Forgets a snapshot the catalog no longer names (deleted, replaced) once that change is durable; its file goes when no restore needs it. */
  async retire(file: string): Promise<void> {
    const image = this.#images.get(file);
    if (image) {
      this.#images.delete(file);
      this.#imageBytes -= image.packedBytes;
    }
    if (this.dir === null) return;
    this.#retired.add(file);
    await this.collect();
  }

  /** A restore names `file` in a change not yet durable: nothing may remove it. */
  pin(file: string): void {
    this.#pins.set(file, Infinity);
  }

  /** That change is durable: the file is needed until a compaction that begins after compaction number `begun` is done. */
  settle(file: string, begun: number): void {
    if (this.#pins.get(file) === Infinity) this.#pins.set(file, begun);
  }

  /** A pinned change was not made after all (it threw). */
  unpin(file: string): void {
    if (this.#pins.get(file) === Infinity) this.#pins.delete(file);
  }

  /** Compaction number `n` is done: every change before it began is in db.json, no log names its files. */
  async compacted(n: number): Promise<void> {
    for (const [file, threshold] of this.#pins) if (threshold < n) this.#pins.delete(file);
    await this.collect();
  }

  /** Removes the retired files nothing pins. */
  async collect(): Promise<void> {
    if (this.dir === null) return;
    for (const file of [...this.#retired]) {
      if (this.#pins.has(file)) continue;
      this.#retired.delete(file);
      await unlink(path.join(this.dir, file)).catch(() => undefined);
    }
  }

  /**
   * At open, once the logs are compacted away (nothing pins a file): removes every file the catalog
   * does not name (a save that crashed before its change was durable, a retired file a crash left).
   * Returns the catalog's files that are missing.
   */
  async tidy(named: ReadonlySet<string>): Promise<string[]> {
    if (this.dir === null) return [];
    const present = new Set(await readdir(this.dir).catch(() => [] as string[]));
    for (const f of present) if (!named.has(f)) await unlink(path.join(this.dir, f)).catch(() => undefined);
    return [...named].filter((f) => !present.has(f));
  }

  /**
   * A whole-sandbox reset, once its fresh store is durable: the old catalog's files go, with every file
   * retired or pinned for the old data's logs. Named, not listed from the folder: a snapshot saved since
   * the reset, its file written while this runs, stays.
   */
  async clear(catalog: readonly string[]): Promise<void> {
    const gone = new Set([...catalog, ...this.#retired, ...this.#pins.keys()]);
    this.#pins.clear();
    this.#retired.clear();
    for (const file of gone) {
      const image = this.#images.get(file);
      if (image) this.#imageBytes -= image.packedBytes;
      this.#images.delete(file);
    }
    if (this.dir === null) return;
    for (const file of gone) await unlink(path.join(this.dir, file)).catch(() => undefined);
  }
}
