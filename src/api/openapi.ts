// GET /openapi.json (docs/api.md#the-openapi-document): the OpenAPI 3.1 document of the public and control APIs,
// built from the operation table whose schemas validate the requests. Open even with an admin token (no data in it).
import { route } from '../http/operations.js';
import { buildOpenApi } from '../schemas/openapi.js';
import { controlTag, ok, revalidate } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';

// a memo, not state: the document is a pure function of the table, the version and the URL
let cached: { ops: unknown; version: string; url: string; doc: Record<string, unknown> } | null = null;

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
      const version = ctx.version;
      if (cached?.url !== url || cached.ops !== operations || cached.version !== version)
        cached = { ops: operations, version, url, doc: buildOpenApi({ version, serverUrl: url, operations }) };
      res.setHeader('Cache-Control', 'no-cache');
      res.json(cached.doc);
    },
  }),
];
