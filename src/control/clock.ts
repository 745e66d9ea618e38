// /_sandbox/clock (docs/control-api.md#clock): read a tenant's clock or the sandbox-wide one,
// advance it, freeze and unfreeze it. Advancing walks through time and answers only once
// everything that fell due within the window (expiries, settlements, auto-payments, rule outcomes,
// webhook attempts and their retries) has been done at its own instant and committed. A tenant's token
// reads and moves its own clock only: the accountId it leaves out is its own (a sandbox-wide move is
// the operator's).
import { advanceClock } from '../services/clock-walk.js';
import { adminRoute } from '../http/operations.js';
import {
  clockAdvanceCheck,
  clockAdvanceSchema,
  clockTargetSchema,
  type ClockAdvanceBody,
  type ClockTargetBody,
} from '../schemas/control-sandbox.js';
import { controlTag, e, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { clockView, setFrozen } from '../services/clock.js';
import { accountFor } from './scope.js';

const NO_ACCOUNT = e('NOT_FOUND', 'no such account (nothing changed)');

/** freeze and unfreeze: one tenant's clock, or (no accountId) every tenant's */
const freezing = (frozen: boolean, path: string, summary: string) =>
  adminRoute<ClockTargetBody>({
    method: 'post',
    path,
    tag: controlTag('clock'),
    scope: 'tenant',
    summary,
    body: clockTargetSchema,
    bodyOptional: true,
    responses: { 200: ok(R.clockSchema), 404: NO_ACCOUNT },
    async handle({ ctx, res, readBody, tenant }) {
      const body = readBody();
      res.json(await setFrozen(ctx, accountFor(tenant, ctx.store, body.accountId), frozen));
    },
  });

export const clockOperations = [
  adminRoute<never, ClockTargetBody>({
    method: 'get',
    path: '/_sandbox/clock',
    tag: controlTag('clock'),
    scope: 'tenant',
    summary: "A tenant's clock (accountId), or the sandbox-wide one",
    query: clockTargetSchema,
    responses: { 200: ok(R.clockSchema), 404: e('NOT_FOUND', 'no such account') },
    handle({ ctx, res, query, tenant }) {
      res.json(clockView(ctx, accountFor(tenant, ctx.store, query.accountId)));
    },
  }),

  adminRoute<ClockAdvanceBody>({
    method: 'post',
    path: '/_sandbox/clock/advance',
    tag: controlTag('clock'),
    scope: 'tenant',
    summary: 'Advance one tenant (accountId) or every tenant, walking through what falls due at its own instant',
    body: clockAdvanceSchema,
    check: clockAdvanceCheck,
    responses: {
      200: ok(R.clockSchema),
      400: e('VALIDATION_ERROR', 'seconds not in 1…2592000, or to not after the clock’s now (nothing changed)'),
      404: NO_ACCOUNT,
    },
    async handle({ ctx, res, readBody, tenant }) {
      const body = readBody();
      const accountId = accountFor(tenant, ctx.store, body.accountId);
      res.json(await advanceClock(ctx, { ...body, ...(accountId ? { accountId } : {}) }));
    },
  }),

  freezing(true, '/_sandbox/clock/freeze', "Stop a tenant's clock (or every tenant's) where it stands"),
  freezing(false, '/_sandbox/clock/unfreeze', "Let a tenant's clock (or every tenant's) flow again from where it stands"),
];
