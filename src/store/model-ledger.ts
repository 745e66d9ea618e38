// The ledger: every movement of money, as double-entry records (docs/api.md#money-and-the-ledger).
// Part of the one data model (./model.ts re-exports it); the entry is declared by its JSON Schema
// in src/schemas/records.ts, which cannot say what a ledger account's name looks like: that is here.
import type { Wire } from '../schemas/from-schema.js';
import type { ledgerEntrySchema } from '../schemas/records.js';
import type { Stored } from './model-meta.js';

/** A ledger account: an account's main balance, a wallet, or the world outside the sandbox. */
export type LedgerRef = `account:${string}` | `wallet:${string}` | 'world';

/**
 * One double-entry movement: `amount` leaves `from` and arrives at `to` (a pair of postings
 * held as one record). A balance is the sum of what arrived less the sum of what left.
 */
export type LedgerEntry = Stored & Omit<Wire<typeof ledgerEntrySchema>, 'from' | 'to'> & { from: LedgerRef; to: LedgerRef };
