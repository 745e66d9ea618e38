// GET /v1/banking/balance: the account's main balance, or for a merchant token its main wallet's.
import { accountRef, walletRef } from '../domain/ledger.js';
import { formatBalance } from '../format/transactions.js';
import { principalOf } from '../http/auth.js';
import { route } from '../http/operations.js';
import { ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';

export const balanceOperations = [
  route({
    method: 'get',
    path: '/v1/banking/balance',
    tag: 'Banking',
    auth: 'bearer',
    summary: "The principal's balance (account main balance, or a merchant's main wallet)",
    responses: { 200: ok(R.balanceResponseSchema) },
    handle({ ctx, res }) {
      const p = principalOf(res);
      const ref = p.merchant ? walletRef(p.merchant.walletId) : accountRef(p.account.id);
      res.json(formatBalance(ctx.store.balances.of(ref)));
    },
  }),
];
