// /_sandbox/wallets/{walletId} (docs/control-api.md#merchants-and-wallets): read a merchant wallet, move money into or out of it.
import type { AppContext } from '../context.js';
import { formatWallet } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import { creditSchema, type CreditBody } from '../schemas/control.js';
import { adjustWallet, requireWallet } from '../services/adjustments.js';

export function walletRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/wallets/:walletId', (req, res) => {
    res.json(formatWallet(requireWallet(ctx.store, uuidParam(req, 'walletId')), ctx.store.balances));
  });

  routes.post('/_sandbox/wallets/:walletId/credit', parseBody(), async (req, res) => {
    const id = uuidParam(req, 'walletId');
    const body = readBody<CreditBody>(req, res, creditSchema);
    await ctx.store.commit((tx) => adjustWallet(tx, ctx, id, body.amount, body.description));
    res.json(formatWallet(requireWallet(ctx.store, id), ctx.store.balances));
  });
}
