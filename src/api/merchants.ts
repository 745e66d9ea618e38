// /v1/merchants (spec "Merchant" endpoints, docs/api.md#merchants): account tokens manage merchants;
// a merchant token reads only its own balance at /v1/merchants/balance.
import {
  formatMerchant,
  formatMerchantBalance,
  formatMerchantCreated,
  formatMerchantList,
  formatMerchantUpdated,
} from '../format/merchants.js';
import { accountOnly, actorOf, merchantOnly } from '../http/auth.js';
import { route } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { created, e, ok } from '../schemas/operation.js';
import {
  merchantCreateSchema,
  merchantListQuerySchema,
  merchantPatchSchema,
  type MerchantCreateBody,
  type MerchantListQuery,
  type MerchantPatchBody,
} from '../schemas/public.js';
import { merchantCreateChecks } from '../schemas/checks.js';
import * as R from '../schemas/responses.js';
import { balanceOf } from '../services/banking.js';
import { createMerchant, listMerchants, merchantOfAccount, merchantWithWallets, updateMerchant } from '../services/merchants.js';

const M = 'Merchants';
const MERCHANT_TOKEN = e('FORBIDDEN', 'a merchant token');

// "balance" is a literal segment, never a merchantId: the table sends other methods on it to its 405.
export const merchantOperations = [
  route<MerchantCreateBody>({
    method: 'post',
    path: '/v1/merchants',
    tag: M,
    auth: 'bearer',
    summary: 'Create a merchant (account token)',
    body: merchantCreateSchema,
    check: merchantCreateChecks,
    guards: [accountOnly],
    responses: { 201: created(R.merchantCreatedSchema), 403: MERCHANT_TOKEN, 409: e('DOCUMENT_ALREADY_REGISTERED') },
    async handle({ ctx, res, readBody }) {
      const { merchant, wallet, clientSecret } = await createMerchant(ctx, actorOf(res).accountId, readBody());
      res.status(201).json(formatMerchantCreated(merchant, wallet, clientSecret));
    },
  }),

  route<never, MerchantListQuery>({
    method: 'get',
    path: '/v1/merchants',
    tag: M,
    auth: 'bearer',
    summary: 'List merchants (account token)',
    query: merchantListQuerySchema,
    guards: [accountOnly],
    responses: { 200: ok(R.merchantListSchema), 403: MERCHANT_TOKEN },
    handle({ ctx, res, query: q }) {
      const { items, total } = listMerchants(ctx.store, actorOf(res).accountId, q);
      res.json(formatMerchantList(items, q.page, q.limit, total));
    },
  }),

  route({
    method: 'get',
    path: '/v1/merchants/balance',
    tag: M,
    auth: 'bearer',
    summary: "The authenticated merchant's main wallet balance (merchant token)",
    guards: [merchantOnly],
    responses: { 200: ok(R.merchantBalanceSchema), 403: e('FORBIDDEN', 'an account token') },
    handle({ ctx, res }) {
      res.json(formatMerchantBalance(balanceOf(ctx.store, actorOf(res))));
    },
  }),

  route({
    method: 'get',
    path: '/v1/merchants/{merchantId}',
    tag: M,
    auth: 'bearer',
    summary: 'Read a merchant with its wallets (account token)',
    guards: [accountOnly],
    responses: { 200: ok(R.merchantSchema), 403: MERCHANT_TOKEN },
    handle({ ctx, req, res }) {
      const { merchant, wallets } = merchantWithWallets(ctx.store, actorOf(res).accountId, uuidParam(req, 'merchantId'));
      res.json(formatMerchant(merchant, wallets));
    },
  }),

  route<MerchantPatchBody>({
    method: 'patch',
    path: '/v1/merchants/{merchantId}',
    tag: M,
    auth: 'bearer',
    summary: 'Update a merchant: name, email, phone (account token)',
    body: merchantPatchSchema,
    guards: [accountOnly],
    responses: {
      200: ok(R.merchantUpdatedSchema),
      403: MERCHANT_TOKEN,
      405: e('METHOD_NOT_ALLOWED', 'the merchantId "balance": that path is GET /v1/merchants/balance'),
    },
    async handle({ ctx, req, res, readBody }) {
      const id = uuidParam(req, 'merchantId');
      const accountId = actorOf(res).accountId;
      merchantOfAccount(ctx.store, accountId, id); // an unknown id is 404 before the body is judged
      res.json(formatMerchantUpdated(await updateMerchant(ctx, accountId, id, readBody())));
    },
  }),
];
