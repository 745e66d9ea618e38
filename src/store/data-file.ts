// The files of a store, the snapshot (db.json), the write-ahead log (db.json.wal) and the named
// snapshots it saved before format version 3 (snapshots/*.json), have one line format and one reader.
// Each is JSON lines: the first a header naming the file's kind and its format version, every other
// line an array of ops (ops.ts), as the store appends them. A snapshot is a log that starts from
// nothing — a line of meta ops, one line per record — closed by an end line that counts the lines
// before it, so that a copy cut short is refused, never read as a smaller store; such a saved named
// snapshot is the same for one scope's records. A named snapshot saved since holds its records packed
// after the same header (saved-file.ts). docs/store.md#on-disk shows them.
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { SCHEMA_VERSION } from './model.js';
import type { Op } from './ops.js';

/** The store's snapshot, its log, and a named snapshot saved beside them (saved.ts). */
export type FileKind = 'snapshot' | 'log' | 'saved';

export interface Header {
  pixSandbox: FileKind;
  /** the data file format version it was written in (SCHEMA_VERSION of the build that wrote it) */
  version: number;
  /** a snapshot: the number of the last rotated log it covers (wal-adapter.ts) */
  covers?: number;
  /** a named snapshot: its name, its tenant (null: the whole sandbox), and the sandbox-wide clock when it was taken */
  name?: string;
  accountId?: string | null;
  sandboxMs?: number;
}

/** A data file this build cannot use; nothing was written to it. A start-up refused for it exits 2. */
export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot use the data file ${file}: ${reason}`);
  }
}

/** Files are created readable by their owner only: they hold the token signing key and webhook secrets. */
export const FILE_MODE = 0o600;

/** The first line of a file: its kind, this build's format version, and what the kind adds (a snapshot's `covers`). */
export const headerLine = (kind: FileKind, fields: Omit<Header, 'pixSandbox' | 'version'> = {}): string =>
  `${JSON.stringify({ pixSandbox: kind, version: SCHEMA_VERSION, ...fields })}\n`;
export const endLine = (lines: number): string => `${JSON.stringify({ end: lines })}\n`;

const CHUNK = 1 << 20;

export interface FileRead {
  /** null: a log with no header, empty or torn at its first line */
  header: Header | null;
  bytes: number;
  /** lines of ops read */
  lines: number;
  /** a log's torn last line was dropped */
  dropped: boolean;
}

/**
 * Reads a data file a chunk at a time (never whole in memory), checks its header, and hands each
 * line of ops to `onOps` in file order (awaiting it when it answers a promise: a log's restore op
 * reads a saved file). Resolves with null when there is no file.
 * What refuses the file (StoreFileError, naming it): a header of another kind or of a newer format
 * version, a line that does not parse, an op `onOps` rejects, a snapshot or a saved file without its
 * end line. A log's torn last line — a crash in the middle of an append, never acknowledged — is dropped.
 */
export async function readDataFile(
  file: string,
  kind: FileKind,
  onOps: (ops: Op[], header: Header) => void | Promise<void>,
): Promise<FileRead | null> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let header: Header | null = null;
  let lineNo = 0;
  let ended = false;
  let dropped = false;
  const refuse = (reason: string) => new StoreFileError(file, `line ${lineNo}: ${reason}`);
  const closed = kind !== 'log'; // a file written whole ends with its end line
  const failed = (e: unknown) => (e instanceof StoreFileError ? e : refuse((e as Error).message));
  const line = (text: string, terminated: boolean): Promise<void> | undefined => {
    lineNo++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (!terminated && kind === 'log') return void (dropped = true); // the torn last line of a crash
      throw refuse('not valid JSON');
    }
    if (header === null) header = checkHeader(file, kind, value);
    else if (ended) throw refuse('a line after the end line');
    else if (Array.isArray(value)) {
      try {
        const applying = onOps(value as Op[], header);
        if (applying) return applying.catch((e: unknown) => Promise.reject(failed(e)));
      } catch (e) {
        throw failed(e);
      }
    } else if (closed && typeof (value as { end?: unknown } | null)?.end === 'number') {
      const { end } = value as { end: number };
      if (end !== lineNo - 2) throw refuse(`its end line counts ${end} lines of ops, but ${lineNo - 2} precede it`);
      ended = true;
    } else throw refuse('not a line of ops');
  };
  try {
    const bytes = (await fh.stat()).size;
    const decoder = new StringDecoder('utf8');
    const buf = Buffer.allocUnsafe(CHUNK);
    let rest = '';
    for (let position = 0; ;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const text = rest + decoder.write(buf.subarray(0, bytesRead));
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        const applying = line(text.slice(start, nl), true);
        if (applying) await applying;
        start = nl + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.end();
    if (rest !== '') await line(rest, false);
    if (closed && !ended) throw new StoreFileError(file, `it ends after line ${lineNo} without its end line (cut short?)`);
    return { header, bytes, lines: Math.max(0, lineNo - (header ? 1 : 0) - (ended || dropped ? 1 : 0)), dropped };
  } finally {
    await fh.close();
  }
}

/** The header `value` read as the first line of `file`, checked for its kind and version (StoreFileError when it is not one). */
export function checkHeader(file: string, kind: FileKind, value: unknown): Header {
  const h = value as Partial<Header> | null;
  if (!h || typeof h !== 'object' || h.pixSandbox !== kind || !Number.isSafeInteger(h.version) || h.version! < 1) {
    throw new StoreFileError(file, `its first line is not the header of a pix-sandbox ${kind}`);
  }
  if (h.version! > SCHEMA_VERSION) {
    throw new StoreFileError(
      file,
      `it is in data file format version ${h.version}, newer than this build's version ${SCHEMA_VERSION}: ` +
        'open it with the release that wrote it, or a later one (docs/store.md#format-versions)',
    );
  }
  if (kind === 'snapshot' && !(Number.isSafeInteger(h.covers) && h.covers! >= 0)) {
    throw new StoreFileError(file, 'its header does not say which logs it covers');
  }
  if (kind === 'saved' && !(typeof h.name === 'string' && Number.isSafeInteger(h.sandboxMs) && h.accountId !== undefined)) {
    throw new StoreFileError(file, 'its header does not name the snapshot, its tenant and its time');
  }
  return h as Header;
}
