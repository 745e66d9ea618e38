// The ordered pair set under every store table and index, against a plain sorted array, through
// seeded random walks of adds and removals (many chunk splits and merges on the way).
import { describe, expect, it } from 'vitest';
import { MAX_VALUE, PairSet } from '../../src/store/pairs.js';
import { prng } from '../helpers/torture.js';

type Pair = [number, number];
const cmp = (a: Pair, b: Pair) => a[0] - b[0] || a[1] - b[1];

function reference(pairs: Pair[]) {
  const sorted = [...pairs].sort(cmp);
  return {
    sorted,
    after: (k: number, s: number, dir: 1 | -1) =>
      dir === 1 ? sorted.filter((p) => cmp(p, [k, s]) > 0) : sorted.filter((p) => cmp(p, [k, s]) < 0).reverse(),
  };
}

describe('PairSet', () => {
  for (const [name, keys, keySpace] of [
    ['hash-like keys', 'uint32', 40],
    ['instants', 'float64', 1e12],
  ] as const) {
    it(`stays sorted and answers like a sorted array through a random walk (${name})`, () => {
      const rand = prng(keySpace === 40 ? 5 : 6);
      const set = new PairSet(keys);
      const model = new Map<string, Pair>();
      const key = () => (keys === 'uint32' ? Math.floor(rand() * keySpace) : 1.7e12 + Math.floor(rand() * keySpace));
      let seq = 0;
      for (let step = 0; step < 30_000; step++) {
        const r = rand();
        if (r < 0.55 || model.size < 10) {
          // mostly newer seqs (appends within a key), some old ones (middle inserts)
          const p: Pair = [key(), rand() < 0.8 ? ++seq : Math.floor(rand() * seq)];
          const fresh = !model.has(p.join());
          expect(set.add(p[0], p[1])).toBe(fresh);
          model.set(p.join(), p);
        } else {
          const all = [...model.values()];
          const p = all[Math.floor(rand() * all.length)]!;
          expect(set.delete(p[0], p[1])).toBe(true);
          expect(set.delete(p[0], p[1])).toBe(false);
          model.delete(p.join());
        }
        if (step % 3000 === 0 || step === 29_999) {
          const ref = reference([...model.values()]);
          expect(set.size).toBe(ref.sorted.length);
          const c = set.copy();
          expect(Array.from(c.k, (k, i) => [k, c.v[i]])).toEqual(ref.sorted);
          // walks from random places, both ways, and per-key buckets and counts
          for (let j = 0; j < 20; j++) {
            const from = ref.sorted[Math.floor(rand() * ref.sorted.length)] ?? [0, 0];
            const dir = rand() < 0.5 ? 1 : -1;
            expect([...set.walk(from[0], from[1], dir)].slice(0, 50)).toEqual(ref.after(from[0], from[1], dir).slice(0, 50));
            const inKey = ref.sorted.filter((p) => p[0] === from[0]);
            expect(set.count(from[0])).toBe(inKey.length);
            expect([...set.bucket(from[0], MAX_VALUE, -1)]).toEqual(inKey.map((p) => p[1]).reverse());
            expect(set.first(from[0])).toBe(inKey[0]?.[1]);
            expect(set.valuesOf(from[0])).toEqual(inKey.map((p) => p[1]));
            expect(set.valuesOf(from[0], [-1])).toEqual([-1, ...inKey.map((p) => p[1])]);
          }
        }
      }
      expect(set.count(keys === 'uint32' ? keySpace + 5 : 1)).toBe(0);
    });
  }

  it('keeps walking when the set changes under the iterator (removing what it walks over)', () => {
    const set = new PairSet('uint32');
    for (let s = 1; s <= 5000; s++) set.add(s % 3, s);
    const seen: number[] = [];
    for (const s of set.bucket(1, MAX_VALUE, -1)) {
      seen.push(s);
      set.delete(1, s);
      if (s % 7 === 0) set.add(1, s + 1_000_000); // newer than the walk: not visited
    }
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => 5000 - i).filter((s) => s % 3 === 1));
    expect(set.count(1)).toBe(seen.filter((s) => s % 7 === 0).length);
  });

  it('fills chunks whole when a key grows at its end, even with other keys after it', () => {
    const set = new PairSet('uint32');
    for (let s = 1; s <= 100_000; s++) set.add(s % 2 === 0 ? 7 : 9, s);
    // 100,000 pairs of 8 bytes: chunks of 1,024 nearly full (a split in halves would leave 50–75 %)
    expect(set.bytes()).toBeLessThan(100_000 * 8 * 1.1);
  });
});
