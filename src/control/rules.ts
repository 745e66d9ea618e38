// /_sandbox/rules (docs/control-api.md#outcome-rules): the outcome rules ("magic values"), in evaluation order.
// POST appends a rule (201), or replaces the rule of the same id in place (200).
import { SandboxError } from '../domain/errors.js';
import { formatRule } from '../format/control.js';
import { adminRoute } from '../http/operations.js';
import { ruleInputSchema, type RuleInput } from '../schemas/control.js';
import { controlTag, created, e, list, noContent, NOT_FOUND, ok } from '../schemas/operation.js';
import * as R from '../schemas/responses.js';
import { clearRules, putRule, removeRule, rulesInOrder } from '../services/rules.js';
import { ruleChecks } from '../schemas/checks.js';

const RULE_ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const tag = controlTag('rules');

export const ruleOperations = [
  adminRoute({
    method: 'get',
    path: '/_sandbox/rules',
    tag,
    summary: 'Outcome rules, in evaluation order',
    responses: { 200: ok(list(R.ruleViewSchema)) },
    handle({ ctx, res }) {
      res.json([...rulesInOrder(ctx.store)].map(formatRule));
    },
  }),

  adminRoute<RuleInput>({
    method: 'post',
    path: '/_sandbox/rules',
    tag,
    summary: 'Append a rule (201) or replace the rule of the same id (200)',
    body: ruleInputSchema,
    check: ruleChecks,
    responses: { 200: ok(R.ruleViewSchema, 'Replaced'), 201: created(R.ruleViewSchema) },
    async handle({ ctx, res, readBody }) {
      const body = readBody();
      const { rule, created } = await ctx.store.commit((tx) => putRule(tx, body, ctx.newId, ctx.clock.nowIso()));
      res.status(created ? 201 : 200).json(formatRule(rule));
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/rules',
    tag,
    summary: 'Remove every rule',
    responses: { 204: noContent },
    async handle({ ctx, res }) {
      await ctx.store.commit((tx) => clearRules(tx));
      res.status(204).end();
    },
  }),

  adminRoute({
    method: 'delete',
    path: '/_sandbox/rules/{id}',
    tag,
    summary: 'Remove one rule',
    params: { id: { type: 'string', pattern: RULE_ID.source } },
    responses: { 204: noContent, 400: e('VALIDATION_ERROR', 'not a rule id'), 404: NOT_FOUND },
    async handle({ ctx, req, res }) {
      const id = String(req.params.id);
      if (!RULE_ID.test(id))
        throw new SandboxError('VALIDATION_ERROR', 'a rule id is 1-64 letters, digits, or _ . : -', [
          { path: '/params/id', message: 'is not a rule id' },
        ]);
      await ctx.store.commit((tx) => removeRule(tx, id));
      res.status(204).end();
    },
  }),
];
