// One change of the store (store.ts's commit and apply): the reads of the store and its only ways to
// write, each of which changes the record, its row and every index at once, and pushes its inverse on
// the change's undo log (run backwards when the change throws) and its op on the change's ops (the
// line the log gets). docs/store.md#changing-one-change-at-a-time.
import type { Reads, StoreData } from './data.js';
import type { Image } from './image.js';
import type { CollectionName, EntityOf, Meta, New } from './model.js';
import type { Op, RestoreOp } from './ops.js';
import { applyRestore, originRecords } from './restore.js';

/** One change: the reads of the store, and its only ways to write. */
export interface Tx extends Reads {
  /**
   * Stores the record whole (a new one, or the replacement of the one with its id) and returns it
   * as stored. The store gives a new record its `seq`; a replacement keeps the one it had.
   */
  put<C extends CollectionName>(c: C, record: New<EntityOf<C>>): Readonly<EntityOf<C>>;
  /** Removes the record; returns it (undefined when there was none). */
  remove<C extends CollectionName>(c: C, id: string): Readonly<EntityOf<C>> | undefined;
  setMeta<K extends 'clockOffsetMs' | 'tokenGeneration'>(key: K, value: Meta[K]): void;
  /**
   * Replaces a scope's records (a tenant's, or the whole sandbox's state) by the image's, as one op
   * naming where they come from: the log holds that op, not the records (docs/store.md#named-snapshots).
   */
  restore(op: RestoreOp, image: Image): void;
  /** Keeps the tenant's records as they stand now as its origin (what a tenant's reset puts back), stamped `at`. */
  keepOrigin(accountId: string, at: string): void;
}

export interface Change {
  tx: Tx;
  ops: Op[];
  /** the restores it made, in order */
  restored: RestoreOp[];
  /** undoes everything it did, newest first */
  rollBack(): void;
}

export function openChange(data: StoreData, reads: Reads): Change {
  const ops: Op[] = [];
  const undo: (() => void)[] = [];
  const restored: RestoreOp[] = [];
  const tx: Tx = {
    ...reads,
    put: (c, input) => {
      const coll = data.collections[c];
      const id = input.id;
      const existing = coll.seqOf(id);
      if (input.seq !== undefined && input.seq !== existing)
        throw new Error(`${c} ${id}: a record's seq is given by the store (${input.seq} given, ${String(existing)} stored)`);
      const seq = existing ?? ++data.meta.seq;
      const record = (input.seq === seq ? input : { ...input, seq }) as unknown as EntityOf<typeof c>;
      const { before, stored } = coll._set(record); // a packed collection throws, storing nothing, for a value the log could not hold
      undo.push(() => (before ? coll._set(before as EntityOf<typeof c>) : coll._delete(id)));
      ops.push({ c, id, v: record });
      return stored;
    },
    remove: (c, id) => {
      const coll = data.collections[c];
      const before = coll._delete(id);
      if (before === undefined) return undefined;
      undo.push(() => coll._set(before as EntityOf<typeof c>));
      ops.push({ c, id, del: 1 });
      return before;
    },
    setMeta: (key, value) => {
      const before = data.meta[key];
      data.meta[key] = value;
      undo.push(() => (data.meta[key] = before));
      ops.push({ meta: key, v: value });
    },
    restore: (op, image) => {
      applyRestore(data, op, image, undo);
      ops.push({ restore: op });
      restored.push(op);
    },
    keepOrigin: (accountId, at) => {
      tx.put('origins', { id: accountId, records: originRecords(data, accountId), createdAt: at });
    },
  };
  return {
    tx,
    ops,
    restored,
    rollBack: () => {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
    },
  };
}
