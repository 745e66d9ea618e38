// /_sandbox/requests (docs/control-api.md#request-journal): the request journal, newest first, secrets redacted.
// Filters (extensions): method, status, path (a prefix), requestId; `limit` (default 100).
import type { AppContext } from '../context.js';
import type { Routes } from '../http/routes.js';
import { requestsQuerySchema, type RequestsQuery } from '../schemas/control.js';
import { validateQuery } from '../schemas/validator.js';

export function requestRoutes(routes: Routes, ctx: AppContext): void {
  const journal = ctx.journal;

  routes.get('/_sandbox/requests', (req, res) => {
    const q = validateQuery<RequestsQuery>(requestsQuerySchema, req.query);
    const method = q.method?.toUpperCase();
    const list = journal
      .list()
      .filter(
        (e) =>
          (!method || e.method === method) &&
          (!q.status || e.status === q.status) &&
          (!q.path || e.path.startsWith(q.path)) &&
          (!q.requestId || e.requestId === q.requestId),
      );
    res.json(list.slice(0, q.limit));
  });

  routes.delete('/_sandbox/requests', (_req, res) => {
    journal.clear();
    res.status(204).end();
  });
}
