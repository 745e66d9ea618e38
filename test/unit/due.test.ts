import { describe, expect, it } from 'vitest';
import { buildCharge } from '../../src/domain/charges.js';
import { dueActions, nextAction } from '../../src/domain/due.js';
import { buildTransfer } from '../../src/domain/transfers.js';
import type { New, ScheduledOutcome, Transaction } from '../../src/store/model.js';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const iso = (s: number) => at(s).toISOString();

const charge = (id: string, expiration: number, outcome?: ScheduledOutcome) =>
  buildCharge({
    id,
    accountId: 'a',
    merchantId: null,
    input: { amount: 100, description: 'd', customer: { name: 'n', document: '52998224725' }, expiration },
    pixCode: 'x',
    split: [],
    now: T0,
    ...(outcome ? { outcome } : {}),
  });

const transfer = (id: string, settleAfterSeconds: number, outcome?: ScheduledOutcome) =>
  buildTransfer({
    id,
    accountId: 'a',
    merchantId: null,
    amount: 100,
    description: 'd',
    details: { name: 'n', key: '52998224725', keyType: 'CPF' },
    idempotencyKey: 'k',
    settleAfterSeconds,
    now: T0,
    ...(outcome ? { outcome } : {}),
  });

/** The candidates the store's due index would give: the open transactions. */
function state(...ts: New<Transaction>[]) {
  return ts.filter((t) => t.status === 'WAITING_PAYMENT' || t.status === 'PROCESSING');
}

describe('dueActions', () => {
  it('expires a charge once the clock reaches createdAt + expiration, not before', () => {
    const s = state(charge('c', 60));
    expect(dueActions(s, at(59.999))).toEqual([]);
    expect(dueActions(s, at(60))).toEqual([{ kind: 'expire', transactionId: 'c', at: iso(60) }]);
  });

  it('after a jump past an outcome at +5 s and an expiry at +60 s, only the outcome runs (it came first)', () => {
    const s = state(charge('c', 60, { ruleId: 'r', action: 'pay', at: iso(5) }));
    expect(dueActions(s, at(3600))).toEqual([{ kind: 'pay', transactionId: 'c', at: iso(5) }]);
    expect(dueActions(s, at(4))).toEqual([]);
  });

  it('an outcome scheduled after the expiry loses to it; a tie goes to the outcome', () => {
    expect(dueActions(state(charge('c', 60, { ruleId: 'r', action: 'pay', at: iso(90) })), at(3600))).toEqual([
      { kind: 'expire', transactionId: 'c', at: iso(60) },
    ]);
    expect(dueActions(state(charge('c', 60, { ruleId: 'r', action: 'cancel', at: iso(60) })), at(60))).toEqual([
      { kind: 'cancel', transactionId: 'c', at: iso(60) },
    ]);
  });

  it('a charge whose rule says wait still expires; a transfer whose rule says wait never settles by itself', () => {
    expect(nextAction(charge('c', 60, { ruleId: 'r', action: 'wait' }))).toEqual({ kind: 'expire', transactionId: 'c', at: iso(60) });
    expect(nextAction(transfer('t', 2, { ruleId: 'r', action: 'wait' }))).toBeNull();
    expect(dueActions(state(transfer('t', 2, { ruleId: 'r', action: 'wait' })), at(1e6))).toEqual([]);
  });

  it('settles a transfer at settleAt, or at its outcome time when a rule decided it', () => {
    expect(dueActions(state(transfer('t', 2)), at(1))).toEqual([]);
    expect(dueActions(state(transfer('t', 2)), at(2))).toEqual([{ kind: 'settle', transactionId: 't', at: iso(2) }]);
    expect(dueActions(state(transfer('t', 0)), at(0))).toEqual([{ kind: 'settle', transactionId: 't', at: iso(0) }]);
    const ruled = transfer('t', 2, { ruleId: 'r', action: 'fail', at: iso(10), code: 'X' });
    expect(dueActions(state(ruled), at(5))).toEqual([]);
    expect(dueActions(state(ruled), at(10))).toEqual([{ kind: 'settle', transactionId: 't', at: iso(10) }]);
  });

  it('looks only at open transactions and orders every action by its due time', () => {
    const closed = { ...charge('closed', 60), status: 'PAID' as const };
    const s = state(charge('late', 120), transfer('early', 2), charge('mid', 60, { ruleId: 'r', action: 'pay', at: iso(30) }), closed);
    expect(dueActions(s, at(3600)).map((a) => [a.transactionId, a.kind])).toEqual([
      ['early', 'settle'],
      ['mid', 'pay'],
      ['late', 'expire'],
    ]);
    // a closed transaction given as a candidate still does nothing
    expect(dueActions([closed], at(3600))).toEqual([]);
  });
});
