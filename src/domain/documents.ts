// Brazilian taxpayer numbers: CPF (people, 11 digits) and CNPJ (companies, 14 digits).
// Both end in two mod-11 check digits; only the weights differ.

import type { ErrorDetail } from './errors.js';
import type { DocumentType } from '../store/model.js';

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function checkDigit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += (digits[i] ?? 0) * (weights[i] ?? 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

function toDigits(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i) - 48);
  return out;
}

// A repeated digit passes the arithmetic (e.g. 111.111.111-11) but is not a real number.
function isRepeated(s: string): boolean {
  for (let i = 1; i < s.length; i++) if (s[i] !== s[0]) return false;
  return true;
}

function isValidNumber(s: string, length: number, w1: readonly number[], w2: readonly number[]): boolean {
  if (typeof s !== 'string' || s.length !== length || !/^[0-9]+$/.test(s) || isRepeated(s)) return false;
  const d = toDigits(s);
  return checkDigit(d, w1) === d[length - 2] && checkDigit(d, w2) === d[length - 1];
}

export function isValidCpf(s: string): boolean {
  return isValidNumber(s, 11, CPF_WEIGHTS_1, CPF_WEIGHTS_2);
}

export function isValidCnpj(s: string): boolean {
  return isValidNumber(s, 14, CNPJ_WEIGHTS_1, CNPJ_WEIGHTS_2);
}

/** A CPF (11 digits) or CNPJ (14 digits, the schema has checked the shape) with the right check digits. */
export function documentIssues(document: string, path: string): ErrorDetail[] {
  const cpf = document.length === 11;
  if (cpf ? isValidCpf(document) : isValidCnpj(document)) return [];
  return [{ path, message: `must be a valid ${cpf ? 'CPF' : 'CNPJ'} (check digits do not match)` }];
}

/** A document and the type declared beside it (a merchant's): the length agrees with the type, then the check digits. */
export function declaredDocumentIssues(document: string, type: DocumentType): ErrorDetail[] {
  const expected = type === 'CPF' ? 11 : 14;
  if (document.length !== expected)
    return [
      {
        path: '/document_type',
        message: `does not agree with the document: a ${type} has ${expected} digits, this document has ${document.length}`,
      },
    ];
  const valid = type === 'CPF' ? isValidCpf(document) : isValidCnpj(document);
  return valid ? [] : [{ path: '/document', message: `is not a valid ${type} (wrong check digits)` }];
}

export function documentTypeOf(s: string): DocumentType | null {
  if (isValidCpf(s)) return 'CPF';
  if (isValidCnpj(s)) return 'CNPJ';
  return null;
}

function withCheckDigits(body: number[], w1: readonly number[], w2: readonly number[]): string {
  const d = body.slice();
  d.push(checkDigit(d, w1));
  d.push(checkDigit(d, w2));
  return d.join('');
}

function generate(base: number, w1: readonly number[], w2: readonly number[], random: () => number): string {
  const body: number[] = [];
  for (let i = 0; i < base; i++) body.push(Math.min(9, Math.floor(random() * 10)));
  const s = withCheckDigits(body, w1, w2);
  if (!isRepeated(s)) return s;
  // A degenerate random source (e.g. always 0) yields a repeated digit; changing one digit fixes it.
  body[0] = ((body[0] ?? 0) + 1) % 10;
  return withCheckDigits(body, w1, w2);
}

/** A valid CPF from the given random source (values in [0, 1)). */
export function generateCpf(random: () => number): string {
  return generate(9, CPF_WEIGHTS_1, CPF_WEIGHTS_2, random);
}

/** A valid CNPJ from the given random source (values in [0, 1)). */
export function generateCnpj(random: () => number): string {
  return generate(12, CNPJ_WEIGHTS_1, CNPJ_WEIGHTS_2, random);
}
