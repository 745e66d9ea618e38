// An ordered set of number pairs (key, value), the structure under every table and index of the
// store: in an index the key is a hash or an instant and the value a record's seq; in a table of
// rows the key is the seq and the value where the record is. Pairs are kept sorted (by key, then
// value) in chunks of typed arrays, like the leaves of a B+-tree without its inner nodes: finding
// a place is a binary search over the chunks then within one, and an insert or a removal moves
// at most one chunk's entries. The arrays live outside the JavaScript heap, so a million pairs
// cost the collector a few thousand objects, not a million. Iterators survive changes made while
// they run (they find their place again), so a caller may remove what it is walking over.

const MAX = 1024;
const FIRST = 16;

type KeyArray = Float64Array | Uint32Array;

interface Chunk {
  k: KeyArray;
  v: Uint32Array;
  n: number;
}

/** The largest value a pair can hold (values are seqs and positions). */
export const MAX_VALUE = 0xffff_ffff;

export class PairSet {
  readonly #float: boolean;
  #chunks: Chunk[] = [];
  #size = 0;
  /** bumped on every change, so that an iterator knows to find its place again */
  #version = 0;

  /** `keys`: 'uint32' for hashes and seqs, 'float64' for instants (an ordered index). */
  constructor(keys: 'uint32' | 'float64') {
    this.#float = keys === 'float64';
  }

  get size(): number {
    return this.#size;
  }

  #chunk(capacity: number): Chunk {
    return { k: this.#float ? new Float64Array(capacity) : new Uint32Array(capacity), v: new Uint32Array(capacity), n: 0 };
  }

  /** Position of the first pair ≥ (k, v): chunk index and index within (chunks.length when none). */
  #seek(k: number, v: number): [number, number] {
    const chunks = this.#chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = chunks[mid]!;
      const lk = c.k[c.n - 1]!;
      if (lk < k || (lk === k && c.v[c.n - 1]! < v)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === chunks.length) return [lo, 0];
    const c = chunks[lo]!;
    let a = 0;
    let b = c.n;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const mk = c.k[mid]!;
      if (mk < k || (mk === k && c.v[mid]! < v)) a = mid + 1;
      else b = mid;
    }
    return [lo, a];
  }

  #at(ci: number, i: number, k: number, v: number): boolean {
    const c = this.#chunks[ci];
    return c !== undefined && i < c.n && c.k[i] === k && c.v[i] === v;
  }

  has(k: number, v: number): boolean {
    const [ci, i] = this.#seek(k, v);
    return this.#at(ci, i, k, v);
  }

  /** Adds the pair; false when it was there already. */
  add(k: number, v: number): boolean {
    const chunks = this.#chunks;
    let [ci, i] = this.#seek(k, v);
    if (this.#at(ci, i, k, v)) return false;
    // a pair that falls between two chunks goes at the end of the first while it has room, so a
    // run that grows at its end (an index key's newest seqs) fills its chunks whole
    if ((ci === chunks.length || i === 0) && ci > 0 && chunks[ci - 1]!.n < MAX) i = chunks[--ci]!.n;
    else if (ci === chunks.length || (i === 0 && chunks[ci]!.n === MAX)) {
      chunks.splice(ci, 0, this.#chunk(FIRST));
      i = 0;
    }
    let c = chunks[ci]!;
    if (c.n === c.k.length) {
      if (c.n < MAX) c = chunks[ci] = this.#grow(c, Math.min(MAX, c.n * 2));
      else {
        // full (and the pair not first: that case made a chunk above): cut where the pair goes
        const right = this.#chunk(MAX);
        right.k.set(c.k.subarray(i, c.n));
        right.v.set(c.v.subarray(i, c.n));
        right.n = c.n - i;
        c.n = i;
        chunks.splice(ci + 1, 0, right);
      }
    }
    c.k.copyWithin(i + 1, i, c.n);
    c.v.copyWithin(i + 1, i, c.n);
    c.k[i] = k;
    c.v[i] = v;
    c.n++;
    this.#size++;
    this.#version++;
    return true;
  }

  #grow(c: Chunk, capacity: number): Chunk {
    const next = this.#chunk(capacity);
    next.k.set(c.k.subarray(0, c.n));
    next.v.set(c.v.subarray(0, c.n));
    next.n = c.n;
    return next;
  }

  /** Removes the pair; false when it was not there. */
  delete(k: number, v: number): boolean {
    const [ci, i] = this.#seek(k, v);
    if (!this.#at(ci, i, k, v)) return false;
    const chunks = this.#chunks;
    const c = chunks[ci]!;
    c.k.copyWithin(i, i + 1, c.n);
    c.v.copyWithin(i, i + 1, c.n);
    c.n--;
    if (c.n === 0) chunks.splice(ci, 1);
    else if (c.n < MAX / 4) this.#merge(ci);
    this.#size--;
    this.#version++;
    return true;
  }

  /** Merges a chunk that removals left small into a neighbour that has room. */
  #merge(ci: number): void {
    const chunks = this.#chunks;
    const c = chunks[ci]!;
    const left = chunks[ci - 1];
    if (left && left.n + c.n <= MAX / 2) {
      const into = left.k.length >= left.n + c.n ? left : (chunks[ci - 1] = this.#grow(left, MAX));
      into.k.set(c.k.subarray(0, c.n), into.n);
      into.v.set(c.v.subarray(0, c.n), into.n);
      into.n += c.n;
      chunks.splice(ci, 1);
    }
  }

  /** The value of the first pair whose key is `k` (for a key that appears once: its value), or undefined. */
  first(k: number): number | undefined {
    const [ci, i] = this.#seek(k, 0);
    const c = this.#chunks[ci];
    return c && i < c.n && c.k[i] === k ? c.v[i] : undefined;
  }

  /** The value of the first pair whose key is `k` and value is above `v` (the next of a key's values), or undefined. */
  next(k: number, v: number): number | undefined {
    const [ci, i] = this.#seek(k, v + 1);
    const c = this.#chunks[ci];
    return c && i < c.n && c.k[i] === k ? c.v[i] : undefined;
  }

  /** Changes the value of the pair (k, from) in place: only for a key that appears once (the order holds). */
  replace(k: number, from: number, to: number): boolean {
    const [ci, i] = this.#seek(k, from);
    if (!this.#at(ci, i, k, from)) return false;
    this.#chunks[ci]!.v[i] = to;
    return true;
  }

  /** How many pairs have the key `k`: a walk over the chunks they span, not over the pairs. */
  count(k: number): number {
    const [c0, i0] = this.#seek(k, 0);
    const [c1, i1] = this.#seek(k, MAX_VALUE + 1);
    let n = 0;
    for (let ci = c0; ci < c1; ci++) n += this.#chunks[ci]!.n;
    return n - i0 + (c1 < this.#chunks.length ? i1 : 0);
  }

  /**
   * The pairs after (k, v) in the direction `dir` (1: ascending, -1: descending), (k, v) itself
   * excluded, as [key, value]. Changes made meanwhile are fine: the walk goes on from where it was.
   */
  *walk(k: number, v: number, dir: 1 | -1): Generator<[number, number]> {
    let [ci, i] = this.#seek(k, dir === 1 ? v + 1 : v);
    if (dir === -1) i--;
    let version = this.#version;
    for (;;) {
      if (version !== this.#version) {
        [ci, i] = this.#seek(k, dir === 1 ? v + 1 : v);
        if (dir === -1) i--;
        version = this.#version;
      }
      while (i < 0 && ci > 0) i = this.#chunks[--ci]!.n - 1;
      while (ci < this.#chunks.length && i >= this.#chunks[ci]!.n) {
        ci++;
        i = 0;
      }
      const c = this.#chunks[ci];
      if (!c || i < 0) return;
      k = c.k[i]!;
      v = c.v[i]!;
      yield [k, v];
      i += dir;
    }
  }

  /** The values of the pairs whose key is `k`, lowest first, appended to `out`: a bucket read whole, straight from the arrays. */
  valuesOf(k: number, out: number[] = []): number[] {
    let [ci, i] = this.#seek(k, 0);
    for (; ci < this.#chunks.length; ci++, i = 0) {
      const c = this.#chunks[ci]!;
      for (; i < c.n; i++) {
        if (c.k[i] !== k) return out;
        out.push(c.v[i]!);
      }
    }
    return out;
  }

  /** The values of the pairs whose key is `k`, after `v` in the direction `dir` (-1: highest first). */
  *bucket(k: number, v: number, dir: 1 | -1): Generator<number> {
    for (const [key, value] of this.walk(k, v, dir)) {
      if (key !== k) return;
      yield value;
    }
  }

  /** Every pair in order, copied (a point-in-time capture: later changes do not show in it). */
  copy(): { k: KeyArray; v: Uint32Array } {
    const k = this.#float ? new Float64Array(this.#size) : new Uint32Array(this.#size);
    const v = new Uint32Array(this.#size);
    let at = 0;
    for (const c of this.#chunks) {
      k.set(c.k.subarray(0, c.n), at);
      v.set(c.v.subarray(0, c.n), at);
      at += c.n;
    }
    return { k, v };
  }

  /** Bytes held by the arrays (diagnostics). */
  bytes(): number {
    let n = 0;
    for (const c of this.#chunks) n += c.k.byteLength + c.v.byteLength;
    return n;
  }
}
