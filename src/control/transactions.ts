// /_sandbox/transactions (CONTRACT §12): every account's transactions, newest first, filtered
// by accountId, type, status and externalId, at most `limit` (default 100, max 1000); and one
// transaction in full (an extension for the dashboard): the record, its QR image, its ledger
// entries and its events.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { formatTransaction, formatTransactionDetail } from '../format/control.js';
import { uuidParam, type Routes } from '../http/routes.js';
import { transactionListQuerySchema, type TransactionListQuery } from '../schemas/control.js';
import { validateQuery } from '../schemas/validator.js';
import type { Transaction } from '../store/model.js';
import { ownRecord } from '../store/packed.js';

export function listTransactions(data: { transactions: Record<string, Transaction> }, q: TransactionListQuery): Transaction[] {
  const accountId = q.accountId?.toLowerCase();
  const all = Object.values(data.transactions);
  const out: Transaction[] = [];
  // records are kept in creation order: walking backwards gives newest first without a sort
  for (let i = all.length - 1; i >= 0; i--) {
    const t = all[i]!;
    if (accountId && t.accountId !== accountId) continue;
    if (q.type && t.type !== q.type) continue;
    if (q.status && t.status !== q.status) continue;
    if (q.externalId && (t.type !== 'CASH_IN' || t.externalId !== q.externalId)) continue;
    out.push(t);
  }
  // stable: records created within the same millisecond keep their creation order
  out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  return out.slice(0, q.limit);
}

export function controlTransactionRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/transactions', (req, res) => {
    const q = validateQuery<TransactionListQuery>(transactionListQuerySchema, req.query);
    res.json(listTransactions(ctx.store.data, q).map(formatTransaction));
  });

  routes.get('/_sandbox/transactions/:id', (req, res) => {
    const id = uuidParam(req, 'id');
    const t = ownRecord(ctx.store.data.transactions, id);
    if (!t) throw notFound(`transaction ${id}`);
    res.json(formatTransactionDetail(t, ctx.store.data));
  });
}
