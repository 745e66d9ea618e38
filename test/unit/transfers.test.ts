import { describe, expect, it } from 'vitest';
import { isValidCpf } from '../../src/domain/documents.js';
import { SandboxError } from '../../src/domain/errors.js';
import { buildTransfer, completedTransfer, failedTransfer, keyOwner, settlementOf, transferDetailsOf } from '../../src/domain/transfers.js';
import { seededRandom } from '../../src/domain/random.js';
import { cashOutChecks } from '../../src/schemas/checks.js';
import { cashOutSchema, type CashOutBody } from '../../src/schemas/public.js';
import { validateBody } from '../../src/schemas/validator.js';
import type { New, PixKeyEntry, TransferDetails } from '../../src/store/model.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const CPF = '52998224725';
const OTHER_CPF = '11144477735';

function errorOf(fn: () => unknown): SandboxError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    return e as SandboxError;
  }
  throw new Error('expected a SandboxError');
}

const transfer = (details: TransferDetails, outcome?: Parameters<typeof buildTransfer>[0]['outcome']) =>
  buildTransfer({
    id: 't1',
    accountId: 'a1',
    merchantId: null,
    amount: 1_500,
    description: 'rent',
    details,
    idempotencyKey: 'k',
    settleAfterSeconds: 2,
    now: NOW,
    ...(outcome ? { outcome } : {}),
  });

const entry = (key: string, keyType: PixKeyEntry['keyType'], document: string, extra: Partial<PixKeyEntry> = {}): New<PixKeyEntry> => ({
  id: key,
  key,
  keyType,
  owner: { name: 'Owner', document, ispb: '60701190', account_number: '1234-5', account_type: 'SVGS' },
  unknown: false,
  createdAt: NOW.toISOString(),
  ...extra,
});

/** A cash-out body validated as the route validates it, once: its schema and its check (the rules a schema cannot say). */
const checkedCashOut = (amount: string, details: { name: string; key: string; keyType: string; document?: string }) =>
  validateBody<CashOutBody>(cashOutSchema, { type: 'pix_key', description: 'rent', amount, details }, cashOutChecks);
const checkedDetails = (details: { name: string; key: string; keyType: string; document?: string }) => checkedCashOut('1500', details);

describe('the amount of a cash-out', () => {
  it('is a string of cents up to 1,000,000,000', () => {
    expect(Number(checkedCashOut('1500', { name: 'A', key: CPF, keyType: 'CPF' }).amount)).toBe(1_500);
    expect(Number(checkedCashOut('1000000000', { name: 'A', key: CPF, keyType: 'CPF' }).amount)).toBe(1_000_000_000);
    for (const bad of ['1000000001', '9999999999', '0', '01', '15.00']) {
      const e = errorOf(() => checkedCashOut(bad, { name: 'A', key: CPF, keyType: 'CPF' }));
      expect(e.code).toBe('VALIDATION_ERROR');
      expect(e.message).toMatch(/string of cents/);
    }
  });
});

describe('transferDetailsOf', () => {
  it('folds key types and their aliases, case-insensitively', () => {
    expect(transferDetailsOf({ name: 'A', key: CPF, keyType: 'cpf' }).keyType).toBe('CPF');
    expect(transferDetailsOf({ name: 'A', key: 'a@b.com', keyType: 'E-mail' }).keyType).toBe('EMAIL');
    expect(transferDetailsOf({ name: 'A', key: 'a@b.com', keyType: 'email' }).keyType).toBe('EMAIL');
    expect(transferDetailsOf({ name: 'A', key: '123e4567-e89b-12d3-a456-426614174000', keyType: 'evp' }).keyType).toBe('RANDOM');
    expect(transferDetailsOf({ name: 'A', key: '+5511987654321', keyType: 'Phone' }).keyType).toBe('PHONE');
    expect(transferDetailsOf({ name: 'A', key: '11222333000181', keyType: 'CNPJ' }).keyType).toBe('CNPJ');
  });

  it('stores keys in their canonical spelling and keeps the document', () => {
    expect(transferDetailsOf({ name: 'A', key: 'Ana@Example.COM', keyType: 'EMAIL', document: CPF })).toEqual({
      name: 'A',
      key: 'ana@example.com',
      keyType: 'EMAIL',
      document: CPF,
    });
    expect(transferDetailsOf({ name: 'A', key: '123E4567-E89B-12D3-A456-426614174000', keyType: 'RANDOM' }).key).toBe(
      '123e4567-e89b-12d3-a456-426614174000',
    );
  });
});

describe('the recipient of a cash-out (judged once, by the check beside the schema)', () => {
  it.each([
    ['CPF', '52998224724', /CPF/],
    ['CPF', '11111111111', /CPF/],
    ['CPF', '5299822472', /CPF/],
    ['CNPJ', '11222333000180', /CNPJ/],
    ['EMAIL', 'not-an-email', /e-mail/],
    ['EMAIL', `${'a'.repeat(70)}@b.com.br`, /77/],
    ['PHONE', '11987654321', /\+55/],
    ['PHONE', '+55119876543', /\+55/],
    ['RANDOM', '123e4567e89b12d3a456426614174000', /UUID/],
  ])('refuses a %s key %s', (keyType, key, message) => {
    const e = errorOf(() => checkedDetails({ name: 'A', key, keyType }));
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.details).toEqual([{ path: '/details/key', message: expect.stringMatching(message) }]);
    expect(e.message).toMatch(/^details\.key /);
  });

  it('refuses a document with wrong check digits and an unknown key type, all at once', () => {
    const e = errorOf(() => checkedDetails({ name: 'A', key: CPF, keyType: 'IBAN', document: '52998224724' }));
    expect(e.details.map((d) => d.path)).toEqual(['/details/keyType', '/details/document']);
  });
});

describe('keyOwner (D26)', () => {
  it('is the directory entry when there is one', () => {
    const r = keyOwner({ name: 'Typed', key: 'a@b.com', keyType: 'EMAIL' }, entry('a@b.com', 'EMAIL', OTHER_CPF));
    expect(r).toEqual({
      name: 'Owner',
      document: OTHER_CPF,
      ispb: '60701190',
      account_number: '1234-5',
      account_type: 'SVGS',
      key: 'a@b.com',
      keyType: 'EMAIL',
    });
  });

  it('a CPF or CNPJ key outside the directory is owned by that document, whatever details.document says', () => {
    expect(keyOwner({ name: 'Typed', key: CPF, keyType: 'CPF', document: OTHER_CPF }, null)).toMatchObject({
      name: 'Typed',
      document: CPF,
    });
    expect(keyOwner({ name: 'Co', key: '11222333000181', keyType: 'CNPJ' }, null).document).toBe('11222333000181');
  });

  it('any other key outside the directory is owned by details.document, else by a generated CPF that never changes', () => {
    expect(keyOwner({ name: 'A', key: 'a@b.com', keyType: 'EMAIL', document: OTHER_CPF }, null).document).toBe(OTHER_CPF);
    const one = keyOwner({ name: 'A', key: '+5511987654321', keyType: 'PHONE' }, null);
    const again = keyOwner({ name: 'A', key: '+5511987654321', keyType: 'PHONE' }, null);
    expect(isValidCpf(one.document)).toBe(true);
    expect(again).toEqual(one);
    expect(one.ispb).toMatch(/^[0-9]{8}$/);
    expect(one.account_number).toMatch(/^[0-9]{6}-[0-9]$/);
    expect(keyOwner({ name: 'A', key: '+5521987654321', keyType: 'PHONE' }, null).document).not.toBe(one.document);
  });
});

describe('settlementOf', () => {
  it('fails with KEY_NOT_FOUND for a key marked unknown', () => {
    const s = settlementOf(transfer({ name: 'A', key: 'x@y.com', keyType: 'EMAIL' }), entry('x@y.com', 'EMAIL', CPF, { unknown: true }));
    expect(s).toEqual({ status: 'FAILED', error: { code: 'KEY_NOT_FOUND', message: expect.stringContaining('x@y.com') } });
  });

  it('fails with DOCUMENT_MISMATCH when details.document differs from the owner', () => {
    expect(settlementOf(transfer({ name: 'A', key: CPF, keyType: 'CPF', document: OTHER_CPF }), null)).toMatchObject({
      status: 'FAILED',
      error: { code: 'DOCUMENT_MISMATCH' },
    });
    expect(
      settlementOf(transfer({ name: 'A', key: 'a@b.com', keyType: 'EMAIL', document: CPF }), entry('a@b.com', 'EMAIL', OTHER_CPF)),
    ).toMatchObject({
      status: 'FAILED',
      error: { code: 'DOCUMENT_MISMATCH' },
    });
  });

  it('completes with the receiver when the document agrees or is not given', () => {
    expect(settlementOf(transfer({ name: 'A', key: CPF, keyType: 'CPF', document: CPF }), null)).toMatchObject({
      status: 'COMPLETED',
      receiver: { document: CPF, key: CPF, keyType: 'CPF' },
    });
    expect(settlementOf(transfer({ name: 'A', key: 'a@b.com', keyType: 'EMAIL' }), entry('a@b.com', 'EMAIL', OTHER_CPF))).toMatchObject({
      status: 'COMPLETED',
    });
  });

  it('an outcome rule decides before the directory', () => {
    const mismatched = { name: 'A', key: CPF, keyType: 'CPF' as const, document: OTHER_CPF };
    expect(settlementOf(transfer(mismatched, { ruleId: 'r', action: 'complete', at: 'x' }), null).status).toBe('COMPLETED');
    expect(
      settlementOf(
        transfer({ name: 'A', key: CPF, keyType: 'CPF' }, { ruleId: 'r', action: 'fail', at: 'x', code: 'AM04', message: 'no money' }),
        null,
      ),
    ).toEqual({
      status: 'FAILED',
      error: { code: 'AM04', message: 'no money' },
    });
    expect(settlementOf(transfer({ name: 'A', key: CPF, keyType: 'CPF' }, { ruleId: 'r', action: 'fail', at: 'x' }), null)).toMatchObject({
      status: 'FAILED',
      error: { code: 'TRANSFER_FAILED' },
    });
  });
});

describe('transfer records', () => {
  const t = transfer({ name: 'A', key: CPF, keyType: 'CPF' });

  it('starts PROCESSING and settles after settleAfterSeconds', () => {
    expect(t).toMatchObject({
      type: 'CASH_OUT',
      status: 'PROCESSING',
      amount: 1_500,
      settleAt: '2026-03-01T12:00:02.000Z',
      idempotencyKey: 'k',
    });
  });

  it('ends COMPLETED or FAILED exactly once', () => {
    const receiver = keyOwner(t.details, null);
    const done = completedTransfer(t, receiver, 'E1', 'at');
    expect(done).toMatchObject({ status: 'COMPLETED', receiver, endToEndId: 'E1', settledAt: 'at' });
    const failed = failedTransfer(t, { code: 'X', message: 'y' }, 'at');
    expect(failed).toMatchObject({ status: 'FAILED', error: { code: 'X', message: 'y' } });
    expect(errorOf(() => failedTransfer(done, { code: 'X', message: 'y' }, 'at')).code).toBe('INVALID_STATE');
    expect(errorOf(() => completedTransfer(failed, receiver, 'E', 'at')).code).toBe('INVALID_STATE');
  });
});

describe('seededRandom', () => {
  it('is deterministic per seed and stays in [0, 1)', () => {
    const a = seededRandom('k');
    const b = seededRandom('k');
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom('other')()).not.toBe(xs[0]);
  });
});
