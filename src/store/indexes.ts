// Derived, in-memory views of the data, never persisted: rebuilt at load, then kept current
// by every put and delete. They make the hot reads O(1): balances (sums of ledger entries),
// credentials by client_id, documents per account, and the open work the clock must look at.
import type { Data, EntityOf, CollectionName, LedgerRef } from './model.js';

export type Principal = { kind: 'account'; id: string } | { kind: 'merchant'; id: string };

export class Indexes {
  readonly balances = new Map<LedgerRef, number>();
  readonly byClientId = new Map<string, Principal>();
  readonly merchantByDocument = new Map<string, string>();
  /** transactions that can still change on their own: WAITING_PAYMENT or PROCESSING */
  readonly openTransactions = new Set<string>();
  readonly pendingDeliveries = new Set<string>();

  static build(data: Data): Indexes {
    const ix = new Indexes();
    for (const c of Object.keys(data) as (keyof Data)[]) {
      if (c === 'meta') continue;
      for (const rec of Object.values(data[c]) as EntityOf<typeof c>[]) ix.update(c, undefined, rec);
    }
    return ix;
  }

  balance(ref: LedgerRef): number {
    return this.balances.get(ref) ?? 0;
  }

  update<C extends CollectionName>(c: C, before: EntityOf<C> | undefined, after: EntityOf<C> | undefined): void {
    switch (c) {
      case 'ledger': {
        // ledger entries are append-only; a removal (only by reset or undo) reverses the entry
        const sign = after ? 1 : -1;
        const e = (after ?? before) as EntityOf<'ledger'> | undefined;
        if (!e || (before && after)) return;
        this.#add(e.from, -sign * e.amount);
        this.#add(e.to, sign * e.amount);
        return;
      }
      case 'accounts':
      case 'merchants': {
        const b = before as EntityOf<'accounts'> | undefined;
        const a = after as EntityOf<'accounts'> | undefined;
        const kind = c === 'accounts' ? 'account' : 'merchant';
        if (b) this.byClientId.delete(b.clientId);
        if (a) this.byClientId.set(a.clientId, { kind, id: a.id });
        if (c === 'merchants') {
          const bm = before as EntityOf<'merchants'> | undefined;
          const am = after as EntityOf<'merchants'> | undefined;
          if (bm) this.merchantByDocument.delete(`${bm.accountId}:${bm.document}`);
          if (am) this.merchantByDocument.set(`${am.accountId}:${am.document}`, am.id);
        }
        return;
      }
      case 'transactions': {
        const t = after as EntityOf<'transactions'> | undefined;
        const id = (t ?? (before as EntityOf<'transactions'>)).id;
        if (t && (t.status === 'WAITING_PAYMENT' || t.status === 'PROCESSING')) this.openTransactions.add(id);
        else this.openTransactions.delete(id);
        return;
      }
      case 'deliveries': {
        const d = after as EntityOf<'deliveries'> | undefined;
        const id = (d ?? (before as EntityOf<'deliveries'>)).id;
        if (d && d.status === 'PENDING') this.pendingDeliveries.add(id);
        else this.pendingDeliveries.delete(id);
        return;
      }
      default:
        return;
    }
  }

  #add(ref: LedgerRef, delta: number): void {
    this.balances.set(ref, (this.balances.get(ref) ?? 0) + delta);
  }
}
