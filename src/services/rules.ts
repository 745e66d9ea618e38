import type { RuleInput } from '../schemas/control.js';
import type { Rule } from '../store/model.js';

/** A rule record from its validated input; `fallbackId` is used when the input names none. */
export function buildRule(input: RuleInput, fallbackId: string, seq: number, now: string): Rule {
  const rule: Rule = { id: input.id ?? fallbackId, seq, match: { ...input.match }, outcome: { ...input.outcome }, createdAt: now };
  if (input.description !== undefined) rule.description = input.description;
  return rule;
}
