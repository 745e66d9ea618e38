// The unit of change: a whole record put, a record removed, or a meta field set. Every change of
// the store is expressed as ops, so the same ops change memory, feed the write-ahead log and
// replay it after a restart (replaying is idempotent: each op carries the whole record).
import type { CollectionName, Meta } from './model.js';
import type { StoreData } from './data.js';

export type Op =
  { c: CollectionName; id: string; v: unknown } | { c: CollectionName; id: string; del: 1 } | { meta: keyof Meta; v: unknown };

/** Replays one logged op into `data`. */
export function replayOp(data: StoreData, op: Op): void {
  if ('meta' in op) {
    // the seq counter only moves forward: records replayed may already have moved it further
    if (op.meta === 'seq') data.meta.seq = Math.max(data.meta.seq, Number(op.v) || 0);
    else (data.meta as unknown as Record<string, unknown>)[op.meta] = op.v;
  } else if (!(op.c in data.collections))
    return; // a collection of a newer version: not ours to keep
  else if ('del' in op) data.collections[op.c]._delete(op.id);
  else data.load(op.c, op.id, op.v);
}
