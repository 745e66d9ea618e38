// /_sandbox/merchants (docs/control-api.md#merchants-and-wallets): the operator's view of merchants (every account's, with
// wallets and balances; an extension the dashboard reads) and their status changes.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { formatMerchant } from '../format/control.js';
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
import { walletsOf } from '../services/merchants.js';
import type { Merchant } from '../store/model.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';

export function controlMerchantRoutes(routes: Routes, ctx: AppContext): void {
  const format = (m: Readonly<Merchant>) => formatMerchant(m, walletsOf(ctx.store, m), ctx.store.balances);
  const view = (id: string) => {
    const m = ctx.store.merchants.get(id);
    if (!m) throw notFound(`merchant ${id}`);
    return format(m);
  };

  // oldest first; a status filter is applied on the page's way (merchants are few per account)
  routes.get('/_sandbox/merchants', (req, res) => {
    const q = validateQuery<MerchantListControlQuery>(merchantListControlQuerySchema, req.query);
    const accountId = q.accountId?.toLowerCase();
    const opts = { order: 'oldest', after: q.after } as const;
    const source = accountId ? ctx.store.merchants.find('byAccount', accountId, opts) : ctx.store.merchants.scan(opts);
    sendPage(req, res, takePage(source, q.limit, q.status ? (m) => m.status === q.status : undefined, 10 * q.limit), format);
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
