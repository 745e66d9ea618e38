// GET /v1/banking/transactions/{transactionId}: one transaction, in the lookup envelope. An
// account sees its own and its merchants'; a merchant only its own; anything else is 404.
import { notFound } from '../domain/errors.js';
import { formatLookup, LOOKUP_FIELDS, type LookupView } from '../format/transactions.js';
import { principalOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';

export const transactionOperations = [
  route({
    method: 'get',
    path: '/v1/banking/transactions/{transactionId}',
    tag: 'Banking',
    auth: 'bearer',
    summary: 'Look up a transaction',
    responses: { 200: ok(R.lookupResponseSchema) },
    handle({ ctx, req, res }) {
      const id = uuidParam(req, 'transactionId');
      const p = principalOf(res);
      // only the fields the lookup shows are decoded (a charge's code, QR data and the rest are not)
      const t = ctx.store.transactions.getFields(id, LOOKUP_FIELDS) as LookupView | undefined;
      const visible = t && t.accountId === p.account.id && (p.kind === 'account' || t.merchantId === p.merchant!.id);
      if (!visible) throw notFound(`transaction ${id}`);
      res.json(formatLookup(t));
    },
  }),
];
