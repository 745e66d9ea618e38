// The unit of change: a whole record put, a record removed, or a meta field set. Every change of
// the store is expressed as ops, so the same ops change memory, feed the write-ahead log and
// replay it after a restart (replaying is idempotent: each op carries the whole record). A
// snapshot is the same ops from an empty store (data-file.ts).
import type { CollectionName, Meta } from './model.js';
import type { StoreData } from './data.js';

export type Op =
  { c: CollectionName; id: string; v: unknown } | { c: CollectionName; id: string; del: 1 } | { meta: keyof Meta; v: unknown };

/** Replays one op read from a file into `data`; throws for an op this format does not have. */
export function replayOp(data: StoreData, op: Op): void {
  if ('meta' in op) {
    // the seq counter only moves forward: records replayed may already have moved it further
    if (op.meta === 'seq') data.meta.seq = Math.max(data.meta.seq, Number(op.v) || 0);
    else (data.meta as unknown as Record<string, unknown>)[op.meta] = op.v;
  } else if (!Object.hasOwn(data.collections, op.c)) throw new Error(`no collection ${JSON.stringify(op.c)} in this format`);
  else if ('del' in op) data.collections[op.c]._delete(op.id);
  else data.load(op.c, op.id, op.v);
}
