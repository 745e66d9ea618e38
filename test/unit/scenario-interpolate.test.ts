import { describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf } from '../../src/domain/documents.js';
import { interpolate, interpolateString, InterpolationError, resolve } from '../../src/scenarios/interpolate.js';

const scope = {
  create: { status: 201, body: { transactionId: 'abc', amount: 1050, items: [{ id: 'i0' }], nested: { ok: true } } },
  vars: { key: 'k-1' },
  account: { id: 'acc' },
};

describe('scenario interpolation', () => {
  it('resolves dotted paths, array indexes included', () => {
    expect(resolve('create.body.transactionId', scope)).toBe('abc');
    expect(resolve('create.body.items.0.id', scope)).toBe('i0');
    expect(resolve(' vars.key ', scope)).toBe('k-1');
  });

  it('keeps the type of a string that is exactly one reference', () => {
    expect(interpolateString('${create.body.amount}', scope)).toBe(1050);
    expect(interpolateString('${create.body.nested}', scope)).toEqual({ ok: true });
    expect(interpolateString('${create.status}', scope)).toBe(201);
  });

  it('splices values into longer strings as text', () => {
    expect(interpolateString('/v1/banking/transactions/${create.body.transactionId}', scope)).toBe('/v1/banking/transactions/abc');
    expect(interpolateString('${create.body.amount} cents for ${account.id}', scope)).toBe('1050 cents for acc');
    expect(interpolateString('n=${create.body.nested}', scope)).toBe('n={"ok":true}');
  });

  it('interpolates deeply, leaving keys and non-strings alone', () => {
    const out = interpolate({ path: '/x/${vars.key}', body: { '${vars.key}': ['${create.body.amount}', 7, null, true] } }, scope);
    expect(out).toEqual({ path: '/x/k-1', body: { '${vars.key}': [1050, 7, null, true] } });
  });

  it('writes a literal ${ for $${', () => {
    expect(interpolateString('$${vars.key}', scope)).toBe('${vars.key}');
    expect(interpolateString('$${a} and ${vars.key}', scope)).toBe('${a} and k-1');
  });

  it('fails clearly on an unknown reference, naming what exists', () => {
    expect(() => resolve('create.body.transactionID', scope)).toThrow(InterpolationError);
    expect(() => resolve('create.body.transactionID', scope)).toThrow(
      /\$\{create\.body\} has no "transactionID" \(it has: transactionId, amount, items, nested\)/,
    );
    expect(() => resolve('nothing.here', scope)).toThrow(/the scenario has no "nothing"/);
    expect(() => interpolateString('${}', scope)).toThrow(/empty reference/);
  });

  it('generates fresh values: uuid, valid CPF and CNPJ, e-mail, digits', () => {
    const a = resolve('$uuid', {}) as string;
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(resolve('$uuid', {})).not.toBe(a);
    expect(isValidCpf(resolve('$cpf', {}) as string)).toBe(true);
    expect(isValidCnpj(resolve('$cnpj', {}) as string)).toBe(true);
    expect(resolve('$email', {})).toMatch(/^user-[0-9a-f]{8}@example\.com$/);
    expect(resolve('$digits.11', {})).toMatch(/^[1-9][0-9]{10}$/);
    expect(() => resolve('$digits.0', {})).toThrow(/1 to 64/);
    expect(() => resolve('$nope', {})).toThrow(/unknown generator/);
  });
});
