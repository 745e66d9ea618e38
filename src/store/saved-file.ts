// A named snapshot's file as this build writes it (format version 3, docs/store.md#named-snapshots):
// the records as the store packs them, written as the image holds them, never decoded on the way.
//   {"pixSandbox":"saved","version":3,"name":"…","accountId":"…","sandboxMs":…}     the header
//   [{"c":"accounts","id":"…","v":{…}}]          one line per record of a plain collection, as in any data file
//   {"tables":{"shapes":[[ix,[keys]],…],"strings":[[ix,"…"],…]}}   the codec's entries those bytes refer to
//   {"packed":"transactions","records":n,"bytes":m}   then n entry ends (32-bit, little-endian), the m
//                                                     bytes of the entries one after another, and "\n"
//   …
//   {"end":<records>}                            the records the file holds: a copy cut short is refused
// A packed value means something only beside the tables that made it: the file keeps the entries of
// them its records use, under their own indexes, and a reader decodes the records with those (the
// store that reads them packs them again with its own codec). Files of an earlier version (JSON
// lines, one record a line) are read by saved.ts's line reader.
import { readFile } from 'node:fs/promises';
import { PackedReader } from './codec-read.js';
import type { Tables } from './codec-format.js';
import { checkHeader, endLine, headerLine, StoreFileError, type Header } from './data-file.js';
import { isPacked, type Image } from './image.js';
import { COLLECTIONS, type CollectionName, type Stored } from './model.js';
import { writeWhole } from './snapshot.js';

/** The first format version whose saved files are packed (this file's); earlier ones are JSON lines. */
const PACKED_SINCE = 3;

/** What a saved file's header says besides its kind and version. */
export interface SavedHeader {
  name: string;
  accountId: string | null;
  /** the sandbox-wide clock when it was taken */
  sandboxMs: number;
}

/** Writes the image to `file`, durably (the file and its name are on disk when this resolves); resolves with its size. */
export function writeSavedFile(file: string, header: SavedHeader, image: Image, fsync: boolean): Promise<number> {
  return writeWhole(file, fsync, true, async (put) => {
    const packed = image.parts.filter(isPacked);
    let records = 0;
    let text = headerLine('saved', header);
    for (const part of image.parts) {
      if (isPacked(part)) continue;
      for (const v of part.records) text += `${JSON.stringify([{ c: part.c, id: v.id, v }])}\n`;
      records += part.records.length;
    }
    text += `${JSON.stringify({ tables: image.codec.tablesOf(packed.map((p) => p.bytes)) })}\n`;
    await put(text);
    for (const part of packed) {
      const ends = Buffer.allocUnsafe(4 * part.ends.length);
      part.ends.forEach((end, i) => ends.writeUInt32LE(end, 4 * i));
      const line = `${JSON.stringify({ packed: part.c, records: part.ends.length, bytes: part.bytes.length })}\n`;
      await put(Buffer.concat([Buffer.from(line), ends, part.bytes, NEWLINE]));
      records += part.ends.length;
    }
    await put(endLine(records));
  });
}

const NEWLINE = Buffer.from('\n');
const isCollection = (c: unknown): c is CollectionName => COLLECTIONS.includes(c as CollectionName);

/**
 * The header and records of a saved file of this format, in file order; null for a file of an
 * earlier version (JSON lines: saved.ts reads those). What refuses it (StoreFileError, naming it):
 * what refuses any data file's header, a line or a block that does not parse, a table entry or a
 * collection it lacks, and a file without its end line or with anything after it.
 */
export async function readSavedFile(file: string): Promise<{ header: Header; records: [CollectionName, Stored][] } | null> {
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new StoreFileError(file, 'it is missing');
    throw e;
  }
  let at = 0;
  let lineNo = 0;
  const refuse = (reason: string) => new StoreFileError(file, `line ${lineNo}: ${reason}`);
  const line = (): unknown => {
    const nl = buf.indexOf(10, at);
    lineNo++;
    if (nl < 0) throw refuse('it ends without its end line (cut short?)');
    const text = buf.toString('utf8', at, nl);
    at = nl + 1;
    try {
      return JSON.parse(text);
    } catch {
      throw refuse('not valid JSON');
    }
  };
  const header = checkHeader(file, 'saved', line());
  if (header.version < PACKED_SINCE) return null;
  const tables: Tables = { shapes: [], strings: [] };
  const reader = new PackedReader(tables);
  const records: [CollectionName, Stored][] = [];
  for (;;) {
    const v = line() as Record<string, unknown> | unknown[] | null;
    if (Array.isArray(v)) {
      for (const op of v as { c?: unknown; v?: unknown }[]) {
        if (!isCollection(op?.c) || !op.v) throw refuse('a named snapshot holds records only');
        records.push([op.c, op.v as Stored]);
      }
    } else if (v && typeof v === 'object' && 'tables' in v) {
      const t = v.tables as { shapes: [number, string[]][]; strings: [number, string][] };
      for (const [ix, keys] of t.shapes) tables.shapes[ix] = keys;
      for (const [ix, s] of t.strings) tables.strings[ix] = s;
    } else if (v && typeof v === 'object' && 'packed' in v) {
      const { packed: c, records: n, bytes: size } = v as { packed: unknown; records: number; bytes: number };
      if (!isCollection(c)) throw refuse(`no collection ${JSON.stringify(c)} in this format`);
      const body = at + 4 * n;
      if (!(Number.isSafeInteger(n) && Number.isSafeInteger(size) && body + size < buf.length && buf[body + size] === 10))
        throw refuse('a block of packed records cut short');
      const bytes = buf.subarray(body, body + size);
      try {
        for (let i = 0, start = 0; i < n; i++) {
          const [id, recordAt] = reader.valueAndEnd(bytes, start);
          const [record, end] = reader.valueAndEnd(bytes, recordAt, id as string);
          start = buf.readUInt32LE(at + 4 * i);
          if (end !== start || typeof id !== 'string') throw new Error('its records and their ends disagree');
          records.push([c, record as Stored]);
        }
      } catch (e) {
        throw refuse(`a block of packed records does not decode (${(e as Error).message})`);
      }
      at = body + size + 1;
    } else if (v && typeof v === 'object' && typeof (v as { end?: unknown }).end === 'number') {
      if ((v as { end: number }).end !== records.length)
        throw refuse(`its end line counts ${String((v as { end: number }).end)} records, but it holds ${records.length}`);
      if (at !== buf.length) throw refuse('a line after the end line');
      return { header, records };
    } else throw refuse('not a line of records');
  }
}
