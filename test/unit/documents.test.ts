import { describe, expect, it } from 'vitest';
import { documentTypeOf, generateCnpj, generateCpf, isValidCnpj, isValidCpf } from '../../src/domain/documents.js';
import { vectors as vectorsOf } from '../helpers/vectors.js';

const vectors = {
  cpf_valid: vectorsOf('cpf_valid'),
  cpf_invalid: vectorsOf('cpf_invalid'),
  cnpj_valid: vectorsOf('cnpj_valid'),
  cnpj_invalid: vectorsOf('cnpj_invalid'),
};

/** A deterministic source in [0, 1) so that generated numbers are reproducible. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

describe('CPF', () => {
  it.each(vectors.cpf_valid)('accepts %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
    expect(documentTypeOf(cpf)).toBe('CPF');
  });

  it.each(vectors.cpf_invalid)('rejects %s', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  it('rejects every repeated digit even though the check digits add up', () => {
    for (let d = 0; d <= 9; d++) expect(isValidCpf(String(d).repeat(11))).toBe(false);
  });

  it('rejects punctuation, spaces and letters', () => {
    expect(isValidCpf('529.982.247-25')).toBe(false);
    expect(isValidCpf(' 52998224725')).toBe(false);
    expect(isValidCpf('5299822472a')).toBe(false);
    expect(isValidCpf('')).toBe(false);
  });

  it('generates valid, varied numbers', () => {
    const random = seeded(42);
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const cpf = generateCpf(random);
      expect(cpf).toMatch(/^[0-9]{11}$/);
      expect(isValidCpf(cpf)).toBe(true);
      seen.add(cpf);
    }
    expect(seen.size).toBe(500);
  });

  it('still generates a valid number from a degenerate random source', () => {
    expect(isValidCpf(generateCpf(() => 0))).toBe(true);
    expect(isValidCpf(generateCpf(() => 0.999999))).toBe(true);
  });
});

describe('CNPJ', () => {
  it.each(vectors.cnpj_valid)('accepts %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
    expect(documentTypeOf(cnpj)).toBe('CNPJ');
  });

  it.each(vectors.cnpj_invalid)('rejects %s', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });

  it('rejects every repeated digit', () => {
    for (let d = 0; d <= 9; d++) expect(isValidCnpj(String(d).repeat(14))).toBe(false);
  });

  it('rejects a formatted number', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(false);
  });

  it('generates valid numbers', () => {
    const random = seeded(7);
    for (let i = 0; i < 500; i++) {
      const cnpj = generateCnpj(random);
      expect(cnpj).toMatch(/^[0-9]{14}$/);
      expect(isValidCnpj(cnpj)).toBe(true);
    }
    expect(isValidCnpj(generateCnpj(() => 0))).toBe(true);
  });
});

describe('documentTypeOf', () => {
  it('is null for anything that is neither', () => {
    for (const s of [...vectors.cpf_invalid, ...vectors.cnpj_invalid, '', 'abc', '123456789012345']) {
      expect(documentTypeOf(s)).toBeNull();
    }
  });

  it('does not take a valid CPF for a CNPJ or the reverse', () => {
    for (const cpf of vectors.cpf_valid) expect(isValidCnpj(cpf)).toBe(false);
    for (const cnpj of vectors.cnpj_valid) expect(isValidCpf(cnpj)).toBe(false);
  });
});
