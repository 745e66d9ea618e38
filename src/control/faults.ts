// /_sandbox/faults (docs/control-api.md#faults): injected faults, served by the fault stage (src/http/faults.ts).
import type { AppContext } from '../context.js';
import { formatFault } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import { clearFaults, createFault, listFaults, removeFault } from '../http/faults.js';
import { uuidParam, type Routes } from '../http/routes.js';
import { faultSchema, type FaultBody } from '../schemas/control.js';

export function faultRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/faults', (_req, res) => {
    res.json([...listFaults(ctx.store)].map(formatFault));
  });

  routes.post('/_sandbox/faults', parseBody(), async (req, res) => {
    const body = readBody<FaultBody>(req, res, faultSchema);
    res.status(201).json(formatFault(await ctx.store.commit((tx) => createFault(tx, ctx, body))));
  });

  routes.delete('/_sandbox/faults', async (_req, res) => {
    await ctx.store.commit((tx) => clearFaults(tx));
    // a clean slate: the probability draws start over from the seed
    ctx.random.restartFaults();
    res.status(204).end();
  });

  routes.delete('/_sandbox/faults/:id', async (req, res) => {
    const id = uuidParam(req, 'id');
    await ctx.store.commit((tx) => removeFault(tx, id));
    res.status(204).end();
  });
}
