// /_sandbox/transactions (docs/control-api.md): every account's transactions, newest first (by creation
// order: tenants' clocks may differ), filtered by accountId, type, status and externalId, a page of
// at most `limit` (default 100, max 1000) at a time; and one transaction in full (an extension for
// the dashboard): the record, its QR image, its ledger entries and its events. Each filter is
// served by a declared index (store/schema.ts), so a page costs its limit, not the store's size.
import { formatTransaction, formatTransactionDetail } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { transactionListQuerySchema, type TransactionListQuery } from '../schemas/control.js';
import { controlTag, ok } from '../schemas/operation.js';
import { paged } from '../schemas/paging.js';
import * as R from '../schemas/responses.js';
import { CHARGE_STATUSES, TRANSFER_STATUSES } from '../domain/vocabulary.js';
import type { Transaction, TransactionStatus, TransactionType } from '../store/model.js';
import { mergeBySeq, takePage, type Page } from '../store/page.js';
import { accountStatusKey } from '../store/schema.js';
import type { Reads } from '../store/store.js';
import { sendPage } from './paging.js';
import { accountFilter, own } from './scope.js';

const STATUSES: Record<TransactionType, readonly TransactionStatus[]> = { CASH_IN: CHARGE_STATUSES, CASH_OUT: TRANSFER_STATUSES };
/** records looked at for one page when a filter is applied beyond the index (externalId with others) */
const BUDGET = 5_000;

/** The transactions a query asks for, one page, through the index that answers it. */
function listTransactions(data: Reads, q: TransactionListQuery): Page<Readonly<Transaction>> {
  const accountId = q.accountId?.toLowerCase();
  const opts = { after: q.after };
  const tx = data.transactions;
  if (q.type && q.status && !STATUSES[q.type].includes(q.status)) return { items: [], next: null };
  const statuses = q.status ? [q.status] : q.type ? STATUSES[q.type] : null;
  if (q.externalId) {
    const keep = (t: Readonly<Transaction>) => (!accountId || t.accountId === accountId) && (!statuses || statuses.includes(t.status));
    return takePage(tx.find('byExternalId', q.externalId, opts), q.limit, keep, BUDGET);
  }
  if (accountId && statuses)
    return takePage(mergeBySeq(statuses.map((s) => tx.find('byAccountStatus', accountStatusKey(accountId, s), opts))), q.limit);
  if (accountId) return takePage(tx.find('byAccount', accountId, opts), q.limit);
  if (statuses) return takePage(mergeBySeq(statuses.map((s) => tx.find('byStatus', s, opts))), q.limit);
  return takePage(tx.scan(opts), q.limit);
}

const tag = controlTag('transactions');

export const controlTransactionOperations = [
  adminRoute<never, TransactionListQuery>({
    method: 'get',
    path: '/_sandbox/transactions',
    tag,
    scope: 'tenant',
    summary: 'Transactions, newest first (by creation), a page at a time',
    query: transactionListQuerySchema,
    responses: { 200: paged(R.transactionSchema) },
    handle({ ctx, req, res, query: q, tenant }) {
      const accountId = accountFilter(tenant, ctx.store, q.accountId);
      sendPage(req, res, listTransactions(ctx.store, { ...q, ...(accountId ? { accountId } : {}) }), formatTransaction);
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/transactions/{id}',
    tag,
    scope: 'tenant',
    summary: 'One transaction with its QR image, ledger entries and events',
    responses: { 200: ok(R.transactionDetailSchema) },
    handle({ ctx, req, res, tenant }) {
      const id = uuidParam(req, 'id');
      const { transactions, ledger, events } = ctx.store;
      const t = own(tenant, transactions.get(id), `transaction ${id}`);
      const oldest = { order: 'oldest' } as const;
      res.json(formatTransactionDetail(t, ledger.find('byTransaction', id, oldest), events.find('byTransaction', id, oldest)));
    },
  }),
];
