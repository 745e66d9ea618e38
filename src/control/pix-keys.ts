// /_sandbox/pix-keys (docs/control-api.md#pix-key-directory): the PIX key directory, sandbox-wide entries and
// tenants' own (docs/control-api.md#scoped-arrangements). POST adds a key to its scope or replaces the
// entry of the same key there (201 when new, 200 when replaced); DELETE clears entries or removes one.
// A tenant's token reaches its own entries.
import { formatPixKey } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { pixKeySchema, scopeQuerySchema, scopeAccountId, type PixKeyBody, type ScopeQuery } from '../schemas/control.js';
import type { Validated } from '../schemas/from-schema.js';
import { controlTag, created, e, noContent, ok } from '../schemas/operation.js';
import { pageQuerySchema, paged } from '../schemas/paging.js';
import * as R from '../schemas/responses.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';
import { clearPixKeys, listPixKeys, putPixKey, removePixKey, requirePixKey } from '../services/pix-keys.js';
import { accountFor } from './scope.js';
import { pixKeyChecks } from '../schemas/checks.js';

const tag = controlTag('pix keys');
const anyKey = { key: { type: 'string' } };
const NO_ACCOUNT = e('NOT_FOUND', 'no such account (nothing changed)');
const NO_KEY = e('NOT_FOUND', 'no such key in that scope, or no such account');
const keyListQuerySchema = { type: 'object', properties: { accountId: scopeAccountId, ...pageQuerySchema.properties } } as const;

export const pixKeyOperations = [
  adminRoute<never, Validated<typeof keyListQuerySchema>>({
    method: 'get',
    path: '/_sandbox/pix-keys',
    tag,
    scope: 'tenant',
    summary: "The PIX key directory, oldest first (pages of up to 1,000): one tenant's own entries (accountId), or every scope's",
    query: keyListQuerySchema,
    responses: { 200: paged(R.pixKeyViewSchema), 404: NO_ACCOUNT },
    handle({ ctx, req, res, query: q, tenant }) {
      const accountId = accountFor(tenant, ctx.store, q.accountId);
      sendPage(req, res, takePage(listPixKeys(ctx.store, accountId, { order: 'oldest', after: q.after }), q.limit), formatPixKey);
    },
  }),

  adminRoute<PixKeyBody>({
    method: 'post',
    path: '/_sandbox/pix-keys',
    tag,
    scope: 'tenant',
    summary: 'Add a key to its scope (201) or replace its entry there (200)',
    body: pixKeySchema,
    check: pixKeyChecks,
    responses: { 200: ok(R.pixKeyViewSchema, 'Replaced'), 201: created(R.pixKeyViewSchema), 404: NO_ACCOUNT },
    async handle({ ctx, res, readBody, tenant }) {
      const { accountId: given, ...key } = readBody();
      const accountId = accountFor(tenant, ctx.store, given) ?? null;
      const { entry, created } = await ctx.store.commit((tx) => putPixKey(tx, ctx, key, accountId));
      res.status(created ? 201 : 200).json(formatPixKey(entry));
    },
  }),

  adminRoute<never, ScopeQuery>({
    method: 'delete',
    path: '/_sandbox/pix-keys',
    tag,
    scope: 'tenant',
    summary: "Remove one tenant's own entries (accountId), or clear the whole directory",
    query: scopeQuerySchema,
    responses: { 204: noContent, 404: NO_ACCOUNT },
    async handle({ ctx, res, query, tenant }) {
      const accountId = accountFor(tenant, ctx.store, query.accountId);
      await ctx.store.commit((tx) => clearPixKeys(tx, accountId));
      res.status(204).end();
    },
  }),

  adminRoute<never, ScopeQuery>({
    method: 'get',
    path: '/_sandbox/pix-keys/{key}',
    tag,
    scope: 'tenant',
    summary: "One key: a tenant's own entry (accountId), or the sandbox-wide one",
    params: anyKey,
    query: scopeQuerySchema,
    responses: { 200: ok(R.pixKeyViewSchema), 404: NO_KEY },
    handle({ ctx, req, res, query, tenant }) {
      const key = String(req.params.key);
      const accountId = accountFor(tenant, ctx.store, query.accountId) ?? null;
      res.json(formatPixKey(requirePixKey(ctx.store, accountId, key)));
    },
  }),

  adminRoute<never, ScopeQuery>({
    method: 'delete',
    path: '/_sandbox/pix-keys/{key}',
    tag,
    scope: 'tenant',
    summary: "Remove one key: a tenant's own entry (accountId), or the sandbox-wide one",
    params: anyKey,
    query: scopeQuerySchema,
    responses: { 204: noContent, 404: NO_KEY },
    async handle({ ctx, req, res, query, tenant }) {
      const key = String(req.params.key);
      const accountId = accountFor(tenant, ctx.store, query.accountId) ?? null;
      await ctx.store.commit((tx) => removePixKey(tx, accountId, key));
      res.status(204).end();
    },
  }),
];
