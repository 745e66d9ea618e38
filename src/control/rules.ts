// /_sandbox/rules (docs/control-api.md#outcome-rules): the outcome rules ("magic values"), sandbox-wide or
// one tenant's own (docs/control-api.md#scoped-arrangements). POST appends a rule to its scope (201), or
// replaces the rule of the same id in that scope in place (200). A tenant's token reaches its own rules.
import { SandboxError } from '../domain/errors.js';
import { formatRule } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { ruleCreateSchema, scopeQuerySchema, type RuleCreateBody, type ScopeQuery } from '../schemas/control.js';
import { controlTag, created, e, list, noContent, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { clearRules, listRules, putRule, removeRule } from '../services/rules.js';
import { accountFor } from './scope.js';
import { ruleChecks } from '../schemas/checks.js';

const RULE_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const tag = controlTag('rules');
const NO_ACCOUNT = e('NOT_FOUND', 'no such account (nothing changed)');

export const ruleOperations = [
  adminRoute<never, ScopeQuery>({
    method: 'get',
    path: '/_sandbox/rules',
    tag,
    scope: 'tenant',
    summary: "Outcome rules, oldest first: one tenant's own (accountId), or every rule of every scope",
    query: scopeQuerySchema,
    responses: { 200: ok(list(R.ruleViewSchema)), 404: NO_ACCOUNT },
    handle({ ctx, res, query, tenant }) {
      res.json([...listRules(ctx.store, accountFor(tenant, ctx.store, query.accountId))].map(formatRule));
    },
  }),

  adminRoute<RuleCreateBody>({
    method: 'post',
    path: '/_sandbox/rules',
    tag,
    scope: 'tenant',
    summary: 'Append a rule to its scope (201) or replace the rule of the same id there (200)',
    body: ruleCreateSchema,
    check: ruleChecks,
    responses: { 200: ok(R.ruleViewSchema, 'Replaced'), 201: created(R.ruleViewSchema), 404: NO_ACCOUNT },
    async handle({ ctx, res, readBody, tenant }) {
      const { accountId: given, ...rule } = readBody();
      const accountId = accountFor(tenant, ctx.store, given) ?? null;
      const { rule: stored, created } = await ctx.store.commit((tx) => putRule(tx, rule, accountId, ctx.newId, ctx.clock.nowIso()));
      res.status(created ? 201 : 200).json(formatRule(stored));
    },
  }),

  adminRoute<never, ScopeQuery>({
    method: 'delete',
    path: '/_sandbox/rules',
    tag,
    scope: 'tenant',
    summary: "Remove one tenant's own rules (accountId), or every rule of every scope",
    query: scopeQuerySchema,
    responses: { 204: noContent, 404: NO_ACCOUNT },
    async handle({ ctx, res, query, tenant }) {
      const accountId = accountFor(tenant, ctx.store, query.accountId);
      await ctx.store.commit((tx) => clearRules(tx, accountId));
      res.status(204).end();
    },
  }),

  adminRoute<never, ScopeQuery>({
    method: 'delete',
    path: '/_sandbox/rules/{id}',
    tag,
    scope: 'tenant',
    summary: "Remove one rule: a tenant's own (accountId), or the sandbox-wide one",
    params: { id: { type: 'string', pattern: RULE_ID.source } },
    query: scopeQuerySchema,
    responses: {
      204: noContent,
      400: e('VALIDATION_ERROR', 'not a rule id'),
      404: e('NOT_FOUND', 'no such rule in that scope, or no such account'),
    },
    async handle({ ctx, req, res, query, tenant }) {
      const id = String(req.params.id);
      if (!RULE_ID.test(id))
        throw new SandboxError('VALIDATION_ERROR', 'a rule id is 1-64 letters, digits, or _ . : -', [
          { path: '/params/id', message: 'is not a rule id' },
        ]);
      const accountId = accountFor(tenant, ctx.store, query.accountId) ?? null;
      await ctx.store.commit((tx) => removeRule(tx, accountId, id));
      res.status(204).end();
    },
  }),
];
