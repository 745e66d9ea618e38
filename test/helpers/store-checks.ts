// Checks of the store's derived tables against its records: every declared index must hold
// exactly what a full scan of the records says it should (docs/store.md), in memory after any
// sequence of changes, after an undo, and after a restart from the files. And the data files read
// as plain JSON lines, apart from the store's own reader.
import { readFile } from 'node:fs/promises';
import type { Collection, KeyIndexSpec } from '../../src/store/collection.js';
import type { Header } from '../../src/store/data-file.js';
import type { StoreData } from '../../src/store/data.js';
import { COLLECTIONS, emptyData, type CollectionName, type Data, type Stored } from '../../src/store/model.js';
import type { Op } from '../../src/store/ops.js';
import type { Store } from '../../src/store/store.js';

type Collections = Record<CollectionName, Collection<Stored>>;

/** The collections of a running store (their reads are typed narrower; the checks need the tables). */
export const collectionsOf = (store: Store): Collections =>
  Object.fromEntries(COLLECTIONS.map((c) => [c, store[c] as unknown as Collection<Stored>])) as Collections;

/** The collections of a store read offline (WalAdapter.read()). */
export const collectionsOfData = (data: StoreData): Collections => data.collections as unknown as Collections;

/** Every way an index disagrees with a full scan, in words (empty when all agree). */
export function indexProblems(collections: Collections): string[] {
  const problems: string[] = [];
  for (const c of COLLECTIONS) {
    const coll = collections[c];
    const records = [...coll.scan({ order: 'oldest' })];
    const seqs = records.map((r) => r.seq);
    if (seqs.some((s, i) => i > 0 && s <= seqs[i - 1]!)) problems.push(`${c}: scan is not in creation order`);
    if (records.length !== coll.size) problems.push(`${c}: size ${coll.size}, scan ${records.length}`);
    for (const r of records) if (coll.get(r.id)?.seq !== r.seq) problems.push(`${c}: get(${r.id}) does not find its record`);
    const have = indexEntries(coll);
    const want = expectedIndexEntries(coll, records);
    for (const name of Object.keys(want)) {
      const a = JSON.stringify(have[name]);
      const b = JSON.stringify(want[name]);
      if (a !== b) problems.push(`${c}.${name}: ${have[name]!.length} entries, a scan says ${want[name]!.length}`);
    }
    problems.push(...seqsUnderProblems(coll, records));
  }
  return problems;
}

/**
 * Where a key index's reads of a scope (seqsUnder, seqsUnderEach: scope.ts) disagree with a scan: for
 * every key the records hold, the seqs filed under it and only those (a packed record's key checked
 * where it lies), oldest first; and all keys at once, key by key.
 */
function seqsUnderProblems(coll: Collection<Stored>, records: readonly Stored[]): string[] {
  const problems: string[] = [];
  for (const [name, ix] of coll.indexes) {
    if (ix.groups) continue;
    const byKey = new Map<string, number[]>();
    for (const r of records) {
      const key = (ix.spec as KeyIndexSpec<Stored>).key(r);
      if (key === null || key === undefined) continue;
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key)!.push(r.seq);
    }
    for (const [key, seqs] of byKey)
      if (JSON.stringify(coll.seqsUnder(name, key)) !== JSON.stringify(seqs))
        problems.push(`${coll.name}.${name}: seqsUnder(${key}) is not a scan's`);
    const keys = [...byKey.keys(), 'no such key'];
    if (JSON.stringify(coll.seqsUnderEach(name, keys)) !== JSON.stringify([...byKey.values()].flat()))
      problems.push(`${coll.name}.${name}: seqsUnderEach is not a scan's`);
  }
  return problems;
}

const byKeyThenSeq = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/** Each index's table as entries [key hash or instant, seq]. */
function indexEntries(coll: Collection<Stored>): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const [name, ix] of coll.indexes) {
    const entries: [number, number][] = [];
    for (const set of ix.groups ? ix.groups.values() : [ix.pairs]) {
      const { k, v } = set.copy();
      for (let i = 0; i < k.length; i++) entries.push([k[i]!, v[i]!]);
    }
    // a grouped index: its groups' entries together, in the order a single table would hold them
    out[name] = ix.groups ? entries.sort(byKeyThenSeq) : entries;
  }
  return out;
}

/** What each index should hold for these records, by its declared key (schema.ts). */
function expectedIndexEntries(coll: Collection<Stored>, records: readonly Stored[]): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const [name, ix] of coll.indexes) {
    const entries: [number, number][] = [];
    for (const r of records) {
      const key = ix.keyOf(r);
      if (key !== null) entries.push([key, r.seq]);
    }
    out[name] = entries.sort(byKeyThenSeq);
  }
  return out;
}

/** A snapshot file as plain data: its header, its end line's count, its meta and its records by collection and id. */
export async function snapshotFile(file: string): Promise<Data & { header: Header; end: number }> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  if (lines.pop() !== '') throw new Error(`${file} does not end with a new line`);
  const header = JSON.parse(lines.shift()!) as Header;
  const { end } = JSON.parse(lines.pop()!) as { end: number };
  const data = emptyData('', '');
  for (const op of lines.flatMap((l) => JSON.parse(l) as Op[])) {
    if ('meta' in op) (data.meta as unknown as Record<string, unknown>)[op.meta] = op.v;
    else if ('v' in op) (data[op.c] as Record<string, unknown>)[op.id] = op.v;
  }
  return { ...data, header, end };
}

/** The lines of ops of a log file (after its header); none when there is no file. */
export async function logLines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).slice(1);
}
