// Balances, derived from the ledger and never stored: each entry moves its amount from one ledger
// account to another, and a balance is what arrived less what left. Kept by every ledger change
// (an undone change reverses its entries), so a balance read is one Map lookup.
import type { LedgerEntry, LedgerRef } from './model.js';

export interface BalanceReader {
  /** the balance of a ledger account, in cents */
  of(ref: LedgerRef): number;
}

export class Balances implements BalanceReader {
  readonly #map = new Map<LedgerRef, number>();

  of(ref: LedgerRef): number {
    return this.#map.get(ref) ?? 0;
  }

  /** Ledger entries are append-only: a replacement moves nothing; a removal (reset, undo) reverses one. */
  apply(before: Readonly<LedgerEntry> | undefined, after: Readonly<LedgerEntry> | undefined): void {
    const e = after ?? before;
    if (!e || (before && after)) return;
    const sign = after ? 1 : -1;
    this.#add(e.from, -sign * e.amount);
    this.#add(e.to, sign * e.amount);
  }

  #add(ref: LedgerRef, delta: number): void {
    this.#map.set(ref, (this.#map.get(ref) ?? 0) + delta);
  }
}
