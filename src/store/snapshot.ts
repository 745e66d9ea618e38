// The snapshot file (db.json), written and read a record at a time so that a store of 100,000
// transactions never needs its whole text in memory at once. The file is ordinary JSON, laid out
// one record per line:
//   {"meta":{...},
//   "_wal":3,
//   "transactions":{
//   "<id>":{...},
//   "<id>":{...}
//   },
//   ...
//   }
// `_wal` is the number of the last log file the snapshot covers (see wal-adapter.ts). A file in
// any other layout (hand-made, pretty-printed, an older version's single line) is read whole.
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { StoreData } from './data.js';
import { COLLECTIONS, type Data, type Meta } from './model.js';
import { PackedCollection } from './packed.js';

/** A point-in-time copy of the store's contents, cheap to take (positions and references, never record copies). */
export interface SnapshotSource {
  meta: Meta;
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

/** The snapshot source of plain data (a store made by a tool, such as the bench's seed). */
export function sourceOf(data: Data, wal = 0): SnapshotSource {
  return { meta: data.meta, wal, collections: COLLECTIONS.map((name) => ({ name, records: () => Object.entries(data[name] ?? {}) })) };
}

const CHUNK = 1 << 20;
let tmpCounter = 0;

/**
 * Writes the snapshot to a temporary file beside `file` and renames it over `file` (atomic: a crash
 * leaves the old snapshot or the new one, never a part). Yields to the event loop between chunks,
 * so requests keep being served. Resolves with the size written.
 */
export async function writeSnapshot(file: string, src: SnapshotSource, fsync: boolean): Promise<number> {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  const fh: FileHandle = await open(tmp, 'w');
  let bytes = 0;
  try {
    let chunk = `{"meta":${JSON.stringify(src.meta)},\n"_wal":${src.wal},\n`;
    const flush = async (force = false) => {
      if (!force && chunk.length < CHUNK) return;
      const buf = Buffer.from(chunk, 'utf8');
      await fh.write(buf);
      bytes += buf.length;
      chunk = '';
    };
    for (let i = 0; i < src.collections.length; i++) {
      const c = src.collections[i]!;
      chunk += `${JSON.stringify(c.name)}:{`;
      let first = true;
      for (const [id, record] of c.records()) {
        chunk += `${first ? '\n' : ',\n'}${JSON.stringify(id)}:${JSON.stringify(record)}`;
        first = false;
        await flush();
      }
      chunk += `\n}${i === src.collections.length - 1 ? '' : ','}\n`;
    }
    if (src.collections.length === 0) chunk = chunk.replace(/,\n$/, '\n');
    chunk += '}\n';
    await flush(true);
    if (fsync) await fh.sync();
    await fh.close();
    await rename(tmp, file);
    return bytes;
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** Receives what a snapshot holds, a record at a time. */
export interface SnapshotSink {
  meta(meta: Meta): void;
  record(collection: string, id: string, value: unknown): void;
  /** forget everything received (the line reader gave up; the whole file is read again) */
  reset(): void;
}

export class SnapshotFormatError extends Error {}

/** Not our one-record-per-line layout after all (a file edited by hand): read it whole instead. */
class LayoutMismatch extends Error {}

const META_LINE = /^\{"meta":(.*),$/;
const WAL_LINE = /^"_wal":(\d+),$/;
const OPEN_LINE = /^("(?:[^"\\]|\\.)*"):\{$/;

/**
 * Reads the snapshot into `sink`. Resolves with null when there is no file, else with what the
 * file says about the log and its size. Throws SnapshotFormatError for a file that is not JSON.
 */
export async function readSnapshot(
  file: string,
  sink: SnapshotSink,
): Promise<{ wal: number; bytes: number; layout: 'lines' | 'whole' } | null> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const size = (await fh.stat()).size;
    try {
      const wal = await readLines(fh, sink);
      return { wal, bytes: size, layout: 'lines' };
    } catch (e) {
      if (!(e instanceof LayoutMismatch)) throw e;
    }
    sink.reset();
    const text = (await fh.readFile({ encoding: 'utf8' })) || '';
    return { wal: readWhole(text, sink), bytes: size, layout: 'whole' };
  } finally {
    await fh.close();
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new SnapshotFormatError(`it is not valid JSON (${(e as Error).message})`);
  }
}

function readWhole(text: string, sink: SnapshotSink): number {
  const data = parse(text) as Record<string, unknown> | null;
  if (!data || typeof data !== 'object' || Array.isArray(data) || !data.meta || typeof data.meta !== 'object') {
    throw new SnapshotFormatError('it is not a pix-sandbox store (no "meta" object)');
  }
  sink.meta(data.meta as Meta);
  for (const [name, coll] of Object.entries(data)) {
    if (name === 'meta' || name === '_wal' || !coll || typeof coll !== 'object') continue;
    for (const [id, value] of Object.entries(coll as Record<string, unknown>)) sink.record(name, id, value);
  }
  return typeof data._wal === 'number' ? data._wal : 0;
}

/** The one-record-per-line layout; LayoutMismatch at the first line that does not fit it. */
async function readLines(fh: FileHandle, sink: SnapshotSink): Promise<number> {
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(CHUNK);
  let rest = '';
  let lineNo = 0;
  let wal = 0;
  let collection: string | null = null;
  let closed = false;
  const line = (l: string) => {
    lineNo++;
    if (closed) {
      if (l !== '') throw new LayoutMismatch();
      return;
    }
    if (lineNo === 1) {
      const m = META_LINE.exec(l);
      if (!m) throw new LayoutMismatch();
      let meta: unknown;
      try {
        meta = JSON.parse(m[1]!);
      } catch {
        throw new LayoutMismatch();
      }
      if (!meta || typeof meta !== 'object') throw new LayoutMismatch();
      sink.meta(meta as Meta);
      return;
    }
    if (collection === null) {
      const w = lineNo === 2 ? WAL_LINE.exec(l) : null;
      if (w) {
        wal = Number(w[1]);
        return;
      }
      if (l === '}') {
        closed = true;
        return;
      }
      const o = OPEN_LINE.exec(l);
      if (!o) throw new LayoutMismatch();
      collection = JSON.parse(o[1]!) as string;
      return;
    }
    if (l === '}' || l === '},') {
      collection = null;
      return;
    }
    const body = l.endsWith(',') ? l.slice(0, -1) : l;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(`{${body}}`) as Record<string, unknown>;
    } catch {
      throw new LayoutMismatch();
    }
    const keys = Object.keys(entry);
    if (keys.length !== 1) throw new LayoutMismatch();
    sink.record(collection, keys[0]!, entry[keys[0]!]);
  };
  let position = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const text = rest + decoder.write(buf.subarray(0, bytesRead));
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      line(text.slice(start, nl));
      start = nl + 1;
    }
    rest = text.slice(start);
    // a first line longer than a chunk is not ours (ours is short): read the file whole instead
    if (lineNo === 0 && rest.length > CHUNK) throw new LayoutMismatch();
  }
  rest += decoder.end();
  if (rest !== '') line(rest);
  if (!closed) throw new LayoutMismatch();
  return wal;
}
