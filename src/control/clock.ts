// /_sandbox/clock (docs/control-api.md#clock): read the sandbox clock, advance it. Advancing answers only
// once everything that fell due (expiries, settlements, auto-payments, rule outcomes, webhook
// retries) has been done and committed; tokens expire by the new time too.
import { adminRoute } from '../http/operations.js';
import { clockAdvanceSchema, type ClockAdvanceBody } from '../schemas/control.js';
import { controlTag, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { advanceClock, clockView } from '../services/clock.js';

export const clockOperations = [
  adminRoute({
    method: 'get',
    path: '/_sandbox/clock',
    tag: controlTag('clock'),
    summary: 'The sandbox clock',
    responses: { 200: ok(R.clockSchema) },
    handle({ ctx, res }) {
      res.json(clockView(ctx));
    },
  }),

  adminRoute<ClockAdvanceBody>({
    method: 'post',
    path: '/_sandbox/clock/advance',
    tag: controlTag('clock'),
    summary: 'Advance the clock and run everything that fell due',
    body: clockAdvanceSchema,
    responses: { 200: ok(R.clockSchema) },
    async handle({ ctx, res, readBody }) {
      const body = readBody();
      res.json(await advanceClock(ctx, body.seconds));
    },
  }),
];
