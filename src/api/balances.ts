// GET /v1/banking/balance: the account's main balance, or for a merchant token its main wallet's.
import type { AppContext } from '../context.js';
import { accountRef, walletRef } from '../domain/ledger.js';
import { envelope } from '../format/transactions.js';
import { authenticate, principalOf } from '../http/auth.js';
import type { Routes } from '../http/routes.js';

export function balanceRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/v1/banking/balance', authenticate(ctx), (_req, res) => {
    const p = principalOf(res);
    const ref = p.merchant ? walletRef(p.merchant.walletId) : accountRef(p.account.id);
    res.json(envelope('Balance retrieved successfully', { balance: ctx.store.balances.of(ref) }));
  });
}
