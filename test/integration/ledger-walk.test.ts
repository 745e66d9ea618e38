// A seeded random walk of mixed operations through real HTTP: the public API (charges, transfers,
// replays) and the control API (payments, expiries, cancellations, forced settlements, clock,
// credits and debits). After every step the invariant of docs/decisions.md#d30-a-double-entry-ledger holds, every indexed balance equals
// the sum of its ledger entries, and each one equals what the transactions alone say it must be.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceFromEntries } from '../../src/domain/ledger.js';
import type { LedgerRef } from '../../src/store/model.js';
import { addPixKey, cancel, complete, expire, fail, pay } from '../helpers/control.js';
import { advance, balanceOf, cashInBody, cashOut, cashOutBody, createMerchant, type TestMerchant } from '../helpers/money.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { mulberry32 } from '../../src/domain/random.js';

const STEPS = 300;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
  await addPixKey(sb, { key: 'gone@example.com', keyType: 'EMAIL', owner: { name: 'X', document: '52998224725' }, unknown: true });
});
afterAll(async () => {
  await sb.stop();
});

describe('ledger random walk', () => {
  it(`keeps the money invariant after each of ${STEPS} mixed operations`, async () => {
    const random = mulberry32(20260301);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    const ctx = sb.running.ctx;
    const store = ctx.store;

    let accountToken = await sb.token();
    const merchants: TestMerchant[] = [await createMerchant(sb, accountToken, 'Walk A'), await createMerchant(sb, accountToken, 'Walk B')];
    // the walk moves the clock by about a minute in all: merchant tokens (300 s) stay valid
    /** a principal, its ledger account, and where the control API credits it (a negative amount debits) */
    type Who = { token: () => string; ref: LedgerRef; credit: string };
    const principals: Who[] = [
      { token: () => accountToken, ref: `account:${DEFAULT_ACCOUNT_ID}`, credit: `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}/credit` },
      ...merchants.map((m) => ({
        token: () => m.token,
        ref: `wallet:${m.walletId}` as LedgerRef,
        credit: `/_sandbox/wallets/${m.walletId}/credit`,
      })),
    ];
    const refs = principals.map((p) => p.ref);
    const refOfTransaction = (t: { accountId: string; merchantId: string | null }): LedgerRef =>
      t.merchantId ? `wallet:${merchants.find((m) => m.id === t.merchantId)!.walletId}` : `account:${t.accountId}`;

    const opening = 1_000_000;
    const adjustments = new Map<LedgerRef, number>();
    const sentKeys: { key: string; body: unknown; who: Who }[] = [];
    const counts: Record<string, number> = {};

    /** What each balance must be, from the transaction records alone (never the ledger). */
    function expectedBalances(): Map<LedgerRef, number> {
      const out = new Map<LedgerRef, number>(refs.map((r) => [r, adjustments.get(r) ?? 0]));
      out.set(refs[0]!, out.get(refs[0]!)! + opening);
      for (const t of [...store.transactions.scan({ order: 'oldest' })]) {
        if (t.accountId !== DEFAULT_ACCOUNT_ID) continue;
        const ref = refOfTransaction(t);
        if (t.type === 'CASH_IN' && t.status === 'PAID') {
          let rest = t.amount;
          for (const s of t.split) {
            out.set(`wallet:${s.walletId}`, out.get(`wallet:${s.walletId}`)! + s.share);
            rest -= s.share;
          }
          out.set(ref, out.get(ref)! + rest);
        }
        if (t.type === 'CASH_OUT' && t.status !== 'FAILED') out.set(ref, out.get(ref)! - t.amount);
      }
      return out;
    }

    function checkInvariant(step: number, op: string): void {
      const entries = [...store.ledger.scan({ order: 'oldest' })];
      const expected = expectedBalances();
      let sum = 0;
      for (const ref of refs) {
        const indexed = store.balances.of(ref);
        const where = `step ${step} (${op}) ${ref}`;
        expect(indexed, where).toBe(balanceFromEntries(entries, ref));
        expect(indexed, where).toBe(expected.get(ref));
        expect(indexed, where).toBeGreaterThanOrEqual(0);
        sum += indexed;
      }
      // docs/decisions.md#d30-a-double-entry-ledger: opening + paid cash-ins − cash-outs not failed + adjustments
      const txs = [...store.transactions.scan({ order: 'oldest' })];
      const paidIn = txs.filter((t) => t.type === 'CASH_IN' && t.status === 'PAID').reduce((s, t) => s + t.amount, 0);
      const out = txs.filter((t) => t.type === 'CASH_OUT' && t.status !== 'FAILED').reduce((s, t) => s + t.amount, 0);
      const adj = [...adjustments.values()].reduce((s, v) => s + v, 0);
      expect(sum, `step ${step} (${op}) total`).toBe(opening + paidIn - out + adj);
      expect(balanceFromEntries(entries, 'world'), `step ${step} world`).toBe(-sum);
    }

    const open = (type: 'CASH_IN' | 'CASH_OUT') =>
      [...store.transactions.scan({ order: 'oldest' })]
        .filter((t) => t.type === type && (t.status === 'WAITING_PAYMENT' || t.status === 'PROCESSING'))
        .map((t) => t.id);

    const ops: Record<string, () => Promise<void>> = {
      async cashIn() {
        const who = pick(principals);
        const amount = int(1, 50_000);
        const body: Record<string, unknown> = cashInBody({ amount });
        if (random() < 0.4) {
          const wallets = merchants.filter(() => random() < 0.7);
          if (wallets.length > 0)
            body.split = wallets.map((m) =>
              random() < 0.5
                ? { mode: 'FIXED', amount: int(1, Math.max(1, Math.floor(amount / 3))), wallet_id: m.walletId }
                : { mode: 'PERCENTAGE', amount: int(1, 45), wallet_id: m.walletId },
            );
        }
        const r = await sb.request('POST', '/v1/banking/cash-in/pix', { token: who.token(), body });
        expect([201, 422]).toContain(r.status);
      },
      async pay() {
        const ids = open('CASH_IN');
        if (ids.length) await pay(sb, pick(ids));
      },
      async expireOrCancel() {
        const ids = open('CASH_IN');
        if (ids.length) await (random() < 0.5 ? expire : cancel)(sb, pick(ids));
      },
      async cashOut() {
        const who = pick(principals);
        const balance = store.balances.of(who.ref);
        const amount = int(1, Math.max(1, Math.floor(balance * 1.2)));
        const details = pick([{}, { document: '52998224725' }, { document: '11144477735' }, { key: 'gone@example.com', keyType: 'EMAIL' }]);
        const body = cashOutBody({ amount: String(amount) }, details);
        const key = randomUUID();
        const r = await cashOut(sb, who.token(), body, key);
        if (amount > balance) {
          expect(r.status).toBe(422);
          expect(r.body.error.code).toBe('INSUFFICIENT_FUNDS');
        } else {
          expect(r.status).toBe(201);
          sentKeys.push({ key, body, who });
        }
      },
      async replay() {
        if (!sentKeys.length) return;
        const { key, body, who } = pick(sentKeys);
        const r = await cashOut(sb, who.token(), body, key);
        expect(r.status).toBe(201);
        expect(r.headers.get('x-sandbox-idempotent-replayed')).toBe('true');
      },
      async failTransfer() {
        const ids = open('CASH_OUT');
        if (ids.length) await fail(sb, pick(ids), 'AM04', 'walk');
      },
      async completeTransfer() {
        const ids = open('CASH_OUT');
        if (ids.length) await complete(sb, pick(ids));
      },
      async tick() {
        await advance(sb, int(1, 3));
      },
      async adjust() {
        const who = pick(principals);
        const amount = random() < 0.7 ? int(1, 20_000) : -int(1, Math.max(1, store.balances.of(who.ref)));
        const r = await sb.request('POST', who.credit, { body: { amount } });
        if (r.status === 200) adjustments.set(who.ref, (adjustments.get(who.ref) ?? 0) + amount);
        else expect([r.status, r.body.error.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
      },
    };
    const weights: [string, number][] = [
      ['cashIn', 6],
      ['pay', 5],
      ['expireOrCancel', 1],
      ['cashOut', 6],
      ['replay', 1],
      ['failTransfer', 1],
      ['completeTransfer', 1],
      ['tick', 3],
      ['adjust', 1],
    ];
    const total = weights.reduce((s, [, w]) => s + w, 0);

    checkInvariant(0, 'start');
    const clockAtStart = ctx.clock.nowSeconds();
    for (let step = 1; step <= STEPS; step++) {
      let roll = random() * total;
      const op = weights.find(([, w]) => (roll -= w) < 0)![0];
      counts[op] = (counts[op] ?? 0) + 1;
      await ops[op]!();
      checkInvariant(step, op);
      if (step % 50 === 0) {
        accountToken = await sb.token();
        // the public balance endpoint agrees with the index
        expect(await balanceOf(sb, accountToken)).toBe(store.balances.of(refs[0]!));
      }
    }
    expect(ctx.clock.nowSeconds() - clockAtStart).toBeLessThan(250);
    // every kind of operation ran, and money moved both ways
    expect(Object.keys(counts).sort()).toEqual(weights.map(([k]) => k).sort());
    const statuses = new Set([...store.transactions.scan({ order: 'oldest' })].map((t) => t.status));
    for (const s of ['PAID', 'EXPIRED', 'CANCELLED', 'WAITING_PAYMENT', 'COMPLETED', 'FAILED']) expect(statuses).toContain(s);
    expect([...store.ledger.scan({ order: 'oldest' })].some((e) => e.kind === 'SPLIT')).toBe(true);
    expect([...store.ledger.scan({ order: 'oldest' })].some((e) => e.kind === 'CASH_OUT_REVERSAL')).toBe(true);
  });
});
