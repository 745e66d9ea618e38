// /_sandbox/wallets/{walletId} (docs/control-api.md#merchants-and-wallets): read a merchant wallet, move money into or out of it.
import { formatWallet } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { creditSchema, type CreditBody } from '../schemas/control.js';
import { controlTag, INSUFFICIENT, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { adjustWallet, requireWallet } from '../services/adjustments.js';
import type { AppContext } from '../context.js';
import type { Tenant } from '../http/tenant.js';
import { own } from './scope.js';

const tag = controlTag('accounts');
/** The wallet, if the call may see it (another tenant's is not found). */
const walletOf = (ctx: AppContext, tenant: Tenant, id: string) => own(tenant, ctx.store.wallets.get(id), `wallet ${id}`);

export const walletOperations = [
  adminRoute({
    method: 'get',
    path: '/_sandbox/wallets/{walletId}',
    tag,
    scope: 'tenant',
    summary: 'One merchant wallet',
    responses: { 200: ok(R.walletSchema) },
    handle({ ctx, req, res, tenant }) {
      res.json(formatWallet(walletOf(ctx, tenant, uuidParam(req, 'walletId')), ctx.store.balances));
    },
  }),

  adminRoute<CreditBody>({
    method: 'post',
    path: '/_sandbox/wallets/{walletId}/credit',
    tag,
    scope: 'tenant',
    summary: 'Move money into (or out of) a wallet',
    body: creditSchema,
    responses: { 200: ok(R.walletSchema), 422: INSUFFICIENT },
    async handle({ ctx, req, res, readBody, tenant }) {
      const id = walletOf(ctx, tenant, uuidParam(req, 'walletId')).id;
      const body = readBody();
      await ctx.store.commit((tx) => adjustWallet(tx, ctx, id, body.amount, body.description));
      res.json(formatWallet(requireWallet(ctx.store, id), ctx.store.balances));
    },
  }),
];
