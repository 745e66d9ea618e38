// GET /v1/banking/balance: the account's main balance, or for a merchant token its main wallet's.
import { formatBalance } from '../format/transactions.js';
import { actorOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { balanceOf } from '../services/banking.js';

export const balanceOperations = [
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
