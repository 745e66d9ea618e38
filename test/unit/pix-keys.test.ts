import { describe, expect, it } from 'vitest';
import { normalizeKey, normalizeKeyType, validatePixKey } from '../../src/domain/pix-keys.js';
import { vectors as vectorsOf } from '../helpers/vectors.js';

const vectors = {
  cpf_valid: vectorsOf('cpf_valid'),
  cpf_invalid: vectorsOf('cpf_invalid'),
  cnpj_valid: vectorsOf('cnpj_valid'),
  cnpj_invalid: vectorsOf('cnpj_invalid'),
  pix_key_patterns: vectorsOf('pix_key_patterns'),
};

describe('normalizeKeyType', () => {
  it('accepts the five kinds in any case', () => {
    for (const t of ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const) {
      expect(normalizeKeyType(t)).toBe(t);
      expect(normalizeKeyType(t.toLowerCase())).toBe(t);
    }
    expect(normalizeKeyType('Phone')).toBe('PHONE');
  });

  it('accepts the E-MAIL and EVP aliases', () => {
    expect(normalizeKeyType('E-MAIL')).toBe('EMAIL');
    expect(normalizeKeyType('e-mail')).toBe('EMAIL');
    expect(normalizeKeyType('EVP')).toBe('RANDOM');
    expect(normalizeKeyType('evp')).toBe('RANDOM');
  });

  it('rejects anything else', () => {
    for (const raw of ['', 'MAIL', 'UUID', 'CELULAR', 'toString', '__proto__', 'constructor']) {
      expect(normalizeKeyType(raw)).toBeNull();
    }
  });
});

describe('normalizeKey', () => {
  it('lower-cases and trims e-mail keys', () => {
    expect(normalizeKey('EMAIL', '  Fulano.Tal@Example.COM ')).toBe('fulano.tal@example.com');
  });

  it('folds random keys to lower case', () => {
    expect(normalizeKey('RANDOM', '123E4567-E89B-12D3-A456-426614174000')).toBe('123e4567-e89b-12d3-a456-426614174000');
  });

  it('leaves the other kinds as given', () => {
    expect(normalizeKey('PHONE', '+5511987654321')).toBe('+5511987654321');
    expect(normalizeKey('CPF', '52998224725')).toBe('52998224725');
  });
});

describe('validatePixKey', () => {
  it('accepts the valid CPF and CNPJ vectors as keys', () => {
    for (const cpf of vectors.cpf_valid) expect(validatePixKey('CPF', cpf)).toBeNull();
    for (const cnpj of vectors.cnpj_valid) expect(validatePixKey('CNPJ', cnpj)).toBeNull();
  });

  it('rejects the invalid CPF and CNPJ vectors with a sentence naming the rule', () => {
    for (const cpf of vectors.cpf_invalid) expect(validatePixKey('CPF', cpf)).toBe('key must be a CPF: 11 digits with valid check digits');
    for (const cnpj of vectors.cnpj_invalid) expect(validatePixKey('CNPJ', cnpj)).toMatch(/CNPJ/);
    expect(validatePixKey('CPF', '529.982.247-25')).not.toBeNull();
    expect(validatePixKey('CPF', vectors.cnpj_valid[0]!)).not.toBeNull();
  });

  it('follows the phone pattern of the vectors', () => {
    const pattern = new RegExp(vectors.pix_key_patterns.PHONE!);
    const good = ['+5511987654321', '+551133334444', '+5521912345678', '+5599999999999'];
    const bad = [
      '5511987654321',
      '+55011987654321',
      '+5501987654321',
      '+55119876543',
      '+55119876543210',
      '+1 5511987654321',
      '+55 11 98765-4321',
      '',
    ];
    for (const k of good) {
      expect(pattern.test(k)).toBe(true);
      expect(validatePixKey('PHONE', k)).toBeNull();
    }
    for (const k of bad) expect(validatePixKey('PHONE', k)).not.toBeNull();
  });

  it('accepts random keys of any version and folds upper case', () => {
    const pattern = new RegExp(vectors.pix_key_patterns.RANDOM!);
    for (const k of [
      '123e4567-e89b-12d3-a456-426614174000',
      '9d36b84f-c70b-478f-b95c-12729b90ca25',
      '00000000-0000-0000-0000-000000000000',
    ]) {
      expect(pattern.test(k)).toBe(true);
      expect(validatePixKey('RANDOM', k)).toBeNull();
    }
    expect(validatePixKey('RANDOM', '9D36B84F-C70B-478F-B95C-12729B90CA25')).toBeNull();
    for (const k of [
      '9d36b84fc70b478fb95c12729b90ca25',
      '9d36b84f-c70b-478f-b95c-12729b90ca2',
      'g d36b84f-c70b-478f-b95c-12729b90ca25',
      '{9d36b84f-c70b-478f-b95c-12729b90ca25}',
    ]) {
      expect(validatePixKey('RANDOM', k)).not.toBeNull();
    }
  });

  it('accepts e-mail addresses up to 77 characters after lower-casing', () => {
    expect(validatePixKey('EMAIL', 'fulano@example.com')).toBeNull();
    expect(validatePixKey('EMAIL', 'Fulano.De_Tal+pix@Sub.Example.com.br')).toBeNull();
    const domain = '@example.com';
    const at77 = 'a'.repeat(77 - domain.length) + domain;
    expect(at77).toHaveLength(77);
    expect(validatePixKey('EMAIL', at77)).toBeNull();
    expect(validatePixKey('EMAIL', 'a' + at77)).toMatch(/77/);
  });

  it('rejects malformed e-mail addresses', () => {
    for (const k of [
      '',
      'fulano',
      'fulano@',
      '@example.com',
      'a@@example.com',
      'a@b@example.com',
      'fu lano@example.com',
      '.a@example.com',
      'a..b@example.com',
      'a@example',
      'a@-example.com',
      'a@example..com',
    ]) {
      expect(validatePixKey('EMAIL', k), k).not.toBeNull();
    }
  });
});
