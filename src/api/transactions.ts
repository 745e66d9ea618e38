// GET /v1/banking/transactions/{transactionId}: one transaction, in the lookup envelope. An
// account sees its own and its merchants'; a merchant only its own; anything else is 404.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { envelope, formatLookup, LOOKUP_FIELDS, type LookupView } from '../format/transactions.js';
import { authenticate, principalOf } from '../http/auth.js';
import { uuidParam, type Routes } from '../http/routes.js';

export function transactionRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/v1/banking/transactions/:transactionId', authenticate(ctx), (req, res) => {
    const id = uuidParam(req, 'transactionId');
    const p = principalOf(res);
    // only the fields the lookup shows are decoded (a charge's code, QR data and the rest are not)
    const t = ctx.store.transactions.getFields(id, LOOKUP_FIELDS) as LookupView | undefined;
    const visible = t && t.accountId === p.account.id && (p.kind === 'account' || t.merchantId === p.merchant!.id);
    if (!visible) throw notFound(`transaction ${id}`);
    res.json(envelope('Transaction retrieved successfully', formatLookup(t)));
  });
}
