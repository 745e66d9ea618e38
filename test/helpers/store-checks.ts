// Checks of the store's derived tables against its records: every declared index must hold
// exactly what a full scan of the records says it should (docs/store.md), in memory after any
// sequence of changes, after an undo, and after a restart from the files.
import type { Collection } from '../../src/store/collection.js';
import type { StoreData } from '../../src/store/data.js';
import { COLLECTIONS, type CollectionName, type Stored } from '../../src/store/model.js';
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
    const have = coll.indexEntries();
    const want = coll.expectedIndexEntries(records);
    for (const name of Object.keys(want)) {
      const a = JSON.stringify(have[name]);
      const b = JSON.stringify(want[name]);
      if (a !== b) problems.push(`${c}.${name}: ${have[name]!.length} entries, a scan says ${want[name]!.length}`);
    }
  }
  return problems;
}
