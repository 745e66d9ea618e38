// /_sandbox/rules (docs/control-api.md#outcome-rules): the outcome rules ("magic values"), in evaluation order.
// POST appends a rule (201), or replaces the rule of the same id in place (200).
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import { formatRule } from '../format/control.js';
import { parseBody, readBody } from '../http/body.js';
import type { Routes } from '../http/routes.js';
import { ruleInputSchema, type RuleInput } from '../schemas/control.js';
import { clearRules, putRule, removeRule, rulesInOrder } from '../services/rules.js';

const RULE_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

export function ruleRoutes(routes: Routes, ctx: AppContext): void {
  routes.get('/_sandbox/rules', (_req, res) => {
    res.json([...rulesInOrder(ctx.store)].map(formatRule));
  });

  routes.post('/_sandbox/rules', parseBody(), async (req, res) => {
    const body = readBody<RuleInput>(req, res, ruleInputSchema);
    const { rule, created } = await ctx.store.commit((tx) => putRule(tx, body, ctx.newId, ctx.clock.nowIso()));
    res.status(created ? 201 : 200).json(formatRule(rule));
  });

  routes.delete('/_sandbox/rules', async (_req, res) => {
    await ctx.store.commit((tx) => clearRules(tx));
    res.status(204).end();
  });

  routes.delete('/_sandbox/rules/:id', async (req, res) => {
    const id = String(req.params.id);
    if (!RULE_ID.test(id))
      throw new SandboxError('VALIDATION_ERROR', 'a rule id is 1-64 letters, digits, or _ . : -', [
        { path: '/params/id', message: 'is not a rule id' },
      ]);
    await ctx.store.commit((tx) => removeRule(tx, id));
    res.status(204).end();
  });
}
