// /_sandbox/accounts (docs/control-api.md#accounts): isolated tenants with their own credentials and settings,
// and money moved into or out of their main balance.
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
import { controlTag, created, INSUFFICIENT, INVALID_STATE, NOT_FOUND, ok } from '../schemas/operation.js';
import { pageQuerySchema, paged, type PageQuery } from '../schemas/paging.js';
import * as R from '../schemas/responses.js';
import { createAccount, requireAccount, updateAccount } from '../services/accounts.js';
import { adjustAccount } from '../services/adjustments.js';
import { resetAccount } from '../services/snapshots.js';
import { takePage } from '../store/page.js';
import { sendPage } from './paging.js';

const tag = controlTag('accounts');
const view = (ctx: AppContext, id: string) => formatAccount(requireAccount(ctx.store, id), ctx.store.balances);

export const accountOperations = [
  adminRoute<never, PageQuery>({
    method: 'get',
    path: '/_sandbox/accounts',
    tag,
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
    summary: 'One account',
    responses: { 200: ok(R.accountSchema) },
    handle({ ctx, req, res }) {
      res.json(view(ctx, uuidParam(req, 'id')));
    },
  }),

  adminRoute<AccountPatchBody>({
    method: 'patch',
    path: '/_sandbox/accounts/{id}',
    tag,
    summary: "Change an account's settings",
    body: accountPatchSchema,
    responses: { 200: ok(R.accountSchema) },
    async handle({ ctx, req, res, readBody }) {
      const id = uuidParam(req, 'id');
      const body = readBody();
      await ctx.store.commit((tx) => updateAccount(tx, ctx, id, body));
      res.json(view(ctx, id));
    },
  }),

  adminRoute<CreditBody>({
    method: 'post',
    path: '/_sandbox/accounts/{id}/credit',
    tag,
    summary: "Move money into (or, negative, out of) an account's main balance",
    body: creditSchema,
    responses: { 200: ok(R.accountSchema), 422: INSUFFICIENT },
    async handle({ ctx, req, res, readBody }) {
      const id = uuidParam(req, 'id');
      const body = readBody();
      await ctx.store.commit((tx) => adjustAccount(tx, ctx, id, body.amount, body.description));
      res.json(view(ctx, id));
    },
  }),

  adminRoute({
    method: 'post',
    path: '/_sandbox/accounts/{id}/reset',
    tag,
    summary: 'Put the tenant back as it stood right after it was created or loaded from fixtures (its id and credentials kept)',
    responses: { 200: ok(R.accountSchema), 404: NOT_FOUND, 409: INVALID_STATE },
    async handle({ ctx, req, res }) {
      const id = uuidParam(req, 'id');
      await resetAccount(ctx, id);
      res.json(view(ctx, id));
    },
  }),
];
