// Outcome rules ("magic values", docs/decisions.md#d29-outcome-rules): the first rule whose every match field holds
// decides a new transaction's fate.
import type { Rule, RuleMatch, ScheduledOutcome, TransactionType } from '../store/model.js';
import { nameOf } from './scope.js';

export interface RuleSubject {
  type: TransactionType;
  amount: number;
  description: string;
  /** transfers: the PIX key; charges: none */
  key?: string;
  /** transfers: details.document; charges: customer.document */
  document?: string;
}

function ruleMatches(match: RuleMatch, s: RuleSubject): boolean {
  if (match.type !== s.type) return false;
  if (match.amount !== undefined && match.amount !== s.amount) return false;
  if (match.amountMin !== undefined && s.amount < match.amountMin) return false;
  if (match.amountMax !== undefined && s.amount > match.amountMax) return false;
  if (match.key !== undefined && match.key.toLowerCase() !== (s.key ?? '').toLowerCase()) return false;
  if (match.document !== undefined && match.document !== s.document) return false;
  if (match.descriptionContains !== undefined && !s.description.toLowerCase().includes(match.descriptionContains.toLowerCase()))
    return false;
  return true;
}

/** The outcome the first matching rule schedules, or undefined when none matches; `rules` in evaluation order (a tenant's own first). */
export function scheduleOutcome(rules: Iterable<Readonly<Rule>>, s: RuleSubject, now: Date): ScheduledOutcome | undefined {
  let rule: Readonly<Rule> | undefined;
  for (const r of rules) {
    if (!ruleMatches(r.match, s)) continue;
    rule = r;
    break;
  }
  if (!rule) return undefined;
  const { action, afterSeconds = 0, code, message, payer } = rule.outcome;
  // the rule's id in its scope: a transaction names the rule its tenant posted
  const out: ScheduledOutcome = { ruleId: nameOf(rule), action };
  if (action !== 'wait') out.at = new Date(now.getTime() + afterSeconds * 1000).toISOString();
  if (code !== undefined) out.code = code;
  if (message !== undefined) out.message = message;
  if (payer !== undefined) out.payer = payer;
  return out;
}
