// /_sandbox/faults (docs/control-api.md#faults): injected faults, served by the fault stage (src/http/faults.ts),
// sandbox-wide or one tenant's own (docs/control-api.md#scoped-arrangements). A tenant's token reaches
// its own faults.
import { formatFault } from '../format/control.js';
import { clearFaults, createFault, listFaults, removeFault } from '../http/faults.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { scopeQuerySchema, type ScopeQuery } from '../schemas/control.js';
import { faultSchema, type FaultBody } from '../schemas/control-sandbox.js';
import { controlTag, created, e, list, noContent, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { accountFor, own } from './scope.js';

const tag = controlTag('diagnostics');
const NO_ACCOUNT = e('NOT_FOUND', 'no such account (nothing changed)');

export const faultOperations = [
  adminRoute<never, ScopeQuery>({
    method: 'get',
    path: '/_sandbox/faults',
    tag,
    scope: 'tenant',
    summary: "Injected faults, oldest first: one tenant's own (accountId), or every fault of every scope",
    query: scopeQuerySchema,
    responses: { 200: ok(list(R.faultViewSchema)), 404: NO_ACCOUNT },
    handle({ ctx, res, query, tenant }) {
      res.json([...listFaults(ctx.store, accountFor(tenant, ctx.store, query.accountId))].map(formatFault));
    },
  }),

  adminRoute<FaultBody>({
    method: 'post',
    path: '/_sandbox/faults',
    tag,
    scope: 'tenant',
    summary: "Inject a fault (an error status, a latency, or both), sandbox-wide or into one tenant's requests",
    body: faultSchema,
    responses: { 201: created(R.faultViewSchema), 404: NO_ACCOUNT },
    async handle({ ctx, res, readBody, tenant }) {
      const { accountId: given, ...fault } = readBody();
      const accountId = accountFor(tenant, ctx.store, given) ?? null;
      res.status(201).json(formatFault(await ctx.store.commit((tx) => createFault(tx, ctx, fault, accountId))));
    },
  }),

  adminRoute<never, ScopeQuery>({
    method: 'delete',
    path: '/_sandbox/faults',
    tag,
    scope: 'tenant',
    summary: "Remove one tenant's own faults (accountId), or every fault of every scope",
    query: scopeQuerySchema,
    responses: { 204: noContent, 404: NO_ACCOUNT },
    async handle({ ctx, res, query, tenant }) {
      const accountId = accountFor(tenant, ctx.store, query.accountId);
      await ctx.store.commit((tx) => clearFaults(tx, accountId));
      // a clean slate: the probability draws start over from the seed (not when one tenant's faults go:
      // the other tenants' draws go on as they were)
      if (accountId === undefined) ctx.random.restartFaults();
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/faults/{id}',
    tag,
    scope: 'tenant',
    summary: 'Remove one fault',
    responses: { 204: noContent },
    async handle({ ctx, req, res, tenant }) {
      const id = uuidParam(req, 'id');
      own(tenant, ctx.store.faults.get(id), `fault ${id}`);
      await ctx.store.commit((tx) => removeFault(tx, id));
      res.status(204).end();
    },
  }),
];
