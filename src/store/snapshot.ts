// The snapshot file (db.json), written a record at a time so that a store of 100,000 transactions
// never needs its whole text in memory. It is in the log's own line format (data-file.ts):
//   {"pixSandbox":"snapshot","version":1,"covers":3}
//   [{"meta":"signingSecret","v":"…"},{"meta":"clockOffsetMs","v":0},…]
//   [{"c":"accounts","id":"<id>","v":{…}}]
//   … one line per record, each collection's records in creation order …
//   {"end":1234}
// `covers` is the number of the last log file the snapshot covers (see wal-adapter.ts).
import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { endLine, FILE_MODE, headerLine } from './data-file.js';
import type { StoreData } from './data.js';
import { COLLECTIONS, type Data, type Meta } from './model.js';
import type { Op } from './ops.js';
import { PackedCollection } from './packed.js';

/** A point-in-time copy of the store's contents, cheap to take (positions and references, never record copies). */
export interface SnapshotSource {
  meta: Meta;
  /** the number of the last rotated log the snapshot covers */
  wal: number;
  collections: { name: string; records: () => Iterable<[string, unknown]> }[];
}

/**
 * Captures `data` now, records in creation order: a packed collection's rows are copied (its
 * arena chunks are never written twice), a plain one's frozen records are listed.
 */
export function captureOf(data: StoreData, wal: number): SnapshotSource {
  const collections: SnapshotSource['collections'] = [];
  for (const name of COLLECTIONS) {
    const coll = data.collections[name];
    if (coll instanceof PackedCollection) {
      const c = coll.capture();
      collections.push({ name, records: () => c.records() });
    } else {
      const entries: [string, unknown][] = [];
      for (const r of coll.scan({ order: 'oldest' })) entries.push([r.id, r]);
      collections.push({ name, records: () => entries });
    }
  }
  return { meta: { ...data.meta }, wal, collections };
}

/**
 * The snapshot source of plain data (a store made by a tool, such as the bench's seed).
 * @public bench/lib/seed-db.mjs imports it from dist/, which knip cannot follow on a clean clone.
 */
export function sourceOf(data: Data, wal = 0): SnapshotSource {
  return { meta: data.meta, wal, collections: COLLECTIONS.map((name) => ({ name, records: () => Object.entries(data[name] ?? {}) })) };
}

const CHUNK = 1 << 20;

/**
 * Writes the snapshot to a temporary file beside `file` (readable by its owner only, from its
 * creation) and renames it over `file`: atomic, a crash leaves the old snapshot or the new one,
 * never a part. Yields to the event loop between chunks, so requests keep being served. Resolves
 * with the size written.
 */
export function writeSnapshot(file: string, src: SnapshotSource, fsync: boolean): Promise<number> {
  // the version is the header's: meta keeps it in memory only
  const { schemaVersion: _version, ...meta } = src.meta;
  const metaOps: Op[] = Object.entries(meta).map(([k, v]) => ({ meta: k as keyof Meta, v }));
  return writeLines(file, headerLine('snapshot', { covers: src.wal }), metaOps, src.collections, fsync);
}

/**
 * Writes a file of ops whole: its header, a line of meta ops (when there are any), one line per
 * record, its end line (writeWhole says where and how). Resolves with the size written.
 */
function writeLines(
  file: string,
  header: string,
  metaOps: Op[],
  collections: SnapshotSource['collections'],
  fsync: boolean,
): Promise<number> {
  return writeWhole(file, fsync, false, async (put) => {
    let chunk = header + (metaOps.length > 0 ? `${JSON.stringify(metaOps)}\n` : '');
    let lines = metaOps.length > 0 ? 1 : 0;
    for (const { name, records } of collections) {
      for (const [id, v] of records()) {
        chunk += `${JSON.stringify([{ c: name, id, v }])}\n`;
        lines++;
        if (chunk.length >= CHUNK) {
          await put(chunk);
          chunk = '';
        }
      }
    }
    await put(chunk + endLine(lines));
  });
}

/**
 * Writes a file whole from what `body` puts, a chunk at a time, to a temporary file beside `file`
 * (readable by its owner only, from its creation) renamed over `file` once synced: a crash leaves
 * the old file or the new one, never a part. With `durable`, the rename is synced too (the caller is
 * about to name the file in a change of its own). Resolves with the size written.
 */
export async function writeWhole(
  file: string,
  fsync: boolean,
  durable: boolean,
  body: (put: (chunk: string | Buffer) => Promise<void>) => Promise<void>,
): Promise<number> {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const fh: FileHandle = await open(tmp, 'wx', FILE_MODE);
  let bytes = 0;
  try {
    await body(async (chunk) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      await fh.write(buf);
      bytes += buf.length;
    });
    if (fsync) await fh.sync();
    await fh.close();
    await rename(tmp, file);
    if (fsync && durable) await syncFolder(path.dirname(file));
    return bytes;
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** Makes the folder's entries (a rename, a removal) durable. */
async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Whether a file name beside `base` is a snapshot's temporary file (left by a crash in the middle of a compaction). */
export const isSnapshotTemp = (name: string, base: string): boolean =>
  name.startsWith(`${base}.`) && /^[0-9a-f]{12}\.tmp$/.test(name.slice(base.length + 1));
