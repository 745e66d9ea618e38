// Pages of records in creation order, for the lists that can grow (docs/store.md, "Reads").
import type { Stored } from './model.js';

export interface Page<T> {
  items: T[];
  /** the cursor of the next page (the seq of the last record looked at); null when nothing is left */
  next: number | null;
}

/**
 * Up to `limit` records of `source` (in its order) that pass `keep`, looking at no more than
 * `budget` of them: a page costs what its limit allows, whatever the filters. A page cut short by
 * the budget has fewer items and still a cursor; a full page has a cursor when a record follows.
 */
export function takePage<T extends Readonly<Stored>>(
  source: Iterable<T>,
  limit: number,
  keep?: (r: T) => boolean,
  budget = Infinity,
): Page<T> {
  const items: T[] = [];
  let looked = 0;
  let last: number | null = null;
  for (const r of source) {
    if (items.length >= limit || looked >= budget) return { items, next: last };
    looked++;
    last = r.seq;
    if (!keep || keep(r)) items.push(r);
  }
  return { items, next: null };
}

/** Several sources, each in creation order (seq), merged into one (k-way, for a filter that spans index keys, or the journal's rings). */
export function* mergeBySeq<T extends { readonly seq: number }>(
  sources: Iterable<T>[],
  order: 'newest' | 'oldest' = 'newest',
): Generator<T> {
  const its = sources.map((s) => s[Symbol.iterator]());
  const heads = its.map((it) => it.next());
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (h.done) continue;
      const b = heads[best];
      if (!b || b.done || (order === 'newest' ? h.value.seq > b.value.seq : h.value.seq < b.value.seq)) best = i;
    }
    if (best < 0) return;
    yield (heads[best] as IteratorYieldResult<T>).value;
    heads[best] = its[best]!.next();
  }
}

/** The first `n` records of `source` (none when `n` ≤ 0), read lazily: a bounded read of an index or a scan. */
export function* take<T>(source: Iterable<T>, n: number): Generator<T> {
  if (n <= 0) return;
  for (const x of source) {
    yield x;
    if (--n <= 0) return;
  }
}
