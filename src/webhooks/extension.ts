// Plugs webhooks into a booting sandbox (EXTENSIONS.beforeListen): the --webhook-url endpoint,
// and the dispatcher registered as a worker, which sends what an earlier run left pending.
import type { AppContext } from '../context.js';
import { Dispatcher } from './dispatcher.js';
import { ensureConfigEndpoint } from '../services/webhook-endpoints.js';

/** Returns lines for the start-up banner. */
export async function startWebhooks(ctx: AppContext): Promise<string[]> {
  const endpoint = await ctx.store.commit((tx) => ensureConfigEndpoint(tx, ctx));
  const dispatcher = new Dispatcher(ctx);
  ctx.workers.push(dispatcher);
  dispatcher.start();
  return endpoint ? [`webhook: ${endpoint.url} (endpoint ${endpoint.id}, secret ${endpoint.secret})`] : [];
}
