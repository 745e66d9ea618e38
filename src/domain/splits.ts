// Split of a charge between wallets (docs/decisions.md#d16-splits). Shares are computed once, at creation, so that
// the amounts credited on payment are exactly the ones the client was told about.

import type { SplitMode, SplitShare } from '../store/model.js';
import { alternatives, SPLIT_MODES } from './vocabulary.js';

export interface SplitRequest {
  amount: number;
  mode: SplitMode;
  wallet_id: string;
}

interface SplitIssue {
  path: string;
  message: string;
}

export type SplitResult =
  | { ok: true; shares: SplitShare[]; remainder: number }
  | { ok: false; code: 'SPLIT_EXCEEDS_AMOUNT' | 'VALIDATION_ERROR'; message: string; details: SplitIssue[] };

const MAX_SPLITS = 10;

function shareOf(total: number, request: SplitRequest, i: number, issues: SplitIssue[]): number | null {
  const { amount, mode } = request;
  if (mode === 'FIXED') {
    if (Number.isSafeInteger(amount) && amount >= 1) return amount;
    issues.push({ path: `/split/${i}/amount`, message: 'a FIXED split amount must be an integer of cents, at least 1' });
    return null;
  }
  if (mode === 'PERCENTAGE') {
    // Rounding down means the receiver, never the split wallets, absorbs the fractions of a cent.
    if (Number.isInteger(amount) && amount >= 1 && amount <= 100) return Math.floor((total * amount) / 100);
    issues.push({ path: `/split/${i}/amount`, message: 'a PERCENTAGE split amount must be an integer from 1 to 100' });
    return null;
  }
  issues.push({ path: `/split/${i}/mode`, message: `mode must be ${alternatives(SPLIT_MODES)}` });
  return null;
}

export function computeSplits(total: number, requests: SplitRequest[]): SplitResult {
  const issues: SplitIssue[] = [];
  if (!Number.isSafeInteger(total) || total < 0) {
    issues.push({ path: '/amount', message: 'amount must be an integer of cents' });
  }
  if (requests.length > MAX_SPLITS) {
    issues.push({ path: '/split', message: `split accepts at most ${MAX_SPLITS} entries` });
  }
  const seen = new Set<string>();
  const shares: SplitShare[] = [];
  requests.forEach((request, i) => {
    const walletId = request.wallet_id;
    if (typeof walletId !== 'string' || walletId.length === 0) {
      issues.push({ path: `/split/${i}/wallet_id`, message: 'wallet_id is required' });
    } else if (seen.has(walletId)) {
      issues.push({ path: `/split/${i}/wallet_id`, message: `wallet ${walletId} appears more than once in the split` });
    } else {
      seen.add(walletId);
    }
    const share = shareOf(total, request, i, issues);
    if (share !== null) shares.push({ walletId, mode: request.mode, value: request.amount, share });
  });
  if (issues.length > 0) {
    return { ok: false, code: 'VALIDATION_ERROR', message: issues[0]?.message ?? 'invalid split', details: issues };
  }
  const sum = shares.reduce((acc, s) => acc + s.share, 0);
  if (sum > total) {
    const message = `the split shares add up to ${sum} cents, more than the charge amount of ${total} cents`;
    return { ok: false, code: 'SPLIT_EXCEEDS_AMOUNT', message, details: [{ path: '/split', message }] };
  }
  return { ok: true, shares, remainder: total - sum };
}
