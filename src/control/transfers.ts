// Forced transfer settlement (docs/control-api.md#charges-and-transfers): `complete` whatever the key directory says,
// `fail` with any code and message (the amount goes back). Only a PROCESSING transfer moves;
// anything else is 409 INVALID_STATE and changes nothing.
import type { AppContext } from '../context.js';
import { formatTransaction } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import { transferFailSchema, type TransferFailBody } from '../schemas/control.js';
import { completeTransfer, failTransfer } from '../services/transfers.js';

const DEFAULT_FAIL_MESSAGE = 'the transfer failed (forced through the sandbox control API)';

export function controlTransferRoutes(routes: Routes, ctx: AppContext): void {
  routes.post('/_sandbox/transfers/:id/complete', async (req, res) => {
    const id = uuidParam(req, 'id');
    res.json(formatTransaction(await ctx.store.commit((tx) => completeTransfer(tx, ctx, id))));
  });

  routes.post('/_sandbox/transfers/:id/fail', parseBody(), async (req, res) => {
    const id = uuidParam(req, 'id');
    const body = readBody<TransferFailBody>(req, res, transferFailSchema);
    const error = { code: body.code, message: body.message ?? DEFAULT_FAIL_MESSAGE };
    res.json(formatTransaction(await ctx.store.commit((tx) => failTransfer(tx, ctx, id, error))));
  });
}
