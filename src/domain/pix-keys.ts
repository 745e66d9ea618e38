// PIX keys (DICT entries): the five kinds, their accepted spellings, and the shape each must have.

import type { PixKeyType } from '../store/model.js';
import { isValidCnpj, isValidCpf } from './documents.js';
import { PIX_KEY_TYPES } from './vocabulary.js';

/** What a request that names no known key type is told. */
export const KEY_TYPE_MESSAGE = `must be one of ${PIX_KEY_TYPES.join(', ')}`;

/** Every spelling of a key type the API accepts (in any letter case), and the type it names. */
export const KEY_TYPE_SPELLINGS: Readonly<Record<string, PixKeyType>> = {
  CPF: 'CPF',
  CNPJ: 'CNPJ',
  EMAIL: 'EMAIL',
  'E-MAIL': 'EMAIL',
  PHONE: 'PHONE',
  RANDOM: 'RANDOM',
  // EVP ("endereço virtual de pagamento") is the central bank's own name for a random key.
  EVP: 'RANDOM',
};

const EMAIL_KEY_MAX_LENGTH = 77;

const PHONE_KEY = /^\+55[1-9][0-9]9?[0-9]{8}$/;
const RANDOM_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Deliberately narrower than RFC 5322: DICT keys are lower-case, without quoted local parts or IP
// literals, and a domain with at least one dot is what a real bank would register.
const EMAIL_LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const EMAIL_DOMAIN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

export function normalizeKeyType(raw: string): PixKeyType | null {
  if (typeof raw !== 'string') return null;
  return KEY_TYPE_SPELLINGS[raw.trim().toUpperCase()] ?? null;
}

/** The canonical spelling of a key, the one stored and compared (DICT keys are case-folded). */
export function normalizeKey(keyType: PixKeyType, key: string): string {
  if (keyType === 'EMAIL') return key.trim().toLowerCase();
  if (keyType === 'RANDOM') return key.toLowerCase();
  return key;
}

function isValidEmailAddress(s: string): boolean {
  const at = s.lastIndexOf('@');
  if (at <= 0 || at !== s.indexOf('@')) return false;
  return EMAIL_LOCAL.test(s.slice(0, at)) && EMAIL_DOMAIN.test(s.slice(at + 1));
}

/** null when the key fits its kind, else a sentence for the VALIDATION_ERROR message. */
export function validatePixKey(keyType: PixKeyType, key: string): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'key must not be empty';
  const k = normalizeKey(keyType, key);
  switch (keyType) {
    case 'CPF':
      return isValidCpf(k) ? null : 'key must be a CPF: 11 digits with valid check digits';
    case 'CNPJ':
      return isValidCnpj(k) ? null : 'key must be a CNPJ: 14 digits with valid check digits';
    case 'EMAIL':
      if (k.length > EMAIL_KEY_MAX_LENGTH) return `key must be an e-mail address of at most ${EMAIL_KEY_MAX_LENGTH} characters`;
      return isValidEmailAddress(k) ? null : 'key must be a valid e-mail address';
    case 'PHONE':
      return PHONE_KEY.test(k) ? null : 'key must be a phone number: +55, area code and number, e.g. +5511987654321';
    case 'RANDOM':
      return RANDOM_KEY.test(k) ? null : 'key must be a random key: a UUID such as 123e4567-e89b-12d3-a456-426614174000';
    default:
      return `keyType ${KEY_TYPE_MESSAGE}`;
  }
}
