// GET /_sandbox/changes (docs/control-api.md#the-change-stream): server-sent events naming what
// changed, for the dashboard (and anything else that would otherwise poll the control API). Protected
// by the admin token like every control call: the dashboard reads it with fetch(), which sends the
// token as a header, so the token never appears in a URL.
import { CHANGE_TOPICS, type ChangeTopic } from '../domain/vocabulary.js';
import { adminRoute } from '../http/operations.js';
import { changesQuerySchema, type ChangesQuery } from '../schemas/changes.js';
import { controlTag, header, NOT_FOUND } from '../schemas/operation.js';
import { ChangeFeed, KEEP_ALIVE_MS, STREAM_HEADERS } from './change-feed.js';
import { accountFor } from './scope.js';

export const changeOperations = [
  adminRoute<never, ChangesQuery>({
    method: 'get',
    path: '/_sandbox/changes',
    tag: controlTag('dashboard'),
    summary: 'Server-sent events naming the lists that changed (the dashboard listens instead of polling)',
    scope: 'tenant',
    query: changesQuerySchema,
    responses: {
      200: {
        description:
          'text/event-stream: first `event: ready` (the topics and account heard), then one `event: change` per batch of ' +
          'durable changes, `data: {"topics": [...], "transactionIds": [...] | null, "reset": boolean}` (at most four a second), ' +
          `and a comment line every ${KEEP_ALIVE_MS / 1000} s. Never ends on its own.`,
        mediaTypes: ['text/event-stream'],
        headers: { 'Cache-Control': header('Events are never cached', { const: 'no-store' }) },
      },
      404: NOT_FOUND,
    },
    handle({ ctx, req, res, query, tenant }) {
      // a tenant's stream is its own: its account when it names none, 404 for another's
      const accountId = accountFor(tenant, ctx.store, query.accountId) ?? null;
      const topics = query.topics ? [...new Set(query.topics.split(','))] : [...CHANGE_TOPICS];
      // a HEAD has no body to wait for: an answer left open would hold its keep-alive connection
      if (req.method === 'HEAD') return void res.writeHead(200, STREAM_HEADERS).end();
      (ctx.changeFeed ??= new ChangeFeed(ctx)).subscribe(res, topics as ChangeTopic[], accountId);
    },
  }),
];
