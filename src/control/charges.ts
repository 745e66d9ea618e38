// Forced charge transitions (docs/control-api.md#charges-and-transfers): pay (optionally with payer data), expire, cancel.
// The same services the clock uses, so the ledger and the events are those of a real payment;
// the transition table refuses anything else with 409 INVALID_STATE, changing nothing.
import { formatTransaction } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { chargePaySchema, type ChargePayBody } from '../schemas/control.js';
import { INVALID_STATE, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { cancelCharge, expireCharge, payCharge } from '../services/charges.js';
import { ownTransaction, transitionRoute, transitionTag } from './transition.js';

export const controlChargeOperations = [
  adminRoute<ChargePayBody>({
    method: 'post',
    path: '/_sandbox/charges/{id}/pay',
    tag: transitionTag,
    scope: 'tenant',
    summary: 'Pay a charge now (WAITING_PAYMENT → PAID)',
    body: chargePaySchema,
    bodyOptional: true,
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
    async handle({ ctx, req, res, readBody, tenant }) {
      const id = uuidParam(req, 'id');
      ownTransaction(ctx, tenant, id, 'charge');
      const body = readBody();
      const charge = await ctx.store.commit((tx) => payCharge(tx, ctx, id, body.payer));
      res.json(formatTransaction(charge));
    },
  }),

  transitionRoute('/_sandbox/charges/{id}/expire', 'charge', 'Expire a charge now', expireCharge),
  transitionRoute('/_sandbox/charges/{id}/cancel', 'charge', 'Cancel a charge', cancelCharge),
];
