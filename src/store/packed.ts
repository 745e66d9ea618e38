// The large collections (transactions, ledger entries, idempotency records, webhook events and
// deliveries) keep their records packed (codec.ts) in an arena of 256 KiB buffers. Nothing of them
// is a JavaScript object until it is read:
//   rows   (seq → where the entry is in the arena), in creation order
//   ids    (hash of the id → seq); the entry starts with the id itself, so a hash that collides
//          is told apart by reading it
//   arena  entries [length][packed id][packed record], appended; a replaced or removed entry
//          becomes garbage, reclaimed a chunk at a time (#tidy)
// All three live outside the JavaScript heap: 100,000 records cost the collector a few hundred
// objects, and the heap (and what V8 keeps in reserve for it) does not grow with the store.
import type { Codec } from './codec.js';
import { Collection, type IndexSpec, type KeyIndexSpec } from './collection.js';
import { hash32 } from './hash.js';
import type { Stored } from './model.js';
import { PairSet } from './pairs.js';

const CHUNK = 256 << 10;
const LENGTH_BYTES = 4;
/** positions are kept as 32-bit numbers: the arena of one collection holds at most 4 GiB */
const MAX_POSITION = 0xffff_ffff;

/**
 * Append-only storage of byte strings in chunks of 256 KiB. A position is chunk × CHUNK + offset;
 * each entry starts with its length. Chunks are never written twice, so positions taken earlier
 * stay valid for whoever still holds the chunk list (a snapshot being written). A chunk whose
 * entries were all moved away is dropped, and its number is given to the next chunk opened.
 */
class Arena {
  chunks: (Buffer | null)[] = [];
  /** bytes written to each chunk, and how many of them are still alive */
  readonly #used: number[] = [];
  readonly #alive: number[] = [];
  readonly #free: number[] = [];
  #current = -1;
  live = 0;
  garbage = 0;

  append(src: Buffer, length: number): number {
    const need = length + LENGTH_BYTES;
    const cur = this.chunks[this.#current];
    if (!cur || this.#used[this.#current]! + need > cur.length) this.#open(Math.max(CHUNK, need));
    const ci = this.#current;
    const at = this.#used[ci]!;
    const pos = ci * CHUNK + at;
    if (pos > MAX_POSITION) throw new Error('a packed collection cannot hold more than 4 GiB');
    const chunk = this.chunks[ci]!;
    chunk.writeUInt32LE(length, at);
    src.copy(chunk, at + LENGTH_BYTES, 0, length);
    this.#used[ci] = at + need;
    this.#alive[ci]! += need;
    this.live += need;
    return pos;
  }

  #open(size: number): void {
    const ci = this.#free.pop() ?? this.chunks.length;
    // an entry larger than a chunk gets a chunk of its own (positions of the next number stay clear of it)
    this.chunks[ci] = Buffer.allocUnsafe(size);
    this.#used[ci] = 0;
    this.#alive[ci] = 0;
    this.#current = ci;
  }

  /** The chunk and the start of the bytes at `pos`. */
  locate(pos: number, chunks = this.chunks): [Buffer, number] {
    return [chunks[Math.floor(pos / CHUNK)]!, (pos % CHUNK) + LENGTH_BYTES];
  }

  free(pos: number): void {
    const ci = Math.floor(pos / CHUNK);
    const [chunk, start] = this.locate(pos);
    const n = chunk.readUInt32LE(start - LENGTH_BYTES) + LENGTH_BYTES;
    this.#alive[ci]! -= n;
    this.live -= n;
    this.garbage += n;
  }

  /** The full chunk (not the one being written) with the most garbage, and how much; -1 when none. */
  worst(): [number, number] {
    let best = -1;
    let most = 0;
    for (let ci = 0; ci < this.chunks.length; ci++) {
      if (ci === this.#current || !this.chunks[ci]) continue;
      const g = this.#used[ci]! - this.#alive[ci]!;
      if (g > most) [best, most] = [ci, g];
    }
    return [best, most];
  }

  /** The positions of every entry written to chunk `ci`, alive or not. */
  *positions(ci: number): Generator<number> {
    const chunk = this.chunks[ci]!;
    for (let at = 0; at < this.#used[ci]!; at += chunk.readUInt32LE(at) + LENGTH_BYTES) yield ci * CHUNK + at;
  }

  /** Forgets a chunk whose live entries were all copied elsewhere (the copies are counted there). */
  drop(ci: number): void {
    this.garbage -= this.#used[ci]! - this.#alive[ci]!;
    this.live -= this.#alive[ci]!;
    this.chunks[ci] = null;
    this.#free.push(ci);
  }

  copyFrom(pos: number): number {
    const [chunk, start] = this.locate(pos);
    const length = chunk.readUInt32LE(start - LENGTH_BYTES);
    return this.append(chunk.subarray(start, start + length), length);
  }
}

/** A point-in-time copy of a packed collection, decoded record by record while it is written out. */
export interface PackedCapture {
  size: number;
  records(): Generator<[string, unknown]>;
}

export class PackedCollection<T extends Stored> extends Collection<T> {
  readonly #codec: Codec;
  readonly #arena = new Arena();
  /** (hash of the id, seq) */
  readonly #ids = new PairSet('uint32');

  constructor(name: string, indexes: Record<string, IndexSpec<T>>, codec: Codec) {
    super(name, indexes);
    this.#codec = codec;
  }

  /** where the record found by the last #find begins */
  #hitChunk: Buffer = Buffer.alloc(0);
  #hitAt = 0;

  /** The seq of the record with this id (its place noted for the caller), or undefined: one binary search in the common case. */
  #find(id: string): number | undefined {
    const h = hash32(id);
    for (let seq = this.#ids.first(h); seq !== undefined; seq = this.#ids.next(h, seq)) {
      const [chunk, start] = this.#arena.locate(this.rows.first(seq)!);
      const at = this.#codec.matchEntryId(chunk, start, id);
      if (at < 0) continue; // another id with the same hash
      this.#hitChunk = chunk;
      this.#hitAt = at;
      return seq;
    }
    return undefined;
  }

  seqOf(id: string): number | undefined {
    return this.#find(id);
  }

  override get(id: string): Readonly<T> | undefined {
    return this.#find(id) === undefined ? undefined : (this.#codec.decodeRecord(this.#hitChunk, this.#hitAt, id) as T);
  }

  protected recordAt(_seq: number, pos: number): Readonly<T> {
    const [chunk, start] = this.#arena.locate(pos);
    return this.#codec.entry(chunk, start).record as T;
  }

  getFields(id: string, fields: ReadonlySet<string>): Readonly<Partial<T>> | undefined {
    if (this.#find(id) === undefined) return undefined;
    return this.#codec.decodeRecordFields(this.#hitChunk, this.#hitAt, fields, id) as Partial<T>;
  }

  /** The codec the entries are packed with (an image of them is comparable only under the same one). */
  get codec(): Codec {
    return this.#codec;
  }

  /**
   * Where the packed entry of `seq` (its id, then its record) lies: its chunk and start noted in
   * #hitChunk and #hitAt (no view of it is made: a view costs more than the reads made of it), its
   * length answered; -1 when there is none.
   */
  #locateSeq(seq: number): number {
    const pos = this.rows.first(seq);
    if (pos === undefined) return -1;
    const [chunk, start] = this.#arena.locate(pos);
    this.#hitChunk = chunk;
    this.#hitAt = start;
    return chunk.readUInt32LE(start - LENGTH_BYTES);
  }

  /**
   * The packed entries of `seqs` (each a record the collection holds), copied one after another into
   * one buffer; `ends[i]`: where entry i ends. Nothing is decoded.
   */
  copyEntries(seqs: readonly number[]): { bytes: Buffer; ends: number[] } {
    const ends: number[] = [];
    const chunks: Buffer[] = [];
    const starts: number[] = [];
    let size = 0;
    for (const seq of seqs) {
      ends.push((size += this.#locateSeq(seq)));
      chunks.push(this.#hitChunk);
      starts.push(this.#hitAt);
    }
    const bytes = Buffer.allocUnsafe(size);
    for (let i = 0, at = 0; i < ends.length; at = ends[i++]!) chunks[i]!.copy(bytes, at, starts[i], starts[i]! + ends[i]! - at);
    return { bytes, ends };
  }

  /** Whether the entry of `seq` is the `length` bytes of `bytes` from `start`, byte for byte. */
  entryIs(seq: number, bytes: Buffer, start: number, length: number): boolean {
    const n = this.#locateSeq(seq);
    return n === length && bytes.compare(this.#hitChunk, this.#hitAt, this.#hitAt + n, start, start + n) === 0;
  }

  idAt(seq: number): string | undefined {
    return this.#locateSeq(seq) < 0 ? undefined : this.#codec.entryId(this.#hitChunk, this.#hitAt);
  }

  /** The key an index names checked in the packed entry: one field compared where it lies, or the fields it reads decoded alone. */
  protected override keyIs(seq: number, spec: KeyIndexSpec<T>, key: string): boolean {
    if (!spec.fields) return super.keyIs(seq, spec, key);
    if (this.#locateSeq(seq) < 0) return false;
    const [chunk, start] = [this.#hitChunk, this.#hitAt];
    if (spec.field !== undefined) return this.#codec.entryFieldIs(chunk, start, spec.field, key);
    const [id, at] = this.#codec.entryIdAndEnd(chunk, start);
    return spec.key(this.#codec.decodeRecordFields(chunk, at, spec.fields, id) as T) === key;
  }

  _set(record: T): { before: Readonly<T> | undefined; stored: Readonly<T> } {
    // packed first: a value the log could not hold throws here, before anything changed
    const length = this.#codec.encodeEntry(record.id, record);
    const pos = this.#arena.append(this.#codec.output, length);
    const h = hash32(record.id);
    const seq = this.seqOf(record.id);
    let before: Readonly<T> | undefined;
    if (seq !== undefined) {
      const old = this.rows.first(seq)!;
      before = this.recordAt(seq, old);
      this.#arena.free(old);
      if (seq === record.seq) this.rows.replace(seq, old, pos);
      else {
        this.rows.delete(seq, old);
        this.#ids.delete(h, seq);
      }
    }
    if (seq !== record.seq) {
      this.rows.add(record.seq, pos);
      this.#ids.add(h, record.seq);
    }
    this.changed(before, record);
    this.#tidy();
    return { before, stored: record };
  }

  _delete(id: string): Readonly<T> | undefined {
    const seq = this.seqOf(id);
    if (seq === undefined) return undefined;
    const pos = this.rows.first(seq)!;
    const before = this.recordAt(seq, pos);
    this.#arena.free(pos);
    this.rows.delete(seq, pos);
    this.#ids.delete(hash32(id), seq);
    this.changed(before, undefined);
    this.#tidy();
    return before;
  }

  /** The records as they are now, decoded later: chunks are never written twice, so the copy stays consistent. */
  capture(): PackedCapture {
    const { v: positions } = this.rows.copy();
    const chunks = this.#arena.chunks.slice();
    const arena = this.#arena;
    const codec = this.#codec;
    return {
      size: positions.length,
      *records() {
        for (const pos of positions) {
          const [chunk, start] = arena.locate(pos, chunks);
          const { id, record } = codec.entry(chunk, start);
          yield [id, record];
        }
      },
    };
  }

  /** Bytes held: alive, garbage not yet reclaimed, and the tables (diagnostics). */
  stats(): { records: number; liveBytes: number; garbageBytes: number; chunks: number; tableBytes: number } {
    const a = this.#arena;
    return {
      records: this.size,
      liveBytes: a.live,
      garbageBytes: a.garbage,
      chunks: a.chunks.filter(Boolean).length,
      tableBytes: this.indexBytes() + this.#ids.bytes(),
    };
  }

  /**
   * Updates and removals leave garbage in the arena. Once it is more than an eighth of what is
   * alive, the chunk with the most of it is emptied: its live entries are written anew at the end
   * and the chunk dropped. One chunk per change at most, so a change never waits for more than one
   * chunk's copy, and garbage stays near an eighth of the live bytes.
   */
  #tidy(): void {
    const a = this.#arena;
    if (a.garbage < Math.max(CHUNK, a.live / 8)) return;
    const [ci, garbage] = a.worst();
    if (ci < 0 || garbage === 0) return;
    for (const pos of [...a.positions(ci)]) {
      const [chunk, start] = a.locate(pos);
      const seq = this.seqOf(this.#codec.entryId(chunk, start));
      if (seq !== undefined && this.rows.first(seq) === pos) this.rows.replace(seq, pos, a.copyFrom(pos));
    }
    a.drop(ci);
  }
}
