// /_sandbox/pix-keys (docs/control-api.md#pix-key-directory): the PIX key directory. POST adds a key or replaces the
// entry of the same key (201 when new, 200 when replaced); DELETE clears it or removes one key.
import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import { formatPixKey } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import { pixKeySchema, type PixKeyBody } from '../schemas/control.js';
import { pageQuerySchema, type PageQuery } from '../schemas/paging.js';
import { validateQuery } from '../schemas/validator.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';
import { clearPixKeys, findPixKey, putPixKey, removePixKey } from '../services/pix-keys.js';

export function pixKeyRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/pix-keys', (req, res) => {
    const q = validateQuery<PageQuery>(pageQuerySchema, req.query);
    sendPage(req, res, takePage(ctx.store.pixKeys.scan({ order: 'oldest', after: q.after }), q.limit), formatPixKey);
  });

  routes.post('/_sandbox/pix-keys', parseBody(), async (req, res) => {
    const body = readBody<PixKeyBody>(req, res, pixKeySchema);
    const { entry, created } = await ctx.store.commit((tx) => putPixKey(tx, ctx, body));
    res.status(created ? 201 : 200).json(formatPixKey(entry));
  });

  routes.delete('/_sandbox/pix-keys', async (_req, res) => {
    await ctx.store.commit((tx) => clearPixKeys(tx));
    res.status(204).end();
  });

  routes.get('/_sandbox/pix-keys/:key', (req, res) => {
    const key = String(req.params.key);
    const entry = findPixKey(ctx.store, key);
    if (!entry) throw notFound(`PIX key ${key}`);
    res.json(formatPixKey(entry));
  });

  routes.delete('/_sandbox/pix-keys/:key', async (req, res) => {
    const key = String(req.params.key);
    await ctx.store.commit((tx) => removePixKey(tx, key));
    res.status(204).end();
  });
}
