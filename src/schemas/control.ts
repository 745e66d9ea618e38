// JSON Schemas of the control API's bodies (CONTRACT §7b, §12). Same validator, same error
// shape and same OpenAPI document as the public API.
import { UUID_PATTERN } from './public.js';

export const payerSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 140 },
    document: { type: 'string', pattern: '^[0-9]{11}$|^[0-9]{14}$', 'x-message': 'must be a CPF or CNPJ, digits only' },
    ispb: { type: 'string', pattern: '^[0-9]{8}$', 'x-message': 'must be 8 digits' },
    account_number: { type: 'string', minLength: 1, maxLength: 40 },
    account_type: { type: 'string', minLength: 1, maxLength: 40 },
  },
} as const;

export const ruleInputSchema = {
  type: 'object',
  required: ['match', 'outcome'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$', 'x-message': 'must be 1-64 letters, digits, or _ . : -' },
    description: { type: 'string', maxLength: 500 },
    match: {
      type: 'object',
      required: ['type'],
      properties: {
        type: { type: 'string', enum: ['CASH_IN', 'CASH_OUT'] },
        amount: { type: 'integer', minimum: 1 },
        amountMin: { type: 'integer', minimum: 0 },
        amountMax: { type: 'integer', minimum: 0 },
        key: { type: 'string', minLength: 1, maxLength: 77 },
        document: { type: 'string', pattern: '^[0-9]{11}$|^[0-9]{14}$' },
        descriptionContains: { type: 'string', minLength: 1, maxLength: 140 },
      },
    },
    outcome: {
      type: 'object',
      required: ['action'],
      properties: {
        action: { type: 'string', enum: ['pay', 'expire', 'cancel', 'wait', 'complete', 'fail'] },
        afterSeconds: { type: 'integer', minimum: 0, maximum: 2_592_000 },
        code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{1,63}$', 'x-message': 'must be an upper-case code like INSUFFICIENT_FUNDS' },
        message: { type: 'string', minLength: 1, maxLength: 500 },
        payer: payerSchema,
      },
    },
  },
  allOf: [
    {
      if: { properties: { match: { properties: { type: { const: 'CASH_IN' } } } } },
      then: { properties: { outcome: { properties: { action: { enum: ['pay', 'expire', 'cancel', 'wait'], 'x-message': 'a CASH_IN rule takes pay, expire, cancel or wait' } } } } },
      else: { properties: { outcome: { properties: { action: { enum: ['complete', 'fail', 'wait'], 'x-message': 'a CASH_OUT rule takes complete, fail or wait' } } } } },
    },
  ],
} as const;

export interface RuleInput {
  id?: string;
  description?: string;
  match: { type: 'CASH_IN' | 'CASH_OUT'; amount?: number; amountMin?: number; amountMax?: number; key?: string; document?: string; descriptionContains?: string };
  outcome: {
    action: 'pay' | 'expire' | 'cancel' | 'wait' | 'complete' | 'fail';
    afterSeconds?: number;
    code?: string;
    message?: string;
    payer?: { name?: string; document?: string; ispb?: string; account_number?: string; account_type?: string };
  };
}

export { UUID_PATTERN };
