// A restore: a scope's records (one tenant's, or the whole sandbox's state) replaced by those of a
// named snapshot or of the tenant's origin, as one change whose op names where they come from
// (ops.ts). Live, the records come from the snapshot's image and only those that differ are changed
// (image.ts); replayed at start-up, they are read again from the snapshot's file or the origin held
// in the store. Either way the scope ends holding exactly those records, with the account and the
// clock offset the op carries (docs/store.md#named-snapshots).
import path from 'node:path';
import type { StoreData } from './data.js';
import { applyImage, buildImage, type Image } from './image.js';
import type { Collection } from './collection.js';
import type { Account, CollectionName, LedgerEntry, OriginRecord, Stored } from './model.js';
import type { RestoreOp } from './ops.js';
import { readSaved, SNAPSHOTS_FOLDER } from './saved.js';
import { scopeSeqs, tenantSeqs } from './scope.js';

/**
 * Applies a restore to `data`, pushing the inverse of each change on `undo` (null: a replay). A
 * tenant's origin is its own record: a restore from it keeps it.
 */
export function applyRestore(data: StoreData, op: RestoreOp, image: Image, undo: (() => void)[] | null): void {
  const seqs = scopeSeqs(data, op.scope);
  if ('origin' in op.from) delete seqs.origins;
  applyImage(data, seqs, image, undo);
  if (op.account !== undefined) {
    const accounts = data.collections.accounts;
    const { before } = accounts._set(op.account as Account);
    undo?.push(before ? () => accounts._set(before) : () => accounts._delete((op.account as Account).id));
  }
  if (op.clockOffsetMs !== undefined) {
    const before = data.meta.clockOffsetMs;
    data.meta.clockOffsetMs = op.clockOffsetMs;
    undo?.push(() => (data.meta.clockOffsetMs = before));
  }
}

/** What a tenant's origin leaves out: what it does (its transactions and all they brought), never its settings and arrangements. */
const NOT_IN_ORIGIN: ReadonlySet<CollectionName> = new Set([
  'transactions',
  'events',
  'deliveries',
  'idempotency',
  'webhookSends',
  'origins',
]);

/**
 * The tenant's records as they stand, as its origin keeps them: its account, merchants, wallets,
 * webhook endpoints, delivery faults and arrangements, and the ledger entries of no transaction
 * (opening balances and adjustments).
 */
export function originRecords(data: StoreData, accountId: string): OriginRecord[] {
  const out: OriginRecord[] = [];
  for (const [c, seqs] of Object.entries(tenantSeqs(data, accountId)) as [CollectionName, number[]][]) {
    if (NOT_IN_ORIGIN.has(c)) continue;
    const coll = data.collections[c] as unknown as Collection<Stored>;
    for (const seq of seqs) {
      const v = coll.bySeq(seq)!;
      if (c === 'ledger' && (v as LedgerEntry).transactionId !== null) continue;
      out.push({ c, v });
    }
  }
  return out;
}

/** The records of a tenant's origin, as an image. */
export function originImage(data: StoreData, accountId: string): Image | null {
  const origin = data.collections.origins.get(accountId);
  return origin
    ? buildImage(
        data,
        origin.records.map((r): [CollectionName, Stored] => [r.c, r.v]),
      )
    : null;
}

/** A restore op of a log, replayed: its records read again from the file or the origin it names. */
export async function replayRestore(data: StoreData, op: RestoreOp, dataFile: string): Promise<void> {
  let image: Image | null;
  if ('origin' in op.from) image = originImage(data, op.from.origin);
  else image = buildImage(data, (await readSaved(path.join(path.dirname(dataFile), SNAPSHOTS_FOLDER, op.from.file))).records);
  if (!image) throw new Error(`a restore names the origin of account ${op.scope}, which the store does not hold`);
  applyRestore(data, op, image, null);
}
