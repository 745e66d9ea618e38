// /_sandbox/snapshots (docs/control-api.md#snapshots): named snapshots of one tenant's whole world or
// of the whole sandbox — saved, listed, read, deleted, restored, and exported as a fixtures document.
import { formatSnapshot } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { snapshotListQuerySchema, snapshotSaveSchema, type SnapshotListQuery, type SnapshotSaveBody } from '../schemas/control-sandbox.js';
import { fixturesSchema } from '../schemas/fixtures.js';
import { controlTag, created, e, INVALID_STATE, noContent, NOT_FOUND, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { exportSnapshot } from '../services/snapshot-export.js';
import { deleteSnapshot, listSnapshots, requireSnapshot, restoreSnapshot, saveSnapshot, snapshotImage } from '../services/snapshots.js';

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
    body: snapshotSaveSchema,
    responses: { 201: created(R.snapshotSchema), 404: NOT_FOUND, 409: TAKEN },
    async handle({ ctx, res, readBody }) {
      res.status(201).json(formatSnapshot(await saveSnapshot(ctx, readBody())));
    },
  }),

  adminRoute<never, SnapshotListQuery>({
    method: 'get',
    path: '/_sandbox/snapshots',
    tag,
    summary: "The named snapshots (or one tenant's), oldest first",
    query: snapshotListQuerySchema,
    responses: { 200: ok({ type: 'array', items: R.snapshotSchema }) },
    handle({ ctx, res, query }) {
      res.json(listSnapshots(ctx.store, query.accountId?.toLowerCase()).map(formatSnapshot));
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/snapshots/{name}',
    tag,
    summary: 'One snapshot',
    params: byName,
    responses: { 200: ok(R.snapshotSchema), 404: NOT_FOUND },
    handle({ ctx, req, res }) {
      res.json(formatSnapshot(requireSnapshot(ctx.store, String(req.params.name))));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/snapshots/{name}',
    tag,
    summary: 'Delete a snapshot',
    params: byName,
    responses: { 204: noContent, 404: NOT_FOUND },
    async handle({ ctx, req, res }) {
      await deleteSnapshot(ctx, String(req.params.name));
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'post',
    path: '/_sandbox/snapshots/{name}/restore',
    tag,
    summary: "Put the snapshot's tenant (or the whole sandbox) back as it was, in one durable change",
    params: byName,
    responses: { 200: ok(R.snapshotSchema), 404: NOT_FOUND, 409: NOT_NOW },
    async handle({ ctx, req, res }) {
      res.json(formatSnapshot(await restoreSnapshot(ctx, String(req.params.name))));
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/snapshots/{name}/export',
    tag,
    summary: 'The snapshot as a fixtures document (--fixtures, POST /_sandbox/reset {fixtures} start a sandbox in its state)',
    params: byName,
    responses: { 200: ok(fixturesSchema), 404: NOT_FOUND, 409: INVALID_STATE },
    async handle({ ctx, req, res }) {
      const s = requireSnapshot(ctx.store, String(req.params.name));
      res.json(exportSnapshot(s, await snapshotImage(ctx, s), ctx.version));
    },
  }),
];
