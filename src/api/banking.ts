// The reads of a principal's money (services/banking.ts): GET /v1/banking/transactions/{transactionId},
// one transaction in the lookup envelope (an account sees its own and its merchants', a merchant only
// its own); GET /v1/banking/balance, the account's main balance or, for a merchant token, its main
// wallet's.
import { formatBalance, formatLookup } from '../format/transactions.js';
import { actorOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { balanceOf, lookupTransaction } from '../services/banking.js';

export const bankingOperations = [
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

  route({
    method: 'get',
    path: '/v1/banking/balance',
    tag: 'Banking',
    auth: 'bearer',
    summary: "The principal's balance (account main balance, or a merchant's main wallet)",
    responses: { 200: ok(R.balanceResponseSchema) },
    handle({ ctx, res }) {
      res.json(formatBalance(balanceOf(ctx.store, actorOf(res))));
    },
  }),
];
