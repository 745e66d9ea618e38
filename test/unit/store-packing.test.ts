// The packed form of the large collections: lossless for anything JSON holds, much smaller than
// objects, and a collection that finds its records by id and by index.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Codec } from '../../src/store/codec.js';
import { hash32 } from '../../src/store/hash.js';
import { PackedCollection } from '../../src/store/packed.js';
import { prng } from '../helpers/torture.js';

function randomValue(rand: () => number, depth = 0): unknown {
  const r = rand();
  if (depth > 4 || r < 0.3) {
    const pick = Math.floor(rand() * 16);
    switch (pick) {
      case 0:
        return null;
      case 1:
        return rand() < 0.5;
      case 2:
        return Math.floor(rand() * 1e6);
      case 3:
        return -Math.floor(rand() * 1e12);
      case 4:
        return rand() * 1000 - 500;
      case 5:
        return randomUUID();
      case 6:
        return new Date(Math.floor(rand() * 4e12)).toISOString();
      case 7:
        return ['\ud800', 'a\udfffz', 'é中𝄞', '\u202eRTL', '', '\u0000\u0001', 'ÿ'][Math.floor(rand() * 7)];
      case 8:
        return `prefix-${randomUUID()}-suffix`;
      case 9:
        return 'x'.repeat(Math.floor(rand() * 300));
      case 10:
        return Number.MAX_SAFE_INTEGER;
      case 11:
        return 2 ** 60;
      case 12:
        return '2030-13-45T99:99:99.999Z';
      case 14: {
        const hex = Buffer.from(Array.from({ length: 4 + Math.floor(rand() * 40) }, () => Math.floor(rand() * 256))).toString('hex');
        return hex; // a digest: packed as half its length
      }
      case 15:
        return ['ABCDEF0123456789ab', 'abcdef0123456789a', '0123456789abcdeg'][Math.floor(rand() * 3)]; // not lower-case hex of even length
      default:
        return ['PAID', 'COMPLETED', 'account:' + '0'.repeat(8)][Math.floor(rand() * 3)];
    }
  }
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(rand() * 6);
  for (let i = 0; i < n; i++)
    o[['id', 'status', 'amount', 'é', '__proto__', 'constructor', `k${i}`][Math.floor(rand() * 7)]!] = randomValue(rand, depth + 1);
  return o;
}

describe('Codec', () => {
  it('round-trips any JSON value exactly (stringified, the decoded copy equals the original)', () => {
    const codec = new Codec();
    const rand = prng(11);
    for (let i = 0; i < 3000; i++) {
      const v = randomValue(rand);
      const id = rand() < 0.5 ? randomUUID() : undefined;
      const withId = v && typeof v === 'object' && !Array.isArray(v) && id ? { ...v, id } : v;
      expect(JSON.stringify(codec.decode(codec.encode(withId, id), id))).toBe(JSON.stringify(withId));
    }
  });

  it('decodes only the named fields of an object, stepping over every kind of value in between', () => {
    const codec = new Codec();
    const rand = prng(12);
    const names = ['id', 'status', 'amount', 'é', '__proto__', 'constructor', 'k0', 'k3', 'missing'];
    let objects = 0;
    for (let i = 0; i < 3000; i++) {
      const v = randomValue(rand);
      if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
      objects++;
      const id = randomUUID();
      const withId: Record<string, unknown> = { ...v, tail: randomValue(rand), id };
      const wanted = new Set(names.filter(() => rand() < 0.4));
      const bytes = Buffer.from(codec.encode(withId, id), 'latin1');
      const full = codec.decodeBytes(bytes, 0, id) as Record<string, unknown>;
      const expected = Object.fromEntries(Object.entries(full).filter(([k]) => wanted.has(k)));
      expect(JSON.stringify(codec.decodeFields(bytes, 0, wanted, id))).toBe(JSON.stringify(expected));
    }
    expect(objects).toBeGreaterThan(500);
    expect(() => codec.decodeFields(Buffer.from(codec.encode([1, 2]), 'latin1'), 0, new Set(['id']))).toThrow(/not an object/);
  });

  it('keeps a "__proto__" key as a plain field, as JSON.parse does', () => {
    const codec = new Codec();
    const v = JSON.parse('{"__proto__":{"polluted":true},"a":1}');
    const back = codec.decode(codec.encode(v)) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what JSON cannot hold, and nesting deep enough to be an attack', () => {
    const codec = new Codec();
    expect(() => codec.encode({ n: 1n })).toThrow(TypeError);
    let deep: unknown = 1;
    for (let i = 0; i < 500; i++) deep = { a: deep };
    expect(() => codec.encode(deep)).toThrow(TypeError);
    // the codec still works after a refusal
    expect(codec.decode(codec.encode({ ok: true }))).toEqual({ ok: true });
  });

  it('packs a settled transfer into a fifth of its JSON', () => {
    const codec = new Codec();
    const sizes: number[] = [];
    for (let i = 0; i < 50; i++) {
      const id = randomUUID();
      const t = {
        id,
        type: 'CASH_OUT',
        status: 'COMPLETED',
        accountId: '00000000-0000-4000-8000-000000000001',
        merchantId: null,
        amount: 1500 + i,
        description: 'Pagamento fornecedor',
        details: { name: 'João Souza', key: '52998224725', keyType: 'CPF', document: '52998224725' },
        idempotencyKey: randomUUID(),
        settleAt: '2030-01-01T00:00:02.000Z',
        settledAt: '2030-01-01T00:00:02.000Z',
        endToEndId: 'E18236120203001010000AbCdEfGhIjK',
        receiver: {
          name: 'João Souza',
          document: '52998224725',
          ispb: '60701190',
          account_number: '12345',
          account_type: 'CACC',
          key: '52998224725',
          keyType: 'CPF',
        },
        createdAt: '2030-01-01T00:00:00.000Z',
        updatedAt: '2030-01-01T00:00:02.000Z',
      };
      const packed = codec.encode(t, id);
      sizes.push(packed.length / JSON.stringify(t).length);
      expect(codec.decode(packed, id)).toEqual(t);
    }
    // once the repeated strings are interned
    expect(sizes[sizes.length - 1]).toBeLessThan(0.25);
  });
});

describe('PackedCollection', () => {
  type Row = { id: string; seq: number; n: number; pad?: string };
  const made = () => new PackedCollection<Row>('rows', { byN: { key: (r: Row) => String(r.n % 3) } }, new Codec());

  it('finds records by any id (UUIDs and other strings), in creation order, and tells ids apart that share a hash', () => {
    const coll = made();
    const ids = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? `plain-${i}` : i % 3 === 1 ? randomUUID() : `${randomUUID()}:${i}`));
    ids.forEach((id, n) => coll._set({ id, seq: n + 1, n }));
    expect([...coll.scan({ order: 'oldest' })].map((r) => r.id)).toEqual(ids);
    expect([...coll.scan()].map((r) => r.id)).toEqual([...ids].reverse());
    for (const [n, id] of ids.entries()) expect(coll.get(id)).toEqual({ id, seq: n + 1, n });
    expect(coll.get(ids[0]!.toUpperCase())).toBeUndefined();
    expect(coll.has('nope')).toBe(false);
    expect(coll.getFields(ids[5]!, new Set(['n']))).toEqual({ n: 5 });
    // a page from a cursor, and an index's records newest first
    expect([...coll.scan({ after: 10 })].map((r) => r.seq)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect([...coll.find('byN', '1')].slice(0, 3).map((r) => r.n)).toEqual([199, 196, 193]);
    expect(coll.count('byN', '1')).toBe(67);
    // an update keeps the record's place; a removal takes it out of every table
    coll._set({ id: ids[1]!, seq: 2, n: 100 });
    expect([...coll.scan({ order: 'oldest' })][1]).toEqual({ id: ids[1], seq: 2, n: 100 });
    expect(coll._delete(ids[5]!)).toEqual({ id: ids[5], seq: 6, n: 5 });
    expect(coll.get(ids[5]!)).toBeUndefined();
    expect(coll.size).toBe(199);
    expect(coll.count('byN', '2')).toBe(65);
  });

  it('tells apart two ids whose hashes collide (each id is checked against the entry)', () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; !pair; i++) {
      const id = `k${i}`;
      const h = hash32(id);
      const other = seen.get(h);
      if (other) pair = [other, id];
      else seen.set(h, id);
    }
    const coll = made();
    coll._set({ id: pair[0], seq: 1, n: 0 });
    expect(coll.get(pair[1])).toBeUndefined();
    coll._set({ id: pair[1], seq: 2, n: 1 });
    expect(coll.get(pair[0])!.n).toBe(0);
    expect(coll.get(pair[1])!.n).toBe(1);
    coll._delete(pair[0]);
    expect(coll.get(pair[0])).toBeUndefined();
    expect(coll.get(pair[1])!.n).toBe(1);
  });

  it('reclaims the bytes of replaced and deleted records, keeping order and values', () => {
    const coll = made();
    const ids = Array.from({ length: 500 }, () => randomUUID());
    const pad = 'p'.repeat(2000);
    for (let round = 0; round < 20; round++) for (const [i, id] of ids.entries()) coll._set({ id, seq: i + 1, n: round * 1000 + i, pad });
    for (const id of ids.slice(0, 100)) coll._delete(id);
    const s = coll.stats();
    expect(s.records).toBe(400);
    // 20 versions of each were written: all but the last are garbage, reclaimed a chunk at a time
    // once it passes an eighth of the live bytes (or a chunk of 256 KiB)
    expect(s.garbageBytes).toBeLessThan(Math.max(s.liveBytes / 8, 256 << 10) + (256 << 10));
    expect(s.chunks).toBeLessThan(Math.ceil(s.liveBytes / (256 << 10)) + 4);
    expect([...coll.scan({ order: 'oldest' })].map((r) => r.id)).toEqual(ids.slice(100));
    expect(coll.get(ids[250]!)!.n).toBe(19 * 1000 + 250);
  });

  it('hands out copies: changing one never changes the store', () => {
    const coll = made();
    const id = randomUUID();
    coll._set({ id, seq: 1, n: 1 });
    const a = coll.get(id)! as Row;
    a.n = 2;
    expect(coll.get(id)!.n).toBe(1);
  });
});

describe('an index of one field, checked where the field lies', () => {
  type Entry = { id: string; seq: number; transactionId: string | null; note?: string };
  const made = () =>
    new PackedCollection<Entry>(
      'entries',
      { byTransaction: { key: (e: Entry) => e.transactionId, fields: new Set(['transactionId']), field: 'transactionId' } },
      new Codec(),
    );

  /** Two different values of `make(i)` whose hashes collide (a birthday search: about 80,000 tries). */
  function colliding(make: (i: number) => string): [string, string] {
    const seen = new Map<number, string>();
    for (let i = 0; ; i++) {
      const v = make(i);
      const other = seen.get(hash32(v));
      if (other !== undefined && other !== v) return [other, v];
      seen.set(hash32(v), v);
    }
  }

  it('finds each key’s records and only those: UUIDs, interned and one-off strings, the record’s own id, null, a missing field', () => {
    const coll = made();
    const [u1, u2] = colliding(() => randomUUID());
    const [s1, s2] = colliding((i) => `tx-${i}`);
    const self = randomUUID();
    const rows: Omit<Entry, 'seq'>[] = [
      { id: randomUUID(), transactionId: u1 },
      { id: randomUUID(), transactionId: u2 },
      { id: randomUUID(), transactionId: u1, note: 'again' },
      // the same short string in several records: interned after its second sighting
      { id: 'e-1', transactionId: s1 },
      { id: 'e-2', transactionId: s1 },
      { id: 'e-3', transactionId: s1 },
      { id: 'e-4', transactionId: s2 },
      // a one-off long string, never interned; a UUID-like text in upper case (not packed as a UUID)
      { id: 'e-5', transactionId: 'x'.repeat(80) },
      { id: 'e-6', transactionId: u1.toUpperCase() },
      // the record's own id, packed as one byte
      { id: self, transactionId: self },
      { id: 'e-7', transactionId: null },
    ];
    rows.forEach((r, i) => coll._set({ ...r, seq: i + 1 }));
    coll._set({ id: 'e-8', seq: rows.length + 1 } as Entry); // no field at all: in no bucket
    const seqsOf = (key: string) => rows.flatMap((r, i) => (r.transactionId === key ? [i + 1] : []));
    for (const key of [u1, u2, s1, s2, 'x'.repeat(80), u1.toUpperCase(), self])
      expect(coll.seqsUnder('byTransaction', key), key).toEqual(seqsOf(key));
    expect(coll.seqsUnder('byTransaction', randomUUID())).toEqual([]);
    expect(coll.seqsUnderEach('byTransaction', [s2, u1, 'nothing', self])).toEqual([...seqsOf(s2), ...seqsOf(u1), ...seqsOf(self)]);
  });
});
