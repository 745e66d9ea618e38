// POST /_sandbox/reset (docs/control-api.md#reset): back to the configured fixtures, or to another set:
// `{fixtures: "example-marketplace"}` (a set shipped in the package's fixtures/ folder, by name)
// or `{fixtures: {...}}` (a whole fixture object). Answers what it loaded.
import path from 'node:path';
import { formatAccount } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { resetSchema, type ResetBody } from '../schemas/control-sandbox.js';
import { controlTag, ok } from '../schemas/operation.js';
import type { Wire } from '../schemas/from-schema.js';
import * as R from '../schemas/responses.js';
import { resetSandbox, resolveFixtures } from '../services/reset.js';

export const resetOperations = [
  adminRoute<ResetBody>({
    method: 'post',
    path: '/_sandbox/reset',
    tag: controlTag('sandbox'),
    scope: 'sandbox',
    summary: 'Back to the fixtures (or another set: a shipped name or an inline fixture object)',
    body: resetSchema,
    bodyOptional: true,
    responses: { 200: ok(R.resetResultSchema) },
    async handle({ ctx, res, readBody }) {
      const body = readBody();
      const fixtures = await resolveFixtures(ctx, body.fixtures);
      const { movedAsideTo } = await resetSandbox(ctx, fixtures);
      const store = ctx.store;
      res.json({
        status: 'reset',
        fixtures: typeof body.fixtures === 'string' ? body.fixtures : body.fixtures ? 'inline' : 'configured',
        // the old data file's new name, beside the data file (a name, not a path)
        movedAsideTo: movedAsideTo ? path.basename(movedAsideTo) : null,
        accounts: [...store.accounts.scan({ order: 'oldest' })].map((a) => formatAccount(a, store.balances)),
        pixKeys: store.pixKeys.size,
        rules: store.rules.size,
        webhookEndpoints: store.webhookEndpoints.size,
      } satisfies Wire<typeof R.resetResultSchema>);
    },
  }),
];
