// GET /openapi.json (docs/api.md#the-openapi-document): the OpenAPI 3.1 document of the public and control APIs,
// built from the operation table whose schemas validate the requests. Open even with an admin token (no data in it).
import type { AppContext } from '../context.js';
import { route } from '../http/operations.js';
import { buildOpenApi } from '../schemas/openapi.js';
import { controlTag, ok, revalidate } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';

// a memo per app, as before the table (not one slot that two sandboxes in a process would take in
// turn): the document is a pure function of its table, its version and its URL; gone with its app
const cache = new WeakMap<AppContext, { ops: unknown; url: string; doc: Record<string, unknown> }>();

export const openApiOperations = [
  route({
    method: 'get',
    path: '/openapi.json',
    tag: controlTag('sandbox'),
    auth: 'none',
    summary: 'This document',
    responses: { 200: { ...ok(R.openApiDocumentSchema), headers: revalidate } },
    handle({ ctx, res, operations }) {
      const url = ctx.publicUrl();
      let cached = cache.get(ctx);
      if (cached?.url !== url || cached.ops !== operations) {
        cached = { ops: operations, url, doc: buildOpenApi({ version: ctx.version, serverUrl: url, operations }) };
        cache.set(ctx, cached);
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.json(cached.doc);
    },
  }),
];
