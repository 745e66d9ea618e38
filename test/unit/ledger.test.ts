import { describe, expect, it } from 'vitest';
import { accountRef, balanceFromEntries, entryFor, walletRef, type Movement } from '../../src/domain/ledger.js';
import { SandboxError } from '../../src/domain/errors.js';
import type { LedgerEntry, LedgerRef, New } from '../../src/store/model.js';

/** A tiny ledger: entries appended only through entryFor, balances kept as running sums. */
function ledger() {
  const entries: New<LedgerEntry>[] = [];
  const sums = new Map<LedgerRef, number>();
  const balance = (r: LedgerRef) => sums.get(r) ?? 0;
  let n = 0;
  return {
    entries,
    balance,
    move(m: Omit<Movement, 'transactionId' | 'kind'> & Partial<Movement>) {
      const e = entryFor(balance, { kind: 'ADJUSTMENT', transactionId: null, ...m }, `e${++n}`, '2026-01-01T00:00:00.000Z');
      entries.push(e);
      sums.set(e.from, balance(e.from) - e.amount);
      sums.set(e.to, balance(e.to) + e.amount);
      return e;
    },
  };
}

const A = accountRef('a');
const W = walletRef('w');

describe('entryFor', () => {
  it('records one movement as a pair: what leaves one ledger account arrives at the other', () => {
    const l = ledger();
    const e = l.move({ from: 'world', to: A, amount: 1_000, kind: 'OPENING', memo: 'opening' });
    expect(e).toEqual({
      id: 'e1',
      from: 'world',
      to: A,
      amount: 1_000,
      transactionId: null,
      kind: 'OPENING',
      memo: 'opening',
      at: '2026-01-01T00:00:00.000Z',
    });
    l.move({ from: A, to: W, amount: 400 });
    expect([l.balance(A), l.balance(W), l.balance('world')]).toEqual([600, 400, -1_000]);
    expect(l.balance(A) + l.balance(W) + l.balance('world')).toBe(0);
  });

  it('refuses to take a balance below zero, and names both amounts', () => {
    const l = ledger();
    l.move({ from: 'world', to: A, amount: 100 });
    try {
      l.move({ from: A, to: 'world', amount: 101 });
      throw new Error('expected INSUFFICIENT_FUNDS');
    } catch (e) {
      expect(e).toBeInstanceOf(SandboxError);
      expect((e as SandboxError).code).toBe('INSUFFICIENT_FUNDS');
      expect((e as SandboxError).status).toBe(422);
      expect((e as SandboxError).message).toMatch(/100 cents.*101 cents/);
    }
    expect(l.move({ from: A, to: 'world', amount: 100 }).amount).toBe(100);
    expect(l.balance(A)).toBe(0);
  });

  it('accepts only positive integer cents', () => {
    const l = ledger();
    for (const amount of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => l.move({ from: 'world', to: A, amount })).toThrow(/positive integer of cents/);
    }
    expect(l.entries).toHaveLength(0);
  });
});

describe('balanceFromEntries', () => {
  it('agrees with the running balances over a seeded random walk, and no balance ever goes below zero', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const refs: LedgerRef[] = [A, W, accountRef('b'), walletRef('v')];
    const l = ledger();
    let refused = 0;
    for (let i = 0; i < 500; i++) {
      const from = random() < 0.3 ? 'world' : refs[Math.floor(random() * refs.length)]!;
      const to = random() < 0.3 ? 'world' : refs[Math.floor(random() * refs.length)]!;
      if (from === to) continue;
      try {
        l.move({ from, to, amount: 1 + Math.floor(random() * 5_000) });
      } catch (e) {
        expect((e as SandboxError).code).toBe('INSUFFICIENT_FUNDS');
        refused++;
      }
      for (const r of refs) {
        expect(l.balance(r)).toBeGreaterThanOrEqual(0);
        expect(balanceFromEntries(l.entries, r)).toBe(l.balance(r));
      }
    }
    expect(refused).toBeGreaterThan(0);
    const total = refs.reduce((s, r) => s + l.balance(r), 0);
    expect(total + balanceFromEntries(l.entries, 'world')).toBe(0);
  });
});
