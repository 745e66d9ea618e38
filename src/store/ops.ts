// The unit of change: a whole record put, a record removed, or a meta field set.
// Every mutation of the store is expressed as ops, so the same ops update memory,
// feed the write-ahead log and replay it after a restart.
import type { CollectionName, Data, Meta } from './model.js';

export type Op =
  { c: CollectionName; id: string; v: unknown } | { c: CollectionName; id: string; del: 1 } | { meta: keyof Meta; v: unknown };

export function applyOp(data: Data, op: Op): void {
  if ('meta' in op) {
    (data.meta as unknown as Record<string, unknown>)[op.meta] = op.v;
    return;
  }
  const coll = (data[op.c] ??= {}) as Record<string, unknown>;
  if ('del' in op) delete coll[op.id];
  else coll[op.id] = op.v;
}
