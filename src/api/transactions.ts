// GET /v1/banking/transactions/{transactionId}: one transaction, in the lookup envelope (who sees
// what: services/banking.ts lookupTransaction).
import { formatLookup } from '../format/transactions.js';
import { actorOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { lookupTransaction } from '../services/banking.js';

export const transactionOperations = [
  route({
    method: 'get',
    path: '/v1/banking/transactions/{transactionId}',
    tag: 'Banking',
    auth: 'bearer',
    summary: 'Look up a transaction',
    responses: { 200: ok(R.lookupResponseSchema) },
    handle({ ctx, req, res }) {
      res.json(formatLookup(lookupTransaction(ctx.store, actorOf(res), uuidParam(req, 'transactionId'))));
    },
  }),
];
