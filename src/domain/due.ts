// What the clock must do now (docs/decisions.md#d38-the-sandbox-clock): a pure function of (state, time), so that a
// tick and a clock jump run the same code. Every action closes its transaction, so only the
// earliest due action of each one matters: when the clock jumps past both an outcome at +5 s and
// an expiry at +60 s, the outcome happens and the expiry no longer applies.
import type { ChargeAction, New, Transaction } from '../store/model.js';

type DueKind = ChargeAction | 'settle';

export interface DueAction {
  kind: DueKind;
  transactionId: string;
  /** when it fell due (ISO); the transition is stamped with this time */
  at: string;
}

/** The action a transaction is waiting for, due or not; null when nothing will happen on its own. */
export function nextAction(t: Readonly<New<Transaction>>): DueAction | null {
  const outcome = t.outcome;
  if (t.type === 'CASH_IN') {
    if (t.status !== 'WAITING_PAYMENT') return null;
    const expiry: DueAction = { kind: 'expire', transactionId: t.id, at: t.expiresAt };
    if (!outcome?.at || outcome.action === 'wait') return expiry;
    if (outcome.action !== 'pay' && outcome.action !== 'expire' && outcome.action !== 'cancel') return expiry;
    // an outcome due at the very instant of expiry still wins: it was scheduled within the charge's life
    return outcome.at <= t.expiresAt ? { kind: outcome.action, transactionId: t.id, at: outcome.at } : expiry;
  }
  if (t.status !== 'PROCESSING') return null;
  if (outcome?.action === 'wait') return null;
  if (outcome?.at && (outcome.action === 'complete' || outcome.action === 'fail'))
    return { kind: 'settle', transactionId: t.id, at: outcome.at };
  return { kind: 'settle', transactionId: t.id, at: t.settleAt };
}

/**
 * Every action due at `now` among `candidates` (the store's due index gives only those whose next
 * action falls due by now), oldest first (ISO 8601 UTC strings order as their instants do).
 */
export function dueActions(candidates: Iterable<Readonly<New<Transaction>>>, now: Date): DueAction[] {
  const nowIso = now.toISOString();
  const out: DueAction[] = [];
  for (const t of candidates) {
    const next = nextAction(t);
    if (next && next.at <= nowIso) out.push(next);
  }
  return out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.transactionId < b.transactionId ? -1 : 1));
}
