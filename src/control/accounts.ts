// /_sandbox/accounts (docs/control-api.md#accounts): isolated tenants with their own credentials and settings,
// and money moved into or out of their main balance.
import type { AppContext } from '../context.js';
import { generateClientId, generateSecret, hashSecret } from '../domain/credentials.js';
import { formatAccount } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import { uuidParam, type Routes } from '../http/routes.js';
import {
  accountCreateSchema,
  accountPatchSchema,
  creditSchema,
  type AccountCreateBody,
  type AccountPatchBody,
  type CreditBody,
} from '../schemas/control.js';
import { pageQuerySchema, type PageQuery } from '../schemas/paging.js';
import { validateQuery } from '../schemas/validator.js';
import { createAccount, requireAccount, updateAccount } from '../services/accounts.js';
import { adjustAccount } from '../services/adjustments.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';

export function accountRoutes(routes: Routes, ctx: AppContext): void {
  const view = (id: string) => formatAccount(requireAccount(ctx.store, id), ctx.store.balances);

  routes.get('/_sandbox/accounts', (req, res) => {
    const q = validateQuery<PageQuery>(pageQuerySchema, req.query);
    const page = takePage(ctx.store.accounts.scan({ order: 'oldest', after: q.after }), q.limit);
    sendPage(req, res, page, (a) => formatAccount(a, ctx.store.balances));
  });

  routes.post('/_sandbox/accounts', parseBody(), async (req, res) => {
    const body = readBody<AccountCreateBody>(req, res, accountCreateSchema);
    const clientId = body.client_id ?? generateClientId('acct', ctx.random.next);
    const secret = body.client_secret ?? generateSecret();
    const secretHash = await hashSecret(secret, body.client_secret === undefined ? 'generated' : 'chosen');
    const account = await ctx.store.commit((tx) => createAccount(tx, ctx, body, clientId, secretHash));
    // the secret is shown this once; only its hash is kept
    res.status(201).json(formatAccount(account, ctx.store.balances, secret));
  });

  routes.get('/_sandbox/accounts/:id', (req, res) => {
    res.json(view(uuidParam(req, 'id')));
  });

  routes.patch('/_sandbox/accounts/:id', parseBody(), async (req, res) => {
    const id = uuidParam(req, 'id');
    const body = readBody<AccountPatchBody>(req, res, accountPatchSchema);
    await ctx.store.commit((tx) => updateAccount(tx, ctx, id, body));
    res.json(view(id));
  });

  routes.post('/_sandbox/accounts/:id/credit', parseBody(), async (req, res) => {
    const id = uuidParam(req, 'id');
    const body = readBody<CreditBody>(req, res, creditSchema);
    await ctx.store.commit((tx) => adjustAccount(tx, ctx, id, body.amount, body.description));
    res.json(view(id));
  });
}
