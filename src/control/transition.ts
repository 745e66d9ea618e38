// One forced transition of a transaction with no request body (a charge's expire and cancel, a
// transfer's complete): its id from the path, the service's move in one commit, the transaction
// answered; a state the transition table forbids is 409 INVALID_STATE and changes nothing.
import type { AppContext } from '../context.js';
import { formatTransaction } from '../format/control.js';
import { adminRoute, type RouteOperation } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { controlTag, INVALID_STATE, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import type { Transaction } from '../store/model.js';
import type { Tx } from '../store/store.js';

export const transitionTag = controlTag('transactions');

export const transitionRoute = (
  path: string,
  summary: string,
  move: (tx: Tx, ctx: AppContext, id: string) => Readonly<Transaction>,
): RouteOperation =>
  adminRoute({
    method: 'post',
    path,
    tag: transitionTag,
    summary,
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
    async handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      res.json(formatTransaction(await ctx.store.commit((tx) => move(tx, ctx, id))));
    },
  });
