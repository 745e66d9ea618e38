// /_sandbox/pix-keys (docs/control-api.md#pix-key-directory): the PIX key directory. POST adds a key or replaces the
// entry of the same key (201 when new, 200 when replaced); DELETE clears it or removes one key.
import { notFound } from '../domain/errors.js';
import { formatPixKey } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { pixKeySchema, type PixKeyBody } from '../schemas/control.js';
import { controlTag, created, noContent, NOT_FOUND, ok } from '../schemas/operation.js';
import { pageQuerySchema, paged, type PageQuery } from '../schemas/paging.js';
import * as R from '../schemas/responses.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';
import { clearPixKeys, findPixKey, putPixKey, removePixKey } from '../services/pix-keys.js';
import { pixKeyChecks } from '../schemas/checks.js';

const tag = controlTag('pix keys');
const anyKey = { key: { type: 'string' } };

export const pixKeyOperations = [
  adminRoute<never, PageQuery>({
    method: 'get',
    path: '/_sandbox/pix-keys',
    tag,
    summary: 'The PIX key directory, oldest first (pages of up to 1,000)',
    query: pageQuerySchema,
    responses: { 200: paged(R.pixKeyViewSchema) },
    handle({ ctx, req, res, query: q }) {
      sendPage(req, res, takePage(ctx.store.pixKeys.scan({ order: 'oldest', after: q.after }), q.limit), formatPixKey);
    },
  }),

  adminRoute<PixKeyBody>({
    method: 'post',
    path: '/_sandbox/pix-keys',
    tag,
    summary: 'Add a key (201) or replace its entry (200)',
    body: pixKeySchema,
    check: pixKeyChecks,
    responses: { 200: ok(R.pixKeyViewSchema, 'Replaced'), 201: created(R.pixKeyViewSchema) },
    async handle({ ctx, res, readBody }) {
      const body = readBody();
      const { entry, created } = await ctx.store.commit((tx) => putPixKey(tx, ctx, body));
      res.status(created ? 201 : 200).json(formatPixKey(entry));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/pix-keys',
    tag,
    summary: 'Clear the directory',
    responses: { 204: noContent },
    async handle({ ctx, res }) {
      await ctx.store.commit((tx) => clearPixKeys(tx));
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/pix-keys/{key}',
    tag,
    summary: 'One key',
    params: anyKey,
    responses: { 200: ok(R.pixKeyViewSchema), 404: NOT_FOUND },
    handle({ ctx, req, res }) {
      const key = String(req.params.key);
      const entry = findPixKey(ctx.store, key);
      if (!entry) throw notFound(`PIX key ${key}`);
      res.json(formatPixKey(entry));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/pix-keys/{key}',
    tag,
    summary: 'Remove one key',
    params: anyKey,
    responses: { 204: noContent, 404: NOT_FOUND },
    async handle({ ctx, req, res }) {
      const key = String(req.params.key);
      await ctx.store.commit((tx) => removePixKey(tx, key));
      res.status(204).end();
    },
  }),
];
