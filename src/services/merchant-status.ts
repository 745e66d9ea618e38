// Merchant status changes (docs/decisions.md#d3-merchant-status-is-the-operators). Only the status moves; its effects follow from it
// wherever they apply: the token endpoint refuses an inactive merchant, authentication refuses
// its live tokens, and a split to its wallet is refused when a charge is created.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { merchantTransition } from '../domain/transitions.js';
import type { Merchant, MerchantStatus } from '../store/model.js';
import type { Tx } from '../store/store.js';

export function setMerchantStatus(tx: Tx, ctx: AppContext, id: string, status: MerchantStatus): Readonly<Merchant> {
  const before = tx.merchants.get(id);
  if (!before) throw notFound(`merchant ${id}`);
  const after: Merchant = {
    ...before,
    status: merchantTransition(before.status, status),
    updatedAt: ctx.clockOf(before.accountId).nowIso(),
  };
  return tx.put('merchants', after);
}
