// /_sandbox/snapshots (docs/control-api.md#snapshots): named snapshots of one tenant's whole world or
// of the whole sandbox — saved, listed, read, deleted, restored, and exported as a fixtures document.
import { SandboxError } from '../domain/errors.js';
import { formatSnapshot } from '../format/control.js';
import type { Tenant } from '../http/tenant.js';
import { adminRoute } from '../http/operations.js';
import { snapshotListQuerySchema, snapshotSaveSchema, type SnapshotListQuery, type SnapshotSaveBody } from '../schemas/control-sandbox.js';
import { fixturesSchema } from '../schemas/fixtures.js';
import { controlTag, created, e, INVALID_STATE, noContent, NOT_FOUND, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { exportSnapshot } from '../services/snapshot-export.js';
import { deleteSnapshot, listSnapshots, requireSnapshot, restoreSnapshot, saveSnapshot, snapshotImage } from '../services/snapshots.js';
import type { Reads } from '../store/store.js';
import { accountFilter, accountFor, own } from './scope.js';

/** The snapshot of that name, if the call may see it: a tenant's token sees its own tenant's only (another's, or a whole-sandbox one, is 404 as a missing one). */
const visible = (tenant: Tenant, data: Reads, name: string) => own(tenant, requireSnapshot(data, name), `snapshot ${name}`);

const tag = controlTag('snapshots');
const byName = { name: { type: 'string', description: "the snapshot's name" } };
const TAKEN = e(
  ['CONFLICT', 'INVALID_STATE'],
  "a snapshot of that name exists (send replace: true), or an advance is walking the tenant's clock",
);
const NOT_NOW = e(
  ['CONFLICT', 'INVALID_STATE'],
  'the snapshot was replaced meanwhile; its account was deleted, an advance is walking its clock, or its file is gone (nothing changed)',
);

export const snapshotOperations = [
  adminRoute<SnapshotSaveBody>({
    method: 'post',
    path: '/_sandbox/snapshots',
    tag,
    summary: "Save a tenant's whole world (accountId), or the whole sandbox, under a name",
    scope: 'tenant',
    body: snapshotSaveSchema,
    responses: { 201: created(R.snapshotSchema), 404: NOT_FOUND, 409: TAKEN },
    async handle({ ctx, res, readBody, tenant }) {
      const body = readBody();
      const accountId = accountFor(tenant, ctx.store, body.accountId);
      // names are the sandbox's: a tenant never replaces a snapshot it cannot see
      const held = ctx.store.savedSnapshots.get(body.name);
      if (tenant !== null && held && held.accountId !== tenant)
        throw new SandboxError('CONFLICT', `the name ${body.name} is taken: choose another (names are shared by the whole sandbox)`);
      res.status(201).json(formatSnapshot(await saveSnapshot(ctx, { ...body, ...(accountId ? { accountId } : {}) })));
    },
  }),

  adminRoute<never, SnapshotListQuery>({
    method: 'get',
    path: '/_sandbox/snapshots',
    tag,
    summary: "The named snapshots (or one tenant's), oldest first",
    scope: 'tenant',
    query: snapshotListQuerySchema,
    responses: { 200: ok({ type: 'array', items: R.snapshotSchema }) },
    handle({ ctx, res, query, tenant }) {
      res.json(listSnapshots(ctx.store, accountFilter(tenant, ctx.store, query.accountId)).map(formatSnapshot));
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/snapshots/{name}',
    tag,
    summary: 'One snapshot',
    scope: 'tenant',
    params: byName,
    responses: { 200: ok(R.snapshotSchema), 404: NOT_FOUND },
    handle({ ctx, req, res, tenant }) {
      res.json(formatSnapshot(visible(tenant, ctx.store, String(req.params.name))));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/snapshots/{name}',
    tag,
    summary: 'Delete a snapshot',
    scope: 'tenant',
    params: byName,
    responses: { 204: noContent, 404: NOT_FOUND },
    async handle({ ctx, req, res, tenant }) {
      await deleteSnapshot(ctx, visible(tenant, ctx.store, String(req.params.name)).id);
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'post',
    path: '/_sandbox/snapshots/{name}/restore',
    tag,
    summary: "Put the snapshot's tenant (or the whole sandbox) back as it was, in one durable change",
    scope: 'tenant',
    params: byName,
    responses: { 200: ok(R.snapshotSchema), 404: NOT_FOUND, 409: NOT_NOW },
    async handle({ ctx, req, res, tenant }) {
      res.json(formatSnapshot(await restoreSnapshot(ctx, visible(tenant, ctx.store, String(req.params.name)).id)));
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/snapshots/{name}/export',
    tag,
    summary: 'The snapshot as a fixtures document (--fixtures, POST /_sandbox/reset {fixtures} start a sandbox in its state)',
    scope: 'tenant',
    params: byName,
    responses: { 200: ok(fixturesSchema), 404: NOT_FOUND, 409: INVALID_STATE },
    async handle({ ctx, req, res, tenant }) {
      const s = visible(tenant, ctx.store, String(req.params.name));
      res.json(exportSnapshot(s, await snapshotImage(ctx, s), ctx.version));
    },
  }),
];
