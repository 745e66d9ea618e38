import { describe, expect, it } from 'vitest';
import { generateEndToEndId, isEndToEndId, ISPBS, SANDBOX_ISPB } from '../../src/domain/end-to-end.js';
import { vectors as vectorsOf } from '../helpers/vectors.js';

const vectors = {
  end_to_end_id: vectorsOf('end_to_end_id'),
  ispb: vectorsOf('ispb'),
};
const pattern = new RegExp(vectors.end_to_end_id.pattern);

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

describe('isEndToEndId', () => {
  it.each(vectors.end_to_end_id.valid)('accepts %s', (id) => expect(isEndToEndId(id)).toBe(true));
  it.each(vectors.end_to_end_id.invalid)('rejects %s', (id) => expect(isEndToEndId(id)).toBe(false));
});

describe('generateEndToEndId', () => {
  it('is E, the ISPB, the UTC minute and 11 alphanumerics: 32 characters', () => {
    const id = generateEndToEndId('90400888', new Date('2021-01-28T00:08:59.999Z'), seeded(1));
    expect(id).toHaveLength(32);
    expect(id.slice(0, 21)).toBe('E9040088820210128' + '0008');
    expect(id.slice(21)).toMatch(/^[a-zA-Z0-9]{11}$/);
    expect(pattern.test(id)).toBe(true);
    expect(isEndToEndId(id)).toBe(true);
  });

  it('uses UTC, not local time', () => {
    // 23:30 on Dec 31st in São Paulo is already the next year in UTC.
    const id = generateEndToEndId(SANDBOX_ISPB, new Date('2024-12-31T23:30:00-03:00'), seeded(2));
    expect(id.slice(9, 21)).toBe('202501010230');
  });

  it('matches the vectors pattern for many instants and random sources', () => {
    const random = seeded(3);
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const at = new Date(Date.UTC(2000, 0, 1) + Math.floor(random() * 40 * 365 * 86_400_000));
      const id = generateEndToEndId(SANDBOX_ISPB, at, random);
      expect(pattern.test(id), id).toBe(true);
      ids.add(id);
    }
    expect(ids.size).toBe(1000);
  });

  it('stays in the alphabet at the edges of the random source', () => {
    expect(generateEndToEndId('00000000', new Date(0), () => 0).slice(21)).toBe('AAAAAAAAAAA');
    expect(generateEndToEndId('00000000', new Date(0), () => 0.9999999999).slice(21)).toBe('99999999999');
  });

  it('refuses an ISPB that is not 8 digits and an invalid date', () => {
    expect(() => generateEndToEndId('1234567', new Date(0), Math.random)).toThrow(/ISPB/);
    expect(() => generateEndToEndId('1234567a', new Date(0), Math.random)).toThrow(/ISPB/);
    expect(() => generateEndToEndId(SANDBOX_ISPB, new Date('nope'), Math.random)).toThrow();
  });
});

describe('ISPBS', () => {
  it('is the participant list of the vectors and contains the sandbox ISPB', () => {
    expect(ISPBS).toEqual(vectors.ispb);
    expect(SANDBOX_ISPB).toBe('18236120');
    expect(ISPBS[SANDBOX_ISPB]).toBe('Nu Pagamentos');
  });
});
