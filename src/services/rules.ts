import type { RuleInput } from '../schemas/control.js';
import { notFound, SandboxError } from '../domain/errors.js';
import type { Rule } from '../store/model.js';
import type { Tx } from '../store/store.js';

/** A rule record from its validated input; `fallbackId` is used when the input names none. */
export function buildRule(input: RuleInput, fallbackId: string, seq: number, now: string): Rule {
  const rule: Rule = { id: input.id ?? fallbackId, seq, match: { ...input.match }, outcome: { ...input.outcome }, createdAt: now };
  if (input.description !== undefined) rule.description = input.description;
  return rule;
}

// ---- the control API's edits of the rule list (CONTRACT §7b, §12) ----
// A new rule goes last (first match wins); a rule posted with the id of an existing one
// replaces it in place, keeping its position.

/** Checks what the schema cannot say; throws a VALIDATION_ERROR. */
export function checkRule(input: RuleInput): void {
  const { match, outcome } = input;
  if (match.amountMin !== undefined && match.amountMax !== undefined && match.amountMin > match.amountMax)
    throw new SandboxError('VALIDATION_ERROR', 'match.amountMin must not exceed match.amountMax', [
      { path: '/match/amountMin', message: 'must not exceed amountMax' },
    ]);
  if (outcome.action === 'fail' && outcome.code === undefined)
    throw new SandboxError('VALIDATION_ERROR', 'outcome.code is required for a fail outcome', [
      { path: '/outcome/code', message: 'is required when action is fail' },
    ]);
}

export function putRule(tx: Tx, input: RuleInput, newId: () => string, now: string): { rule: Rule; created: boolean } {
  checkRule(input);
  const existing = input.id !== undefined && Object.hasOwn(tx.data.rules, input.id) ? tx.data.rules[input.id] : undefined;
  const rule = buildRule(input, newId(), existing ? existing.seq : tx.nextSeq(), now);
  tx.put('rules', rule);
  return { rule, created: !existing };
}

export function removeRule(tx: Tx, id: string): Rule {
  const rule = Object.hasOwn(tx.data.rules, id) ? tx.data.rules[id] : undefined;
  if (!rule) throw notFound(`rule ${id}`);
  tx.remove('rules', id);
  return rule;
}

export function clearRules(tx: Tx): void {
  for (const id of Object.keys(tx.data.rules)) tx.remove('rules', id);
}
