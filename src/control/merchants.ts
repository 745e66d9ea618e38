// /_sandbox/merchants (docs/control-api.md#merchants-and-wallets): the operator's view of merchants (every account's, with
// wallets and balances; an extension the dashboard reads) and their status changes.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { formatMerchant } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import {
  merchantListControlQuerySchema,
  merchantStatusSchema,
  type MerchantListControlQuery,
  type MerchantStatusBody,
} from '../schemas/control.js';
import { controlTag, INVALID_STATE, ok } from '../schemas/operation.js';
import { paged } from '../schemas/paging.js';
import * as R from '../schemas/responses.js';
import { setMerchantStatus, walletsOf } from '../services/merchants.js';
import type { Merchant } from '../store/model.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';

const tag = controlTag('accounts');
const format = (ctx: AppContext) => (m: Readonly<Merchant>) => formatMerchant(m, walletsOf(ctx.store, m), ctx.store.balances);
const view = (ctx: AppContext, id: string) => {
  const m = ctx.store.merchants.get(id);
  if (!m) throw notFound(`merchant ${id}`);
  return format(ctx)(m);
};

export const controlMerchantOperations = [
  // oldest first; a status filter is applied on the page's way (merchants are few per account)
  adminRoute<never, MerchantListControlQuery>({
    method: 'get',
    path: '/_sandbox/merchants',
    tag,
    summary: "Every account's merchants, with wallets, oldest first (pages of up to 1,000)",
    query: merchantListControlQuerySchema,
    responses: { 200: paged(R.controlMerchantSchema) },
    handle({ ctx, req, res, query: q }) {
      const accountId = q.accountId?.toLowerCase();
      const opts = { order: 'oldest', after: q.after } as const;
      const source = accountId ? ctx.store.merchants.find('byAccount', accountId, opts) : ctx.store.merchants.scan(opts);
      sendPage(req, res, takePage(source, q.limit, q.status ? (m) => m.status === q.status : undefined, 10 * q.limit), format(ctx));
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/merchants/{id}',
    tag,
    summary: 'One merchant',
    responses: { 200: ok(R.controlMerchantSchema) },
    handle({ ctx, req, res }) {
      res.json(view(ctx, uuidParam(req, 'id')));
    },
  }),

  adminRoute<MerchantStatusBody>({
    method: 'patch',
    path: '/_sandbox/merchants/{id}',
    tag,
    summary: "Set a merchant's status",
    body: merchantStatusSchema,
    responses: { 200: ok(R.controlMerchantSchema), 409: INVALID_STATE },
    async handle({ ctx, req, res, readBody }) {
      const id = uuidParam(req, 'id');
      const body = readBody();
      await ctx.store.commit((tx) => setMerchantStatus(tx, ctx, id, body.status));
      res.json(view(ctx, id));
    },
  }),
];
