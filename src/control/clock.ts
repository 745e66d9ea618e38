// /_sandbox/clock (docs/control-api.md#clock): read a tenant's clock or the sandbox-wide one,
// advance it, freeze and unfreeze it. Advancing walks through time and answers only once
// everything that fell due within the window (expiries, settlements, auto-payments, rule outcomes,
// webhook attempts and their retries) has been done at its own instant and committed.
import { advanceClock } from '../clock/walk.js';
import type { AppContext } from '../context.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import {
  clockAdvanceCheck,
  clockAdvanceSchema,
  clockTargetSchema,
  type ClockAdvanceBody,
  type ClockTargetBody,
} from '../schemas/control.js';
import { validateQuery } from '../schemas/validator.js';
import { clockView, setFrozen } from '../services/clock.js';

export function clockRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/clock', (req, res) => {
    const q = validateQuery<ClockTargetBody>(clockTargetSchema, req.query);
    res.json(clockView(ctx, q.accountId));
  });

  routes.post('/_sandbox/clock/advance', parseBody(), async (req, res) => {
    const body = readBody<ClockAdvanceBody>(req, res, clockAdvanceSchema, clockAdvanceCheck);
    res.json(await advanceClock(ctx, body));
  });

  routes.post('/_sandbox/clock/freeze', parseBody(), async (req, res) => {
    const body = readBody<ClockTargetBody>(req, res, clockTargetSchema);
    res.json(await setFrozen(ctx, body.accountId, true));
  });

  routes.post('/_sandbox/clock/unfreeze', parseBody(), async (req, res) => {
    const body = readBody<ClockTargetBody>(req, res, clockTargetSchema);
    res.json(await setFrozen(ctx, body.accountId, false));
  });
}
