// /_sandbox/faults (docs/control-api.md#faults): injected faults, served by the fault stage (src/http/faults.ts).
import { formatFault } from '../format/control.js';
import { clearFaults, createFault, listFaults, removeFault } from '../http/faults.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import { faultSchema, type FaultBody } from '../schemas/control-sandbox.js';
import { controlTag, created, list, noContent, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';

const tag = controlTag('diagnostics');

export const faultOperations = [
  adminRoute({
    method: 'get',
    path: '/_sandbox/faults',
    tag,
    summary: 'Injected faults',
    responses: { 200: ok(list(R.faultViewSchema)) },
    handle({ ctx, res }) {
      res.json([...listFaults(ctx.store)].map(formatFault));
    },
  }),

  adminRoute<FaultBody>({
    method: 'post',
    path: '/_sandbox/faults',
    tag,
    summary: 'Inject a fault (an error status, a latency, or both)',
    body: faultSchema,
    responses: { 201: created(R.faultViewSchema) },
    async handle({ ctx, res, readBody }) {
      const body = readBody();
      res.status(201).json(formatFault(await ctx.store.commit((tx) => createFault(tx, ctx, body))));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/faults',
    tag,
    summary: 'Remove every fault',
    responses: { 204: noContent },
    async handle({ ctx, res }) {
      await ctx.store.commit((tx) => clearFaults(tx));
      // a clean slate: the probability draws start over from the seed
      ctx.random.restartFaults();
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/faults/{id}',
    tag,
    summary: 'Remove one fault',
    responses: { 204: noContent },
    async handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      await ctx.store.commit((tx) => removeFault(tx, id));
      res.status(204).end();
    },
  }),
];
