// POST /_sandbox/reset (docs/control-api.md#reset): back to the configured fixtures, or to another set:
// `{fixtures: "example-marketplace"}` (a set shipped in the package's fixtures/ folder, by name)
// or `{fixtures: {...}}` (a whole fixture object). Answers what it loaded.
import path from 'node:path';
import type { AppContext } from '../context.js';
import { formatAccount } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import { resetSchema, type ResetBody } from '../schemas/control.js';
import { resetSandbox, resolveFixtures } from '../services/reset.js';

export function resetRoutes(routes: Routes, ctx: AppContext): void {
  routes.post('/_sandbox/reset', parseBody(), async (req, res) => {
    const body = readBody<ResetBody>(req, res, resetSchema);
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
    });
  });
}
