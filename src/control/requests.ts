// /_sandbox/requests (docs/control-api.md#request-journal): the request journal, newest first, secrets redacted.
// Filters (extensions): method, status, path (a prefix), requestId; `limit` (default 100).
import { adminRoute } from '../http/operations.js';
import { requestsQuerySchema, type RequestsQuery } from '../schemas/control-sandbox.js';
import { controlTag, list, noContent, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';

const tag = controlTag('diagnostics');

export const requestOperations = [
  adminRoute<never, RequestsQuery>({
    method: 'get',
    path: '/_sandbox/requests',
    tag,
    summary: 'The journal of recent API requests, newest first (secrets redacted)',
    query: requestsQuerySchema,
    responses: { 200: ok(list(R.journalEntrySchema)) },
    handle({ ctx, res, query: q }) {
      const method = q.method?.toUpperCase();
      const list = ctx.journal
        .list()
        .filter(
          (e) =>
            (!method || e.method === method) &&
            (!q.status || e.status === q.status) &&
            (!q.path || e.path.startsWith(q.path)) &&
            (!q.requestId || e.requestId === q.requestId),
        );
      res.json(list.slice(0, q.limit));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/requests',
    tag,
    summary: 'Empty the journal',
    responses: { 204: noContent },
    handle({ ctx, res }) {
      ctx.journal.clear();
      res.status(204).end();
    },
  }),
];
