// One forced transition of a transaction with no request body (a charge's expire and cancel, a
// transfer's complete): its id from the path, the service's move in one commit, the transaction
// answered; a state the transition table forbids is 409 INVALID_STATE and changes nothing. A tenant's
// token moves its own transactions only (another tenant's id is 404, as a missing one).

import type { AppContext } from '../context.js';
import { formatTransaction } from '../format/control.js';
import { adminRoute, type RouteOperation } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { controlTag, INVALID_STATE, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import type { Transaction } from '../store/model.js';
import type { Tx } from '../store/store.js';
import type { Tenant } from '../http/tenant.js';
import { own } from './scope.js';

const ACCOUNT = new Set(['accountId']);

/**
 * A tenant's call may touch its own transactions only: another tenant's is 404 with the message the
 * service gives a missing one (`charge <id> was not found`). The operator's call is the service's to check.
 */
export function ownTransaction(ctx: AppContext, tenant: Tenant, id: string, kind: 'charge' | 'transfer' | 'transaction'): void {
  if (tenant !== null) own(tenant, ctx.store.transactions.getFields(id, ACCOUNT), `${kind} ${id}`);
}

export const transitionTag = controlTag('transactions');

export const transitionRoute = (
  path: string,
  kind: 'charge' | 'transfer',
  summary: string,
  move: (tx: Tx, ctx: AppContext, id: string) => Readonly<Transaction>,
): RouteOperation =>
  adminRoute({
    method: 'post',
    path,
    tag: transitionTag,
    scope: 'tenant',
    summary,
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
    async handle({ ctx, req, res, tenant }) {
      const id = uuidParam(req, 'id');
      ownTransaction(ctx, tenant, id, kind);
      res.json(formatTransaction(await ctx.store.commit((tx) => move(tx, ctx, id))));
    },
  });
