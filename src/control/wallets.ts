// /_sandbox/wallets/{walletId} (docs/control-api.md#merchants-and-wallets): read a merchant wallet, move money into or out of it.
import { formatWallet } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { creditSchema, type CreditBody } from '../schemas/control.js';
import { controlTag, INSUFFICIENT, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { adjustWallet, requireWallet } from '../services/adjustments.js';

const tag = controlTag('accounts');

export const walletOperations = [
  adminRoute({
    method: 'get',
    path: '/_sandbox/wallets/{walletId}',
    tag,
    summary: 'One merchant wallet',
    responses: { 200: ok(R.walletSchema) },
    handle({ ctx, req, res }) {
      res.json(formatWallet(requireWallet(ctx.store, uuidParam(req, 'walletId')), ctx.store.balances));
    },
  }),

  adminRoute<CreditBody>({
    method: 'post',
    path: '/_sandbox/wallets/{walletId}/credit',
    tag,
    summary: 'Move money into (or out of) a wallet',
    body: creditSchema,
    responses: { 200: ok(R.walletSchema), 422: INSUFFICIENT },
    async handle({ ctx, req, res, readBody }) {
      const id = uuidParam(req, 'walletId');
      const body = readBody();
      await ctx.store.commit((tx) => adjustWallet(tx, ctx, id, body.amount, body.description));
      res.json(formatWallet(requireWallet(ctx.store, id), ctx.store.balances));
    },
  }),
];
