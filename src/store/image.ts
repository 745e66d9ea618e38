// An image: a scope's records as they stood at one instant, held apart from the store, in the form
// the store keeps them — a packed collection's entries as their bytes (copied out of the arena), a
// plain collection's frozen records as they are (shared with the store until it replaces them). A
// named snapshot keeps one while the sandbox runs; a restore compares it with the records the scope
// holds now and changes only those that differ, so that putting back a scope costs a comparison per
// record plus the work of what changed since (docs/store.md#named-snapshots).
import type { Codec } from './codec.js';
import type { Collection } from './collection.js';
import type { StoreData } from './data.js';
import type { CollectionName, Stored } from './model.js';
import { PackedCollection } from './packed.js';
import type { ScopeSeqs } from './scope.js';

/** A packed collection's records: their entries one after another, `ends[i]` where entry i ends. */
interface PackedPart {
  c: CollectionName;
  bytes: Buffer;
  ends: number[];
}
/** A plain collection's records. */
interface PlainPart {
  c: CollectionName;
  records: readonly Readonly<Stored>[];
}
type Part = PackedPart | PlainPart;

export interface Image {
  /** the codec the entries are packed with: they compare with the store's only under the same one */
  readonly codec: Codec;
  readonly parts: readonly Part[];
  /** bytes of packed entries held (what the image costs beyond the records it shares with the store) */
  readonly packedBytes: number;
}

const collectionOf = (data: StoreData, c: CollectionName): Collection<Stored> => data.collections[c] as unknown as Collection<Stored>;
const packedIn = (data: StoreData, c: CollectionName): PackedCollection<Stored> | null => {
  const coll = collectionOf(data, c);
  return coll instanceof PackedCollection ? coll : null;
};

/** Copies the records at `seqs` out of the store (no record is decoded). */
export function captureImage(data: StoreData, seqs: ScopeSeqs): Image {
  const parts: Part[] = [];
  let packedBytes = 0;
  for (const [c, list] of Object.entries(seqs) as [CollectionName, number[]][]) {
    const packed = packedIn(data, c);
    if (!packed) {
      const coll = collectionOf(data, c);
      parts.push({ c, records: list.map((seq) => coll.bySeq(seq)!) });
      continue;
    }
    const entries = list.map((seq) => packed.entryAt(seq)!);
    const bytes = Buffer.allocUnsafe(entries.reduce((n, e) => n + e.length, 0));
    const ends: number[] = [];
    let at = 0;
    for (const e of entries) ends.push((at += e.copy(bytes, at)));
    parts.push({ c, bytes, ends });
    packedBytes += bytes.length;
  }
  return { codec: data.codec, parts, packedBytes };
}

/** An image of records given as objects (a saved file read back, an origin), packed as the store would pack them. */
export function buildImage(data: StoreData, records: Iterable<[CollectionName, Readonly<Stored>]>): Image {
  const byCollection = new Map<CollectionName, Readonly<Stored>[]>();
  for (const [c, r] of records) {
    let list = byCollection.get(c);
    if (!list) byCollection.set(c, (list = []));
    list.push(r);
  }
  const parts: Part[] = [];
  let packedBytes = 0;
  const codec = data.codec;
  for (const [c, list] of byCollection) {
    if (!packedIn(data, c)) {
      parts.push({ c, records: list });
      continue;
    }
    const chunks: Buffer[] = [];
    const ends: number[] = [];
    let at = 0;
    for (const r of list) {
      const n = codec.encodeEntry(r.id, r);
      chunks.push(Buffer.from(codec.output.subarray(0, n)));
      ends.push((at += n));
    }
    const bytes = Buffer.concat(chunks, at);
    parts.push({ c, bytes, ends });
    packedBytes += at;
  }
  return { codec, parts, packedBytes };
}

/** Each record of a part: its id, its seq-bearing record (decoded on demand), and, packed, its entry bytes. */
interface ImageRecord {
  id: string;
  entry: Buffer | null;
  record: () => Readonly<Stored>;
}

function* recordsOf(image: Image, part: Part): Generator<ImageRecord> {
  if ('records' in part) {
    for (const r of part.records) yield { id: r.id, entry: null, record: () => r };
    return;
  }
  let start = 0;
  for (const end of part.ends) {
    const entry = part.bytes.subarray(start, end);
    const [id, at] = image.codec.entryIdAndEnd(entry, 0);
    yield { id, entry, record: () => image.codec.decodeRecord(entry, at, id) as Stored };
    start = end;
  }
}

/** The image's records, decoded, each collection's in creation order. */
export function* imageRecords(image: Image): Generator<[CollectionName, Readonly<Stored>]> {
  for (const part of image.parts) for (const r of recordsOf(image, part)) yield [part.c, r.record()];
}

/** How many records of each collection the image holds. */
export function imageCounts(image: Image): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of image.parts) out[part.c] = 'records' in part ? part.records.length : part.ends.length;
  return out;
}

/** The records of one plain collection the image holds (its accounts). */
export function plainRecords(image: Image, c: CollectionName): readonly Readonly<Stored>[] {
  const part = image.parts.find((p) => p.c === c);
  return part && 'records' in part ? part.records : [];
}

/** The image with one collection's records replaced (the account a restore keeps its credentials in). */
export function withRecords(image: Image, c: CollectionName, records: readonly Readonly<Stored>[]): Image {
  return { ...image, parts: [...image.parts.filter((p) => p.c !== c), { c, records }] };
}

/**
 * Makes the records of `seqs` (a scope's, as the store holds them now) those of the image: a record
 * the image lacks is removed, one it holds differently is put as the image holds it, one it holds
 * the same (the same entry bytes, or the same frozen record) is left alone. Pushes the inverse of
 * each change on `undo` (none at a replay). Throws before changing anything when it cannot apply
 * whole (a record whose seq a record the restore keeps holds: never, while seqs are given once).
 */
export function applyImage(data: StoreData, seqs: ScopeSeqs, image: Image, undo: (() => void)[] | null): void {
  const sameCodec = image.codec === data.codec;
  const wanted = new Map<CollectionName, ImageRecord[]>();
  for (const part of image.parts) wanted.set(part.c, [...recordsOf(image, part)]);
  const plans: { coll: Collection<Stored>; leaving: string[]; puts: Readonly<Stored>[] }[] = [];
  for (const c of new Set<CollectionName>([...(Object.keys(seqs) as CollectionName[]), ...wanted.keys()])) {
    const coll = collectionOf(data, c);
    const packed = packedIn(data, c);
    const list = wanted.get(c) ?? [];
    const keep = new Set(list.map((r) => r.id));
    const leaving = (seqs[c] ?? []).map((seq) => coll.idAt(seq)!).filter((id) => !keep.has(id));
    const goes = new Set(leaving);
    const puts: Readonly<Stored>[] = [];
    for (const r of list) {
      if (r.entry && packed && sameCodec) {
        const seq = packed.seqOf(r.id);
        if (seq !== undefined && packed.entryAt(seq)!.equals(r.entry)) continue;
      } else if (!r.entry && coll.get(r.id) === r.record()) continue;
      const record = r.record();
      const holder = coll.idAt(record.seq);
      if (holder !== undefined && holder !== record.id && !goes.has(holder))
        throw new Error(`${c} ${record.id}: its seq ${record.seq} is held by ${holder}, which the restore keeps`);
      puts.push(record);
    }
    plans.push({ coll, leaving, puts });
  }
  for (const { coll, leaving, puts } of plans) {
    for (const id of leaving) {
      const before = coll._delete(id)!;
      undo?.push(() => coll._set(before));
    }
    for (const record of puts) {
      const { before } = coll._set(record);
      if (record.seq > data.meta.seq) data.meta.seq = record.seq;
      undo?.push(before ? () => coll._set(before) : () => coll._delete(record.id));
    }
  }
}
