// /_sandbox/clock (docs/control-api.md#clock): read the sandbox clock, advance it. Advancing answers only
// once everything that fell due (expiries, settlements, auto-payments, rule outcomes, webhook
// retries) has been done and committed; tokens expire by the new time too.
import type { AppContext } from '../context.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import { clockAdvanceSchema, type ClockAdvanceBody } from '../schemas/control.js';
import { advanceClock, clockView } from '../services/clock.js';

export function clockRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/clock', (_req, res) => {
    res.json(clockView(ctx));
  });

  routes.post('/_sandbox/clock/advance', parseBody(), async (req, res) => {
    const body = readBody<ClockAdvanceBody>(req, res, clockAdvanceSchema);
    res.json(await advanceClock(ctx, body.seconds));
  });
}
