// /_sandbox/merchants (CONTRACT §12): the operator's view of merchants (every account's, with
// wallets and balances; an extension the dashboard reads) and their status changes.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { formatMerchant, walletsByMerchant } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import {
  merchantListControlQuerySchema,
  merchantStatusSchema,
  type MerchantListControlQuery,
  type MerchantStatusBody,
} from '../schemas/control.js';
import { validateQuery } from '../schemas/validator.js';
import { setMerchantStatus } from '../services/merchant-status.js';

export function controlMerchantRoutes(routes: Routes, ctx: AppContext): void {
  const view = (id: string) => {
    const m = Object.hasOwn(ctx.store.data.merchants, id) ? ctx.store.data.merchants[id] : undefined;
    if (!m) throw notFound(`merchant ${id}`);
    return formatMerchant(m, walletsByMerchant(ctx.store.data).get(m.id) ?? [], ctx.store.ix);
  };

  routes.get('/_sandbox/merchants', (req, res) => {
    const q = validateQuery<MerchantListControlQuery>(merchantListControlQuerySchema, req.query);
    const accountId = q.accountId?.toLowerCase();
    const wallets = walletsByMerchant(ctx.store.data);
    const list = Object.values(ctx.store.data.merchants)
      .filter((m) => (!accountId || m.accountId === accountId) && (!q.status || m.status === q.status))
      .map((m) => formatMerchant(m, wallets.get(m.id) ?? [], ctx.store.ix));
    res.json(list);
  });

  routes.get('/_sandbox/merchants/:id', (req, res) => {
    res.json(view(uuidParam(req, 'id')));
  });

  routes.patch('/_sandbox/merchants/:id', parseBody(), async (req, res) => {
    const id = uuidParam(req, 'id');
    const body = readBody<MerchantStatusBody>(req, res, merchantStatusSchema);
    await ctx.store.commit((tx) => setMerchantStatus(tx, ctx, id, body.status));
    res.json(view(id));
  });
}
