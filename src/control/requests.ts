// /_sandbox/requests (docs/control-api.md#request-journal): the request journal, newest first, secrets redacted:
// one tenant's requests (accountId; a tenant's token: its own), or every tenant's merged.
// Filters (extensions): method, status, path (a prefix), requestId; `limit` (default 100).
import { adminRoute } from '../http/operations.js';
import { requestsQuerySchema, type RequestsQuery } from '../schemas/control-sandbox.js';
import { controlTag, e, list, noContent, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { accountFor } from './scope.js';

const tag = controlTag('diagnostics');
const NO_ACCOUNT = e('NOT_FOUND', 'no such account');
const clearQuerySchema = { type: 'object', properties: { accountId: requestsQuerySchema.properties.accountId } } as const;

export const requestOperations = [
  adminRoute<never, RequestsQuery>({
    method: 'get',
    path: '/_sandbox/requests',
    tag,
    scope: 'tenant',
    summary: "The journal of recent API requests, newest first (secrets redacted): one tenant's (accountId), or every tenant's",
    query: requestsQuerySchema,
    responses: { 200: ok(list(R.journalEntrySchema)), 404: NO_ACCOUNT },
    handle({ ctx, res, query: q, tenant }) {
      const accountId = accountFor(tenant, ctx.store, q.accountId);
      res.json(
        ctx.journal.list({
          ...(accountId ? { accountId } : {}),
          ...(q.method ? { method: q.method.toUpperCase() } : {}),
          ...(q.status !== undefined ? { status: q.status } : {}),
          ...(q.path ? { path: q.path } : {}),
          ...(q.requestId ? { requestId: q.requestId } : {}),
          limit: q.limit,
        }),
      );
    },
  }),

  adminRoute<never, { accountId?: string }>({
    method: 'delete',
    path: '/_sandbox/requests',
    tag,
    scope: 'tenant',
    summary: "Empty one tenant's journal (accountId), or every tenant's",
    query: clearQuerySchema,
    responses: { 204: noContent, 404: NO_ACCOUNT },
    handle({ ctx, res, query, tenant }) {
      ctx.journal.clear(accountFor(tenant, ctx.store, query.accountId));
      res.status(204).end();
    },
  }),
];
