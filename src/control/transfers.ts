// Forced transfer settlement (docs/control-api.md#charges-and-transfers): `complete` whatever the key directory says,
// `fail` with any code and message (the amount goes back). Only a PROCESSING transfer moves;
// anything else is 409 INVALID_STATE and changes nothing.
import { formatTransaction } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { transferFailSchema, type TransferFailBody } from '../schemas/control.js';
import { INVALID_STATE, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { completeTransfer, failTransfer } from '../services/transfers.js';
import { ownTransaction, transitionRoute, transitionTag } from './transition.js';

const DEFAULT_FAIL_MESSAGE = 'the transfer failed (forced through the sandbox control API)';

export const controlTransferOperations = [
  transitionRoute(
    '/_sandbox/transfers/{id}/complete',
    'transfer',
    'Complete a transfer now, whatever the key directory says',
    completeTransfer,
  ),

  adminRoute<TransferFailBody>({
    method: 'post',
    path: '/_sandbox/transfers/{id}/fail',
    tag: transitionTag,
    scope: 'tenant',
    summary: 'Fail a transfer now with a code and message (the amount goes back)',
    body: transferFailSchema,
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
    async handle({ ctx, req, res, readBody, tenant }) {
      const id = uuidParam(req, 'id');
      ownTransaction(ctx, tenant, id, 'transfer');
      const body = readBody();
      const error = { code: body.code, message: body.message ?? DEFAULT_FAIL_MESSAGE };
      res.json(formatTransaction(await ctx.store.commit((tx) => failTransfer(tx, ctx, id, error))));
    },
  }),
];
