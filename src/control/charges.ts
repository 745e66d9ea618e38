// Forced charge transitions (docs/control-api.md#charges-and-transfers): pay (optionally with payer data), expire, cancel.
// The same services the clock uses, so the ledger and the events are those of a real payment;
// the transition table refuses anything else with 409 INVALID_STATE, changing nothing.
import type { AppContext } from '../context.js';
import { formatTransaction } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import { chargePaySchema, type ChargePayBody } from '../schemas/control.js';
import { cancelCharge, expireCharge, payCharge } from '../services/charges.js';

export function controlChargeRoutes(routes: Routes, ctx: AppContext): void {
  routes.post('/_sandbox/charges/:id/pay', parseBody(), async (req, res) => {
    const id = uuidParam(req, 'id');
    const body = readBody<ChargePayBody>(req, res, chargePaySchema);
    const charge = await ctx.store.commit((tx) => payCharge(tx, ctx, id, body.payer));
    res.json(formatTransaction(charge));
  });

  routes.post('/_sandbox/charges/:id/expire', async (req, res) => {
    const id = uuidParam(req, 'id');
    res.json(formatTransaction(await ctx.store.commit((tx) => expireCharge(tx, ctx, id))));
  });

  routes.post('/_sandbox/charges/:id/cancel', async (req, res) => {
    const id = uuidParam(req, 'id');
    res.json(formatTransaction(await ctx.store.commit((tx) => cancelCharge(tx, ctx, id))));
  });
}
