import { describe, expect, it } from 'vitest';
import { computeSplits, type SplitRequest } from '../../src/domain/splits.js';

const fixed = (amount: number, wallet_id: string): SplitRequest => ({ amount, mode: 'FIXED', wallet_id });
const pct = (amount: number, wallet_id: string): SplitRequest => ({ amount, mode: 'PERCENTAGE', wallet_id });

describe('computeSplits', () => {
  it('gives FIXED shares in cents and the remainder to the receiver', () => {
    const r = computeSplits(10_000, [fixed(1_500, 'w1'), fixed(2_000, 'w2')]);
    expect(r).toEqual({
      ok: true,
      shares: [
        { walletId: 'w1', mode: 'FIXED', value: 1_500, share: 1_500 },
        { walletId: 'w2', mode: 'FIXED', value: 2_000, share: 2_000 },
      ],
      remainder: 6_500,
    });
  });

  it('rounds PERCENTAGE shares down', () => {
    const r = computeSplits(999, [pct(33, 'a'), pct(33, 'b'), pct(33, 'c')]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.shares.map((s) => s.share)).toEqual([329, 329, 329]);
    expect(r.remainder).toBe(999 - 3 * 329);
  });

  it('mixes modes', () => {
    const r = computeSplits(1_050, [pct(10, 'a'), fixed(1, 'b')]);
    expect(r).toMatchObject({ ok: true, remainder: 1_050 - 105 - 1 });
  });

  it('allows the shares to equal the total exactly', () => {
    expect(computeSplits(100, [pct(100, 'a')])).toMatchObject({ ok: true, remainder: 0 });
    expect(computeSplits(100, [fixed(60, 'a'), pct(40, 'b')])).toMatchObject({ ok: true, remainder: 0 });
  });

  it('refuses shares that exceed the total with SPLIT_EXCEEDS_AMOUNT', () => {
    const r = computeSplits(100, [fixed(60, 'a'), pct(41, 'b')]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('SPLIT_EXCEEDS_AMOUNT');
    expect(r.message).toMatch(/101/);
    expect(computeSplits(100, [fixed(101, 'a')])).toMatchObject({ ok: false, code: 'SPLIT_EXCEEDS_AMOUNT' });
  });

  it('refuses a wallet that appears twice, pointing at the second one', () => {
    const r = computeSplits(1_000, [fixed(1, 'a'), fixed(1, 'b'), pct(1, 'a')]);
    expect(r).toMatchObject({ ok: false, code: 'VALIDATION_ERROR' });
    if (r.ok) return;
    expect(r.details).toEqual([{ path: '/split/2/wallet_id', message: expect.stringContaining('more than once') }]);
  });

  it('refuses FIXED amounts below one cent or fractional', () => {
    for (const amount of [0, -5, 1.5, Number.NaN]) {
      const r = computeSplits(1_000, [fixed(amount, 'a')]);
      expect(r).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', details: [{ path: '/split/0/amount' }] });
    }
  });

  it('refuses PERCENTAGE amounts outside 1–100 or fractional', () => {
    for (const amount of [0, 101, 12.5]) {
      const r = computeSplits(1_000, [fixed(1, 'a'), pct(amount, 'b')]);
      expect(r).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', details: [{ path: '/split/1/amount' }] });
    }
  });

  it('reports every validation problem at once, before checking the sum', () => {
    const r = computeSplits(10, [fixed(0, 'a'), fixed(500, 'a'), { amount: 1, mode: 'OTHER' as never, wallet_id: '' }]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe('VALIDATION_ERROR');
    expect(r.details.map((d) => d.path).sort()).toEqual(['/split/0/amount', '/split/1/wallet_id', '/split/2/mode', '/split/2/wallet_id']);
  });

  it('refuses more than ten entries', () => {
    const many = Array.from({ length: 11 }, (_, i) => fixed(1, `w${i}`));
    expect(computeSplits(1_000, many)).toMatchObject({ ok: false, code: 'VALIDATION_ERROR', details: [{ path: '/split' }] });
    expect(computeSplits(1_000, many.slice(0, 10))).toMatchObject({ ok: true, remainder: 990 });
  });

  it('with no split, the whole amount is the remainder', () => {
    expect(computeSplits(1_234, [])).toEqual({ ok: true, shares: [], remainder: 1_234 });
  });

  it('stays exact at the largest amount', () => {
    const r = computeSplits(1_000_000_000, [pct(37, 'a'), fixed(999_999, 'b')]);
    expect(r).toMatchObject({ ok: true, remainder: 1_000_000_000 - 370_000_000 - 999_999 });
  });
});
