// Named snapshots and origins (docs/control-api.md#snapshots, docs/store.md#named-snapshots). Part of
// the one data model (./model.ts re-exports it).
//   savedSnapshots  the catalog: one record per named snapshot, naming the file that holds it. Not
//                   state: a snapshot and a restore leave it as it is; a whole-sandbox reset empties it.
//   origins         one record per tenant: its records as they stood right after it was created or
//                   loaded from fixtures (a tenant's reset puts them back). State, like the tenant.
import type { savedSnapshotRecordSchema } from '../schemas/records.js';
import type { CollectionName } from './model.js';
import type { Stored, StoredAs } from './model-meta.js';

export type SavedSnapshot = StoredAs<typeof savedSnapshotRecordSchema>;

/** One record of an origin: its collection and the record as it was stored (its seq included). */
export interface OriginRecord {
  c: CollectionName;
  v: Stored;
}

export interface Origin extends Stored {
  /** the tenant's account id */
  id: string;
  records: OriginRecord[];
  createdAt: string;
}
