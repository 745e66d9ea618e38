// The packed form of the large collections: lossless for anything JSON holds, much smaller than
// objects, and a plain-object view that behaves like the object it replaces.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Codec } from '../../src/store/codec.js';
import { idOf, keyOf, PackedCollection, packedOf } from '../../src/store/packed.js';
import { prng } from '../helpers/torture.js';

function randomValue(rand: () => number, depth = 0): unknown {
  const r = rand();
  if (depth > 4 || r < 0.3) {
    const pick = Math.floor(rand() * 14);
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
  it('maps UUIDs to 16-byte keys and back, and never confuses another id with one', () => {
    const id = randomUUID();
    expect(keyOf(id)).toHaveLength(16);
    expect(idOf(keyOf(id))).toBe(id);
    for (const other of ['0123456789abcdef', '\u0100x', 'acc:key', id.toUpperCase(), '']) expect(idOf(keyOf(other))).toBe(other);
  });

  it('behaves like a plain object: order, enumeration, in, delete, JSON', () => {
    const coll = new PackedCollection<{ id: string; n: number }>(new Codec());
    const view = coll.view;
    const ids = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? `plain-${i}` : randomUUID()));
    ids.forEach((id, n) => (view[id] = { id, n }));
    expect(Object.keys(view)).toEqual(ids);
    expect(Object.values(view).map((r) => r.n)).toEqual(ids.map((_, n) => n));
    expect(Object.entries(view)[3]).toEqual([ids[3], { id: ids[3], n: 3 }]);
    expect(ids[5]! in view).toBe(true);
    expect(Object.hasOwn(view, ids[5]!)).toBe(true);
    expect(Object.hasOwn(view, 'nope')).toBe(false);
    delete view[ids[5]!];
    expect(view[ids[5]!]).toBeUndefined();
    expect(Object.keys(view)).toHaveLength(19);
    const copy = JSON.parse(JSON.stringify(view));
    expect(Object.keys(copy)).toEqual(Object.keys(view));
    const seen: string[] = [];
    for (const k in view) seen.push(k);
    expect(seen).toEqual(Object.keys(view));
    expect({ ...view }[ids[0]!]).toEqual({ id: ids[0], n: 0 });
    // an update keeps the position, as on an object
    view[ids[1]!] = { id: ids[1]!, n: 100 };
    expect(Object.keys(view)[1]).toBe(ids[1]);
    expect(packedOf(view)).toBe(coll);
    expect(packedOf({})).toBeUndefined();
    expect(Object.prototype.toString.call(view)).toBe('[object Object]');
  });

  it('reclaims the bytes of replaced and deleted records, keeping order and values', () => {
    const coll = new PackedCollection<{ id: string; v: number; pad: string }>(new Codec());
    const ids = Array.from({ length: 500 }, () => randomUUID());
    const pad = 'p'.repeat(2000);
    for (let round = 0; round < 20; round++) for (const [i, id] of ids.entries()) coll.set(id, { id, v: round * 1000 + i, pad });
    for (const id of ids.slice(0, 100)) coll.delete(id);
    const s = coll.stats();
    expect(s.records).toBe(400);
    // 20 versions of each were written: all but the last are garbage, and most of it was reclaimed
    expect(s.garbageBytes).toBeLessThan(Math.max(s.liveBytes, 4 << 20) + 4096);
    expect(s.chunks).toBeLessThan(8);
    expect([...coll.ids()]).toEqual(ids.slice(100));
    expect(coll.get(ids[250]!)!.v).toBe(19 * 1000 + 250);
  });

  it('hands out copies: changing one never changes the store', () => {
    const coll = new PackedCollection<{ id: string; status: string }>(new Codec());
    const id = randomUUID();
    coll.set(id, { id, status: 'PROCESSING' });
    const a = coll.view[id]!;
    a.status = 'COMPLETED';
    expect(coll.get(id)!.status).toBe('PROCESSING');
  });
});
