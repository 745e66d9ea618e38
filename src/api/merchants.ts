// /v1/merchants (spec "Merchant" endpoints, docs/api.md#merchants): account tokens manage merchants;
// a merchant token reads only its own balance at /v1/merchants/balance.
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.js';
import { walletRef } from '../domain/ledger.js';
import {
  formatMerchant,
  formatMerchantBalance,
  formatMerchantCreated,
  formatMerchantList,
  formatMerchantUpdated,
} from '../format/merchants.js';
import { accountOnly, authenticate, merchantOnly, principalOf } from '../http/auth.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import {
  merchantCreateSchema,
  merchantListQuerySchema,
  merchantPatchSchema,
  type MerchantCreateBody,
  type MerchantListQuery,
  type MerchantPatchBody,
} from '../schemas/public.js';
import { merchantCreateChecks } from '../schemas/checks.js';
import { validateQuery } from '../schemas/validator.js';
import {
  createMerchant,
  listMerchants,
  merchantOfAccount,
  newMerchantCredentials,
  precheckMerchant,
  updateMerchant,
  walletsOf,
} from '../services/merchants.js';

// "balance" is a literal segment, never a merchantId: other methods on it fall through to its 405.
const notBalance: RequestHandler = (req, _res, next) => (req.params.merchantId === 'balance' ? next('route') : next());

export function merchantRoutes(routes: Routes, ctx: AppContext): void {
  const auth = authenticate(ctx);

  routes.post('/v1/merchants', auth, accountOnly, parseBody(), async (req, res) => {
    const body = readBody<MerchantCreateBody>(req, res, merchantCreateSchema, merchantCreateChecks);
    const accountId = principalOf(res).account.id;
    precheckMerchant(ctx, accountId, body);
    const creds = await newMerchantCredentials(ctx.random.next);
    const { merchant, wallet } = await ctx.store.commit((tx) => createMerchant(tx, ctx, accountId, body, creds));
    res.status(201).json(formatMerchantCreated(merchant, wallet, creds.clientSecret));
  });

  routes.get('/v1/merchants', auth, accountOnly, (req, res) => {
    const q = validateQuery<MerchantListQuery>(merchantListQuerySchema, req.query);
    const { items, total } = listMerchants(ctx.store, principalOf(res).account.id, q);
    res.json(formatMerchantList(items, q.page, q.limit, total));
  });

  // registered before /:merchantId so that the literal segment wins
  routes.get('/v1/merchants/balance', auth, merchantOnly, (_req, res) => {
    const merchant = principalOf(res).merchant!;
    res.json(formatMerchantBalance(ctx.store.balances.of(walletRef(merchant.walletId))));
  });

  routes.get('/v1/merchants/:merchantId', notBalance, auth, accountOnly, (req, res) => {
    const m = merchantOfAccount(ctx.store, principalOf(res).account.id, uuidParam(req, 'merchantId'));
    const wallets = walletsOf(ctx.store, m).map((wallet) => ({ wallet, balance: ctx.store.balances.of(walletRef(wallet.id)) }));
    res.json(formatMerchant(m, wallets));
  });

  routes.patch('/v1/merchants/:merchantId', notBalance, auth, accountOnly, parseBody(), async (req, res) => {
    const id = uuidParam(req, 'merchantId');
    const accountId = principalOf(res).account.id;
    merchantOfAccount(ctx.store, accountId, id); // an unknown id is 404 before the body is judged
    const patch = readBody<MerchantPatchBody>(req, res, merchantPatchSchema);
    const m = await ctx.store.commit((tx) => updateMerchant(tx, ctx, accountId, id, patch));
    res.json(formatMerchantUpdated(m));
  });
}
