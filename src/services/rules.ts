import { ruleChecks } from '../schemas/checks.js';
import type { RuleInput } from '../schemas/control.js';
import { notFound, SandboxError } from '../domain/errors.js';
import type { New, Rule } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';

/** A rule record from its validated input; `fallbackId` is used when the input names none. */
export function buildRule(input: RuleInput, fallbackId: string, now: string): New<Rule> {
  const rule: New<Rule> = { id: input.id ?? fallbackId, match: { ...input.match }, outcome: { ...input.outcome }, createdAt: now };
  if (input.description !== undefined) rule.description = input.description;
  return rule;
}

// ---- the control API's edits of the rule list (docs/control-api.md#outcome-rules) ----
// A new rule goes last (first match wins); a rule posted with the id of an existing one
// replaces it in place, keeping its position: rules are evaluated in creation order (their seq).

/** The rules in evaluation order. */
export const rulesInOrder = (data: Reads): Iterable<Readonly<Rule>> => data.rules.scan({ order: 'oldest' });

/** Checks what the schema cannot say (the rules of ruleChecks, which the route also runs beside the schema); throws a VALIDATION_ERROR. */
export function checkRule(input: RuleInput): void {
  const issues = ruleChecks(input);
  if (issues.length > 0)
    throw new SandboxError('VALIDATION_ERROR', `${issues[0]!.path.slice(1).replace('/', '.')} ${issues[0]!.message}`, issues);
}

export function putRule(tx: Tx, input: RuleInput, newId: () => string, now: string): { rule: Readonly<Rule>; created: boolean } {
  checkRule(input);
  const created = input.id === undefined || !tx.rules.has(input.id);
  return { rule: tx.put('rules', buildRule(input, newId(), now)), created };
}

export function removeRule(tx: Tx, id: string): Readonly<Rule> {
  const rule = tx.remove('rules', id);
  if (!rule) throw notFound(`rule ${id}`);
  return rule;
}

export function clearRules(tx: Tx): void {
  for (const r of tx.rules.scan()) tx.remove('rules', r.id);
}
