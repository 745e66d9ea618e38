// Outcome rules (docs/control-api.md#outcome-rules): sandbox-wide, or one tenant's own
// (docs/decisions.md#d62-scoped-arrangements). A tenant's new transaction is decided by the first
// matching rule of its own, then of the sandbox-wide ones, each in creation order.
import { ruleChecks } from '../schemas/checks.js';
import type { RuleInput } from '../schemas/control.js';
import { notFound, SandboxError } from '../domain/errors.js';
import { SANDBOX_WIDE, scopedId, scopeOf } from '../domain/scope.js';
import type { New, Rule } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';

const oldest = { order: 'oldest' } as const;

/** A rule record from its validated input, in its scope (`accountId`, null: sandbox-wide); `fallbackId` when the input names none. */
export function buildRule(input: RuleInput, accountId: string | null, fallbackId: string, now: string): New<Rule> {
  const rule: New<Rule> = {
    id: scopedId(accountId, input.id ?? fallbackId),
    ...(accountId ? { accountId } : {}),
    match: { ...input.match },
    outcome: { ...input.outcome },
    createdAt: now,
  };
  if (input.description !== undefined) rule.description = input.description;
  return rule;
}

/** The rules that may decide a tenant's new transaction, in the order they are tried: its own, then the sandbox-wide ones. */
export function* rulesFor(data: Reads, accountId: string): Generator<Readonly<Rule>> {
  yield* data.rules.find('byScope', accountId, oldest);
  yield* data.rules.find('byScope', SANDBOX_WIDE, oldest);
}

// ---- the control API's edits of the rule lists ----
// A new rule goes last in its scope (first match wins); a rule posted with the id of an existing one
// of the same scope replaces it in place, keeping its position (its seq).

/** One tenant's own rules (`accountId`), or every rule of every scope, oldest first. */
export const listRules = (data: Reads, accountId?: string): Iterable<Readonly<Rule>> =>
  accountId ? data.rules.find('byScope', accountId, oldest) : data.rules.scan(oldest);

/** Checks what the schema cannot say (the rules of ruleChecks, which the route also runs beside the schema); throws a VALIDATION_ERROR. */
function checkRule(input: RuleInput): void {
  const issues = ruleChecks(input);
  if (issues.length > 0)
    throw new SandboxError('VALIDATION_ERROR', `${issues[0]!.path.slice(1).replace('/', '.')} ${issues[0]!.message}`, issues);
}

export function putRule(
  tx: Tx,
  input: RuleInput,
  accountId: string | null,
  newId: () => string,
  now: string,
): { rule: Readonly<Rule>; created: boolean } {
  checkRule(input);
  const rule = buildRule(input, accountId, newId(), now);
  const created = !tx.rules.has(rule.id);
  return { rule: tx.put('rules', rule), created };
}

/** Removes the rule `id` of a scope (a tenant's, or null: the sandbox-wide one). */
export function removeRule(tx: Tx, accountId: string | null, id: string): Readonly<Rule> {
  const rule = tx.remove('rules', scopedId(accountId, id));
  if (!rule) throw notFound(accountId ? `rule ${id} of account ${accountId}` : `sandbox-wide rule ${id}`);
  return rule;
}

/** Removes one tenant's own rules, or (no accountId) every rule of every scope. */
export function clearRules(tx: Tx, accountId?: string): number {
  const ids = [...(accountId ? tx.rules.find('byScope', scopeOf(accountId)) : tx.rules.scan())].map((r) => r.id);
  for (const id of ids) tx.remove('rules', id);
  return ids.length;
}
