// /_sandbox/accounts (docs/control-api.md#accounts): isolated tenants with their own credentials and settings,
// money moved into or out of their main balance, and a tenant's deletion. Creating and listing tenants
// is the operator's; a tenant's token reads, changes, credits and deletes its own account only.
import type { AppContext } from '../context.js';
import { generateClientId, generateSecret, hashSecret } from '../domain/credentials.js';
import { formatAccount } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { uuidParam } from '../http/routes.js';
import {
  accountCreateSchema,
  accountPatchSchema,
  creditSchema,
  type AccountCreateBody,
  type AccountPatchBody,
  type CreditBody,
} from '../schemas/control.js';
import { controlTag, created, e, INSUFFICIENT, noContent, ok } from '../schemas/operation.js';
import { pageQuerySchema, paged, type PageQuery } from '../schemas/paging.js';
import * as R from '../schemas/responses.js';
import { createAccount, requireAccount, updateAccount } from '../services/accounts.js';
import { deleteAccount } from '../services/account-delete.js';
import { adjustAccount } from '../services/adjustments.js';
import { resetAccount } from '../services/snapshots.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';
import { namedAccount } from './scope.js';

const tag = controlTag('accounts');
const view = (ctx: AppContext, id: string) => formatAccount(requireAccount(ctx.store, id), ctx.store.balances);

export const accountOperations = [
  adminRoute<never, PageQuery>({
    method: 'get',
    path: '/_sandbox/accounts',
    tag,
    scope: 'sandbox',
    summary: 'Every account, oldest first (pages of up to 1,000)',
    query: pageQuerySchema,
    responses: { 200: paged(R.accountSchema) },
    handle({ ctx, req, res, query: q }) {
      const page = takePage(ctx.store.accounts.scan({ order: 'oldest', after: q.after }), q.limit);
      sendPage(req, res, page, (a) => formatAccount(a, ctx.store.balances));
    },
  }),

  adminRoute<AccountCreateBody>({
    method: 'post',
    path: '/_sandbox/accounts',
    tag,
    scope: 'sandbox',
    summary: 'Create an isolated account (its client_secret is shown this once)',
    body: accountCreateSchema,
    responses: { 201: created(R.accountSchema) },
    async handle({ ctx, res, readBody }) {
      const body = readBody();
      const clientId = body.client_id ?? generateClientId('acct', ctx.random.next);
      const secret = body.client_secret ?? generateSecret();
      const secretHash = await hashSecret(secret, body.client_secret === undefined ? 'generated' : 'chosen');
      const account = await ctx.store.commit((tx) => createAccount(tx, ctx, body, clientId, secretHash));
      // the secret is shown this once; only its hash is kept
      res.status(201).json(formatAccount(account, ctx.store.balances, secret));
    },
  }),

  adminRoute({
    method: 'get',
    path: '/_sandbox/accounts/{id}',
    tag,
    scope: 'tenant',
    summary: 'One account',
    responses: { 200: ok(R.accountSchema) },
    handle({ ctx, req, res, tenant }) {
      res.json(view(ctx, namedAccount(tenant, ctx.store, uuidParam(req, 'id'))));
    },
  }),

  adminRoute<AccountPatchBody>({
    method: 'patch',
    path: '/_sandbox/accounts/{id}',
    tag,
    scope: 'tenant',
    summary: "Change an account's settings",
    body: accountPatchSchema,
    responses: { 200: ok(R.accountSchema) },
    async handle({ ctx, req, res, readBody, tenant }) {
      const id = namedAccount(tenant, ctx.store, uuidParam(req, 'id'));
      const body = readBody();
      await ctx.store.commit((tx) => updateAccount(tx, ctx, id, body));
      res.json(view(ctx, id));
    },
  }),

  adminRoute<CreditBody>({
    method: 'post',
    path: '/_sandbox/accounts/{id}/credit',
    tag,
    scope: 'tenant',
    summary: "Move money into (or, negative, out of) an account's main balance",
    body: creditSchema,
    responses: { 200: ok(R.accountSchema), 422: INSUFFICIENT },
    async handle({ ctx, req, res, readBody, tenant }) {
      const id = namedAccount(tenant, ctx.store, uuidParam(req, 'id'));
      const body = readBody();
      await ctx.store.commit((tx) => adjustAccount(tx, ctx, id, body.amount, body.description));
      res.json(view(ctx, id));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/accounts/{id}',
    tag,
    scope: 'tenant',
    summary: 'Delete a tenant and everything of it, in one durable change (its tokens answer 401 from then on)',
    responses: {
      204: noContent,
      409: e('INVALID_STATE', 'the default account (never deleted), or one whose clock an advance is walking (nothing changed)'),
    },
    async handle({ ctx, req, res, tenant }) {
      const id = namedAccount(tenant, ctx.store, uuidParam(req, 'id'));
      await ctx.store.commit((tx) => deleteAccount(tx, ctx, id));
      // the journal is not in the store: its entries of the tenant go once the deletion is durable
      ctx.journal.clear(id);
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'post',
    path: '/_sandbox/accounts/{id}/reset',
    tag,
    scope: 'tenant',
    summary: 'Put the tenant back as it stood right after it was created or loaded from fixtures (its id and credentials kept)',
    responses: {
      200: ok(R.accountSchema),
      409: e('INVALID_STATE', 'a reset or restore of the tenant under way, or its clock walked by an advance (nothing changed)'),
    },
    async handle({ ctx, req, res, tenant }) {
      const id = namedAccount(tenant, ctx.store, uuidParam(req, 'id'));
      await resetAccount(ctx, id);
      res.json(view(ctx, id));
    },
  }),
];
