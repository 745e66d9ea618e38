// Double-entry money in integer cents. An entry moves an amount from one ledger account to
// another; a balance is what arrived less what left. Only the world outside may go negative.
import { SandboxError } from './errors.js';
import type { LedgerEntry, LedgerRef, New } from '../store/model.js';

/** The largest amount of one charge or transfer, in cents (R$ 10,000,000.00). */
export const MAX_AMOUNT = 1_000_000_000;

export const accountRef = (accountId: string): LedgerRef => `account:${accountId}`;
export const walletRef = (walletId: string): LedgerRef => `wallet:${walletId}`;

export type Balances = (ref: LedgerRef) => number;

export interface Movement {
  from: LedgerRef;
  to: LedgerRef;
  amount: number;
  kind: LedgerEntry['kind'];
  transactionId: string | null;
  memo?: string;
}

/** Checks a movement against current balances and returns its entry; throws INSUFFICIENT_FUNDS. */
export function entryFor(balances: Balances, m: Movement, id: string, at: string): New<LedgerEntry> {
  if (!Number.isSafeInteger(m.amount) || m.amount <= 0)
    throw new SandboxError('VALIDATION_ERROR', 'a movement amount must be a positive integer of cents');
  if (m.from !== 'world' && balances(m.from) < m.amount)
    throw new SandboxError(
      'INSUFFICIENT_FUNDS',
      `insufficient funds: the balance is ${balances(m.from)} cents and ${m.amount} cents are needed`,
    );
  const entry: New<LedgerEntry> = { id, from: m.from, to: m.to, amount: m.amount, transactionId: m.transactionId, kind: m.kind, at };
  if (m.memo !== undefined) entry.memo = m.memo;
  return entry;
}

/** A balance recomputed from the entries alone (tests and audits compare it with the index). */
export function balanceFromEntries(entries: Iterable<Readonly<New<LedgerEntry>>>, ref: LedgerRef): number {
  let sum = 0;
  for (const e of entries) {
    if (e.to === ref) sum += e.amount;
    if (e.from === ref) sum -= e.amount;
  }
  return sum;
}
