// The strict check of docs/decisions.md#d17-the-br-code on a dynamic charge's BR Code, with its own TLV walk written
// apart from src/domain/brcode.ts so that the check does not share the builder's bugs. Used by
// the unit tests of the builder and by the cash-in tests on every code the API answers.
import { expect } from 'vitest';
import { crc16 } from '../../src/domain/brcode.js';

/** A TLV walk written separately from the module under test, so the check does not share its bugs. */
export function walk(s: string): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < s.length;) {
    const len = Number(s.slice(i + 2, i + 4));
    out.push([s.slice(i, i + 2), s.slice(i + 4, i + 4 + len)]);
    i += 4 + len;
  }
  return out;
}

/** Every rule of docs/decisions.md#d17-the-br-code for the BR Code of a dynamic charge. */
export function expectContractShape(code: string, location: string, amount: string): void {
  const items = walk(code);
  expect(items.map(([id]) => id)).toEqual(['00', '01', '26', '52', '53', '54', '58', '59', '60', '62', '63']);
  const get = (id: string) => items.find(([i]) => i === id)![1];
  expect(get('00')).toBe('01');
  expect(get('01')).toBe('12');
  expect(get('26').length).toBeLessThanOrEqual(99);
  expect(walk(get('26'))).toEqual([
    ['00', 'br.gov.bcb.pix'],
    ['25', location],
  ]);
  expect(location.length).toBeLessThanOrEqual(77);
  expect(get('52')).toBe('0000');
  expect(get('53')).toBe('986');
  expect(get('54')).toBe(amount);
  expect(get('58')).toBe('BR');
  expect(get('59')).toMatch(/^[A-Z0-9 ]{1,25}$/);
  expect(get('60')).toMatch(/^[A-Z0-9 ]{1,15}$/);
  expect(walk(get('62'))).toEqual([['05', '***']]);
  expect(code.slice(-8, -4)).toBe('6304');
  expect(get('63')).toMatch(/^[0-9A-F]{4}$/);
  expect(get('63')).toBe(crc16(code.slice(0, -4)));
}
