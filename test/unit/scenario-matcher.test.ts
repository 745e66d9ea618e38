import { describe, expect, it } from 'vitest';
import { match } from '../../src/scenarios/matcher.js';

const ok = (expected: unknown, actual: unknown) => expect(match(expected, actual)).toEqual([]);
const paths = (expected: unknown, actual: unknown) => match(expected, actual, '/body').map((m) => m.path);

describe('scenario matcher', () => {
  it('compares scalars exactly, with no type coercion', () => {
    ok('PAID', 'PAID');
    ok(1050, 1050);
    ok(null, null);
    ok(false, false);
    expect(match(1050, '1050')).toHaveLength(1);
    expect(match('a', 'b')[0]).toMatchObject({ path: '', expected: 'a', actual: 'b', message: 'expected "a", got "b"' });
  });

  it('matches objects partially and names each differing field by JSON Pointer', () => {
    ok({ data: { status: 'PAID' } }, { statusCode: 200, data: { status: 'PAID', id: 'x' } });
    expect(paths({ data: { status: 'PAID', amount: 1 } }, { data: { status: 'EXPIRED', amount: 2 } })).toEqual([
      '/body/data/status',
      '/body/data/amount',
    ]);
    expect(paths({ 'a/b': { '~c': 1 } }, { 'a/b': { '~c': 2 } })).toEqual(['/body/a~1b/~0c']);
    expect(match({ data: {} }, { data: [] })[0]!.message).toBe('expected an object, got array');
  });

  it('reports a missing key as absent', () => {
    expect(match({ payer: 'x' }, {})[0]).toMatchObject({ path: '/payer', message: 'is absent', actual: undefined });
  });

  it('matches arrays element by element, with the same length', () => {
    ok([{ statusCode: 500 }, { statusCode: 200 }], [{ statusCode: 500, at: 't' }, { statusCode: 200 }]);
    expect(match([1, 2], [1, 2, 3])[0]!.message).toBe('expected 2 item(s), got 3');
    expect(paths([1, { a: 2 }], [1, { a: 3 }])).toEqual(['/body/1/a']);
  });

  it('checks types, including uuid, integer and date-time', () => {
    ok({ $type: 'string' }, 'x');
    ok({ $type: 'integer' }, 3);
    ok({ $type: ['string', 'null'] }, null);
    ok({ $type: 'uuid' }, '6f1c2d3e-0000-4000-8000-000000000001');
    ok({ $type: 'date-time' }, '2026-01-02T03:04:05.678Z');
    expect(match({ $type: 'integer' }, 3.5)).toHaveLength(1);
    expect(match({ $type: 'uuid' }, 'not-a-uuid')).toHaveLength(1);
    expect(match({ $type: 'date-time' }, '2026-01-02')).toHaveLength(1);
    expect(match({ $type: 'array' }, {})[0]!.message).toBe('expected array, got object');
  });

  it('matches regular expressions against strings', () => {
    ok({ $regex: '^E[0-9]{8}' }, 'E12345678abc');
    expect(match({ $regex: '^E' }, 'X1')[0]!.message).toBe('does not match /^E/');
    expect(match({ $regex: '^E' }, { a: 1 })).toHaveLength(1);
    expect(match({ $regex: '(' }, 'x')[0]!.message).toMatch(/invalid regular expression/);
  });

  it('tells present from absent', () => {
    ok({ error: { $present: false } }, { status: 'PAID' });
    ok({ error: { $present: true } }, { error: null });
    expect(match({ error: { $present: false } }, { error: { code: 'X' } })[0]).toMatchObject({
      path: '/error',
      message: 'should be absent',
    });
    expect(match({ error: { $present: true } }, {})[0]).toMatchObject({ path: '/error', message: 'is absent' });
    // an operator on an absent key fails as absent
    expect(match({ id: { $type: 'string' } }, {})[0]!.message).toBe('is absent');
  });

  it('supports $length, comparisons, $contains and $eq', () => {
    ok({ $length: 32 }, 'E'.repeat(32));
    ok({ $length: { $gte: 1 } }, [1]);
    expect(match({ $length: 3 }, [1, 2])[0]!.message).toMatch(/^length 2/);
    ok({ $gt: 1, $lte: 2 }, 2);
    expect(match({ $lt: 2 }, 2)).toHaveLength(1);
    expect(match({ $gte: 2 }, '3')).toHaveLength(1);
    ok({ $contains: [{ path: '/document' }] }, [{ path: '/x' }, { path: '/document', message: 'm' }]);
    expect(match({ $contains: [{ a: 1 }, { a: 1 }] }, [{ a: 1 }])).toHaveLength(1);
    ok({ $eq: { $type: 'literal' } }, { $type: 'literal' });
    expect(match({ $eq: { a: 1 } }, { a: 1, b: 2 })).toHaveLength(1);
  });

  it('combines operators: every one must hold', () => {
    ok({ $type: 'string', $regex: '^a', $length: 3 }, 'abc');
    expect(match({ $type: 'string', $regex: '^b', $length: 4 }, 'abc')).toHaveLength(2);
  });

  it('rejects unknown operators instead of ignoring them', () => {
    expect(match({ $typo: 'x' }, 'x')[0]!.message).toBe('unknown matcher operator $typo');
  });
});
