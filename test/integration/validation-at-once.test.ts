// Bad input is answered once, with every problem named in the sandbox's words: the schema's
// violations and the rules a schema cannot say (check digits, a key that fits its type, an
// amount's ceiling) in one VALIDATION_ERROR, never one round at a time.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let token: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  token = await sb.token();
});
afterAll(() => sb.stop());

/** The details of a VALIDATION_ERROR, sorted by path; none in ajv's wording. */
function detailsOf(r: HttpResult): { path: string; message: string }[] {
  expect(r.status, r.text).toBe(400);
  expect(r.body.error.code).toBe('VALIDATION_ERROR');
  const details = [...(r.body.error.details as { path: string; message: string }[])].sort((a, b) => a.path.localeCompare(b.path));
  for (const d of details)
    expect(d.message).not.toMatch(/must NOT|must be (string|integer|number|object|array|boolean)$|must match pattern|must have required/);
  return details;
}

describe('every problem of a body in one answer', () => {
  it('POST /v1/merchants: an empty name, a bad e-mail and a CPF with wrong check digits are three details', async () => {
    const r = await sb.request('POST', '/v1/merchants', {
      token,
      body: { name: '', document: '11111111111', document_type: 'CPF', email: 'not-an-address', phone: '11987654321' },
    });
    expect(detailsOf(r)).toEqual([
      { path: '/document', message: 'is not a valid CPF (wrong check digits)' },
      { path: '/email', message: 'must be a valid e-mail address' },
      { path: '/name', message: 'must not be empty' },
    ]);
    expect(r.body.message).toBe('name must not be empty (and 2 more problems)');
  });

  it('POST /v1/banking/cash-in/pix: a zero amount, a missing description and a customer document with wrong check digits', async () => {
    const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount: 0, customer: { name: 'Maria', document: '52998224724' } },
    });
    expect(detailsOf(r)).toEqual([
      { path: '/amount', message: 'must be an integer number of cents from 1 to 1000000000' },
      { path: '/customer/document', message: 'must be a valid CPF (check digits do not match)' },
      { path: '/description', message: 'is required' },
    ]);
  });

  it('POST /v1/banking/cash-out/pix: an amount over the ceiling, a key that is not a CPF, a bad document and an empty description', async () => {
    const r = await sb.request('POST', '/v1/banking/cash-out/pix', {
      token,
      headers: { 'x-idempotency-key': randomUUID() },
      body: {
        type: 'pix_key',
        description: '',
        amount: '2000000000',
        details: { name: 'Ana', key: '123', keyType: 'CPF', document: '52998224724' },
      },
    });
    expect(detailsOf(r)).toEqual([
      { path: '/amount', message: 'must be a string of cents from "1" to "1000000000"' },
      { path: '/description', message: 'must not be empty' },
      { path: '/details/document', message: 'must be a valid CPF or CNPJ (check digits do not match)' },
      { path: '/details/key', message: 'key must be a CPF: 11 digits with valid check digits' },
    ]);
  });

  it('a field the schema faults is not faulted again by the rules beyond it', async () => {
    const r = await sb.request('POST', '/v1/merchants', {
      token,
      body: { name: 'Loja', document: '123', document_type: 'CPF', email: 'a@b.example', phone: '11987654321' },
    });
    expect(detailsOf(r)).toEqual([{ path: '/document', message: 'must be a CPF (11 digits) or CNPJ (14 digits), digits only' }]);
  });

  it('a valid body still passes, and nothing was created by the refused ones', async () => {
    const before = (await sb.request('GET', '/v1/merchants', { token })).body.pagination.total as number;
    const r = await sb.request('POST', '/v1/merchants', {
      token,
      body: { name: 'Loja', document: '52998224725', document_type: 'CPF', email: 'a@b.example', phone: '11987654321' },
    });
    expect(r.status, r.text).toBe(201);
    expect((await sb.request('GET', '/v1/merchants', { token })).body.pagination.total).toBe(before + 1);
  });
});
