// GET /openapi.json (docs/api.md#the-openapi-document): the OpenAPI 3.1 document of the public and control APIs,
// built from the schemas that validate requests. Open even with an admin token (no data in it).
import type { AppContext } from '../context.js';
import type { Routes } from '../http/routes.js';
import { buildOpenApi } from '../schemas/openapi.js';

export function openApiRoutes(routes: Routes, ctx: AppContext): void {
  let cached: { url: string; doc: Record<string, unknown> } | null = null;
  routes.get('/openapi.json', (_req, res) => {
    const url = ctx.publicUrl();
    if (cached?.url !== url) cached = { url, doc: buildOpenApi({ version: ctx.version, serverUrl: url }) };
    res.setHeader('Cache-Control', 'no-cache');
    res.json(cached.doc);
  });
}
