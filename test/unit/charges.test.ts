import { describe, expect, it } from 'vitest';
import {
  autoPayOutcome,
  buildCharge,
  cashInIssues,
  chargeLocation,
  closedCharge,
  defaultPayer,
  paidCharge,
  receiverShare,
  type NewCharge,
} from '../../src/domain/charges.js';
import { ISPBS } from '../../src/domain/end-to-end.js';
import { SandboxError } from '../../src/domain/errors.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const base: NewCharge = {
  id: 'c1',
  accountId: 'a1',
  merchantId: null,
  input: { amount: 10_000, description: 'pizza', customer: { name: 'Maria', document: '52998224725' } },
  pixCode: 'CODE',
  split: [],
  now: NOW,
};

function expectCode(fn: () => unknown, code: string): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    expect((e as SandboxError).code).toBe(code);
    return;
  }
  throw new Error(`expected ${code}`);
}

describe('cashInIssues', () => {
  it('accepts a CPF or CNPJ with valid check digits and names the field otherwise', () => {
    expect(cashInIssues({ ...base.input, customer: { name: 'x', document: '52998224725' } })).toEqual([]);
    expect(cashInIssues({ ...base.input, customer: { name: 'x', document: '11222333000181' } })).toEqual([]);
    expect(cashInIssues({ ...base.input, customer: { name: 'x', document: '52998224724' } })).toEqual([
      { path: '/customer/document', message: expect.stringContaining('CPF') },
    ]);
    expect(cashInIssues({ ...base.input, customer: { name: 'x', document: '11111111111111' } })[0]?.message).toMatch(/CNPJ/);
  });
});

describe('chargeLocation', () => {
  it('is host[:port] and path without scheme or doubled slash', () => {
    expect(chargeLocation('http://127.0.0.1:8080', 'abc')).toBe('127.0.0.1:8080/pix/qr/v2/abc');
    expect(chargeLocation('https://pix.example.com/', 'abc')).toBe('pix.example.com/pix/qr/v2/abc');
  });
});

describe('buildCharge', () => {
  it('is WAITING_PAYMENT, expires after the default 86,400 s, and keeps only the fields given', () => {
    const c = buildCharge(base);
    expect(c).toEqual({
      id: 'c1',
      type: 'CASH_IN',
      accountId: 'a1',
      merchantId: null,
      amount: 10_000,
      description: 'pizza',
      status: 'WAITING_PAYMENT',
      customer: { name: 'Maria', document: '52998224725' },
      expiration: 86_400,
      expiresAt: '2026-03-02T12:00:00.000Z',
      pixCode: 'CODE',
      split: [],
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
    });
  });

  it('carries expiration, externalId, customer contact and the scheduled outcome', () => {
    const outcome = autoPayOutcome(30, NOW);
    const c = buildCharge({
      ...base,
      input: {
        ...base.input,
        expiration: 60,
        externalId: 'order-1',
        customer: { ...base.input.customer, email: 'm@x.com', phone: '11987654321' },
      },
      outcome,
    });
    expect(c.expiresAt).toBe('2026-03-01T12:01:00.000Z');
    expect(c.externalId).toBe('order-1');
    expect(c.customer).toEqual({ name: 'Maria', document: '52998224725', email: 'm@x.com', phone: '11987654321' });
    expect(c.outcome).toEqual({ ruleId: 'account.autoPayAfterSeconds', action: 'pay', at: '2026-03-01T12:00:30.000Z' });
  });
});

describe('paying and closing', () => {
  const waiting = buildCharge(base);

  it('a default payer is the customer at a known bank', () => {
    const p = defaultPayer(waiting, undefined, () => 0.5);
    expect(p).toMatchObject({ name: 'Maria', document: '52998224725', account_type: 'CACC' });
    expect(Object.keys(ISPBS)).toContain(p.ispb);
    expect(p.account_number).toMatch(/^[0-9]{6}-[0-9]$/);
    expect(defaultPayer(waiting, { name: 'João', ispb: '00000000' }, Math.random)).toMatchObject({
      name: 'João',
      ispb: '00000000',
      document: '52998224725',
    });
  });

  it('PAID carries payer, end-to-end id and paidAt, once only', () => {
    const payer = defaultPayer(waiting, undefined, Math.random);
    const paid = paidCharge(waiting, payer, 'E123', '2026-03-01T12:00:05.000Z');
    expect(paid).toMatchObject({
      status: 'PAID',
      payer,
      endToEndId: 'E123',
      paidAt: '2026-03-01T12:00:05.000Z',
      updatedAt: '2026-03-01T12:00:05.000Z',
    });
    expect(waiting.status).toBe('WAITING_PAYMENT'); // the input record is not mutated
    expectCode(() => paidCharge(paid, payer, 'E124', 'x'), 'INVALID_STATE');
    expectCode(() => closedCharge(paid, 'expire', 'x'), 'INVALID_STATE');
  });

  it('EXPIRED and CANCELLED carry the error that the lookup reports', () => {
    expect(closedCharge(waiting, 'expire', 't')).toMatchObject({ status: 'EXPIRED', error: { code: 'CHARGE_EXPIRED' } });
    const cancelled = closedCharge(waiting, 'cancel', 't');
    expect(cancelled).toMatchObject({ status: 'CANCELLED', error: { code: 'CHARGE_CANCELLED', message: expect.any(String) } });
    expectCode(() => paidCharge(cancelled, defaultPayer(cancelled, undefined, Math.random), 'E', 't'), 'INVALID_STATE');
    expectCode(() => closedCharge(cancelled, 'expire', 't'), 'INVALID_STATE');
  });

  it('the receiver keeps the amount less the split shares', () => {
    const split = [
      { walletId: 'w1', mode: 'FIXED' as const, value: 1_500, share: 1_500 },
      { walletId: 'w2', mode: 'PERCENTAGE' as const, value: 10, share: 1_000 },
    ];
    expect(receiverShare(buildCharge({ ...base, split }))).toBe(7_500);
    expect(receiverShare(waiting)).toBe(10_000);
  });
});
