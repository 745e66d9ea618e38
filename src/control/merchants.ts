// /_sandbox/merchants (docs/control-api.md#merchants-and-wallets): the operator's view of merchants (every account's, with
// wallets and balances; an extension the dashboard reads) and their status changes.
import type { AppContext } from '../context.js';
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
import { accountFilter, own } from './scope.js';
import type { Tenant } from '../http/tenant.js';

const tag = controlTag('accounts');
const format = (ctx: AppContext) => (m: Readonly<Merchant>) => formatMerchant(m, walletsOf(ctx.store, m), ctx.store.balances);
const view = (ctx: AppContext, tenant: Tenant, id: string) => format(ctx)(own(tenant, ctx.store.merchants.get(id), `merchant ${id}`));

export const controlMerchantOperations = [
  // oldest first; a status filter is applied on the page's way (merchants are few per account)
  adminRoute<never, MerchantListControlQuery>({
    method: 'get',
    path: '/_sandbox/merchants',
    tag,
    scope: 'tenant',
    summary: "Every account's merchants, with wallets, oldest first (pages of up to 1,000)",
    query: merchantListControlQuerySchema,
    responses: { 200: paged(R.controlMerchantSchema) },
    handle({ ctx, req, res, query: q, tenant }) {
      const accountId = accountFilter(tenant, ctx.store, q.accountId);
      const opts = { order: 'oldest', after: q.after } as const;
      const source = accountId ? ctx.store.merchants.find('byAccount', accountId, opts) : ctx.store.merchants.scan(opts);
      sendPage(req, res, takePage(source, q.limit, q.status ? (m) => m.status === q.status : undefined, 10 * q.limit), format(ctx));
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/merchants/{id}',
    tag,
    scope: 'tenant',
    summary: 'One merchant',
    responses: { 200: ok(R.controlMerchantSchema) },
    handle({ ctx, req, res, tenant }) {
      res.json(view(ctx, tenant, uuidParam(req, 'id')));
    },
  }),

  adminRoute<MerchantStatusBody>({
    method: 'patch',
    path: '/_sandbox/merchants/{id}',
    tag,
    scope: 'tenant',
    summary: "Set a merchant's status",
    body: merchantStatusSchema,
    responses: { 200: ok(R.controlMerchantSchema), 409: INVALID_STATE },
    async handle({ ctx, req, res, readBody, tenant }) {
      const id = uuidParam(req, 'id');
      own(tenant, ctx.store.merchants.get(id), `merchant ${id}`);
      const body = readBody();
      await ctx.store.commit((tx) => setMerchantStatus(tx, ctx, id, body.status));
      res.json(view(ctx, tenant, id));
    },
  }),
];
