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

/** A packed collection's records: their entries one after another, `ends[i]` where entry i ends, `seqs[i]` its seq. */
export interface PackedPart {
  c: CollectionName;
  bytes: Buffer;
  ends: number[];
  seqs: number[];
}
/** A plain collection's records. */
interface PlainPart {
  c: CollectionName;
  records: readonly Readonly<Stored>[];
}
type Part = PackedPart | PlainPart;

/** Whether a part holds a packed collection's entries. */
export const isPacked = (part: Part): part is PackedPart => 'bytes' in part;

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
    const { bytes, ends } = packed.copyEntries(list);
    parts.push({ c, bytes, ends, seqs: [...list] });
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
    parts.push({ c, bytes, ends, seqs: list.map((r) => r.seq) });
    packedBytes += at;
  }
  return { codec, parts, packedBytes };
}

/** A packed part's entry `i`. */
const entryOf = (part: PackedPart, i: number): Buffer => part.bytes.subarray(i === 0 ? 0 : part.ends[i - 1], part.ends[i]);
const decode = (codec: Codec, entry: Buffer): Readonly<Stored> => {
  const [id, at] = codec.entryIdAndEnd(entry, 0);
  return codec.decodeRecord(entry, at, id) as Stored;
};

/** The image's records, decoded, each collection's in creation order. */
export function* imageRecords(image: Image): Generator<[CollectionName, Readonly<Stored>]> {
  for (const part of image.parts) {
    if ('records' in part) for (const r of part.records) yield [part.c, r];
    else for (let i = 0; i < part.ends.length; i++) yield [part.c, decode(image.codec, entryOf(part, i))];
  }
}

/** How many records of each collection the image holds. */
export function imageCounts(image: Image): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of image.parts) out[part.c] = 'records' in part ? part.records.length : part.seqs.length;
  return out;
}

/** The records of one plain collection the image holds (its accounts). */
export function plainRecords(image: Image, c: CollectionName): readonly Readonly<Stored>[] {
  const part = image.parts.find((p) => p.c === c);
  return part && 'records' in part ? part.records : [];
}

/**
 * Makes the records of `seqs` (a scope's, as the store holds them now) those of the image: a record
 * the image lacks is removed, one it holds differently is put as the image holds it, one it holds the
 * same is left alone — the same seq with the same entry bytes (packed), or the same frozen record
 * (plain): found by seq, compared without decoding anything. Pushes the inverse of each change on
 * `undo` (none at a replay). Throws before changing anything when it cannot apply whole (a record
 * whose seq a record outside the scope holds: never, while seqs are given once).
 */
export function applyImage(data: StoreData, seqs: ScopeSeqs, image: Image, undo: (() => void)[] | null): void {
  const sameCodec = image.codec === data.codec;
  const plans: { coll: Collection<Stored>; leaving: number[]; puts: Readonly<Stored>[] }[] = [];
  const partOf = new Map(image.parts.map((p) => [p.c, p]));
  for (const c of new Set<CollectionName>([...(Object.keys(seqs) as CollectionName[]), ...partOf.keys()])) {
    const coll = collectionOf(data, c);
    const live = new Set(seqs[c] ?? []);
    const part = partOf.get(c);
    const wanted = new Set<number>();
    const puts: Readonly<Stored>[] = [];
    if (part && 'records' in part) {
      for (const r of part.records) {
        wanted.add(r.seq);
        if (!live.has(r.seq) || coll.bySeq(r.seq) !== r) puts.push(r);
      }
    } else if (part) {
      const packed = packedIn(data, c)!;
      for (let i = 0; i < part.seqs.length; i++) {
        const seq = part.seqs[i]!;
        const start = i === 0 ? 0 : part.ends[i - 1]!;
        wanted.add(seq);
        if (!sameCodec || !live.has(seq) || !packed.entryIs(seq, part.bytes, start, part.ends[i]! - start))
          puts.push(decode(image.codec, entryOf(part, i)));
      }
    }
    // a record put again over its own seq replaces it; one of a seq the image lacks leaves
    const leaving = [...live].filter((seq) => !wanted.has(seq));
    const goes = new Set(leaving);
    for (const record of puts) {
      if (!coll.hasSeq(record.seq) || goes.has(record.seq)) continue;
      const holder = coll.idAt(record.seq);
      if (holder !== record.id) throw new Error(`${c} ${record.id}: its seq ${record.seq} is held by ${holder}, outside the restore`);
    }
    plans.push({ coll, leaving, puts });
  }
  for (const { coll, leaving, puts } of plans) {
    for (const seq of leaving) {
      const before = coll._delete(coll.idAt(seq)!)!;
      undo?.push(() => coll._set(before));
    }
    for (const record of puts) {
      const { before } = coll._set(record);
      if (record.seq > data.meta.seq) data.meta.seq = record.seq;
      undo?.push(before ? () => coll._set(before) : () => coll._delete(record.id));
    }
  }
}
