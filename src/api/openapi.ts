// GET /openapi.json (docs/api.md#the-openapi-document): the OpenAPI 3.1 document of the public and control APIs,
// built from the operation table whose schemas validate the requests. Open even with an admin token (no data in it).
import { route } from '../http/operations.js';
import { buildOpenApi } from '../schemas/openapi.js';
import { controlTag, ok, revalidate } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';

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
      // built once per app and URL (the URL is known only once the sandbox listens), kept in its context
      if (ctx.openApi?.url !== url) ctx.openApi = { url, doc: buildOpenApi({ version: ctx.version, serverUrl: url, operations }) };
      res.setHeader('Cache-Control', 'no-cache');
      res.json(ctx.openApi.doc);
    },
  }),
];
