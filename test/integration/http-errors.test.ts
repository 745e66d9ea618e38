// The HTTP envelope of every answer (docs/decisions.md#d8-one-error-shape): x-request-id, the one error shape, and
// 400/404/405/413/415 as the contract says. No input may produce a 500.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCpf } from '../../src/domain/documents.js';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let token: string;
const JSON_CT = { 'content-type': 'application/json' };
const merchant = () => ({
  name: 'Loja',
  document: generateCpf(Math.random),
  document_type: 'CPF',
  email: 'a@loja.example',
  phone: '11912345678',
});

/** docs/decisions.md#d8-one-error-shape: exactly {statusCode, message, error: {code, details: []}} */
function expectError(r: HttpResult, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(Object.keys(r.body).sort()).toEqual(['error', 'message', 'statusCode']);
  expect(r.body.statusCode).toBe(status);
  expect(typeof r.body.message).toBe('string');
  expect(r.body.message.length).toBeGreaterThan(0);
  expect(Object.keys(r.body.error).sort()).toEqual(['code', 'details']);
  expect(r.body.error.code).toBe(code);
  expect(Array.isArray(r.body.error.details)).toBe(true);
  expect(r.text).not.toMatch(/at .*\.(ts|js):\d+|node_modules|\/src\//);
}

beforeAll(async () => {
  sb = await startTestSandbox();
  token = await sb.token();
});
afterAll(async () => {
  await sb.stop();
});

describe('x-request-id', () => {
  it('is on every response, successes and errors alike, and unique', async () => {
    const answers = await Promise.all([
      sb.request('GET', '/v1/merchants', { token }),
      sb.request('GET', '/v1/merchants'),
      sb.request('GET', '/nowhere'),
      sb.request('POST', '/v1/oauth/token', { body: { client_id: 'x', client_secret: 'y' } }),
      sb.request('DELETE', '/v1/merchants', { token }),
    ]);
    const ids = answers.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes the id the client sent, and replaces one that is not a sane token', async () => {
    const r = await sb.request('GET', '/v1/merchants', { token, headers: { 'x-request-id': 'trace-123.abc:9' } });
    expect(r.headers.get('x-request-id')).toBe('trace-123.abc:9');
    const err = await sb.request('GET', '/nowhere', { headers: { 'x-request-id': 'my-id' } });
    expect(err.headers.get('x-request-id')).toBe('my-id');
    const odd = await sb.request('GET', '/v1/merchants', { token, headers: { 'x-request-id': 'a b<script>' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('error statuses', () => {
  it('answers 404 NOT_FOUND for an unknown route, with details []', async () => {
    const r = await sb.request('GET', '/v1/unknown', { token });
    expectError(r, 404, 'NOT_FOUND');
    expect(r.body.error.details).toEqual([]);
    expectError(await sb.request('POST', '/v2/merchants', { token, body: {} }), 404, 'NOT_FOUND');
  });

  it('answers 405 METHOD_NOT_ALLOWED with an Allow header on a known path', async () => {
    const del = await sb.request('DELETE', '/v1/merchants', { token });
    expectError(del, 405, 'METHOD_NOT_ALLOWED');
    expect(del.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    const put = await sb.request('PUT', `/v1/merchants/${randomUUID()}`, { token, body: {} });
    expectError(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'PATCH']);
    const tok = await sb.request('GET', '/v1/oauth/token');
    expectError(tok, 405, 'METHOD_NOT_ALLOWED');
    expect(tok.headers.get('allow')).toBe('POST');
    // the literal segment "balance" is not a merchantId
    const bal = await sb.request('PATCH', '/v1/merchants/balance', { token, body: { name: 'x' } });
    expectError(bal, 405, 'METHOD_NOT_ALLOWED');
    expect(bal.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD']);
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a body over 1 MiB, and accepts one just under', async () => {
    const big = JSON.stringify({ ...merchant(), padding: 'x'.repeat(1024 * 1024) });
    expectError(await sb.request('POST', '/v1/merchants', { token, raw: big, headers: JSON_CT }), 413, 'PAYLOAD_TOO_LARGE');
    const fits = JSON.stringify({ ...merchant(), padding: 'x'.repeat(1024 * 1024 - 400) });
    expect((await sb.request('POST', '/v1/merchants', { token, raw: fits, headers: JSON_CT })).status).toBe(201);
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not application/json', async () => {
    const body = JSON.stringify(merchant());
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
      expectError(
        await sb.request('POST', '/v1/merchants', { token, raw: body, headers: { 'content-type': ct } }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    // a JSON media type with a charset parameter is fine
    expect(
      (await sb.request('POST', '/v1/merchants', { token, raw: body, headers: { 'content-type': 'application/json; charset=utf-8' } }))
        .status,
    ).toBe(201);
  });

  it('answers 400 INVALID_JSON for truncated or malformed JSON', async () => {
    for (const raw of ['{"name": "Loja", "document": "1', '{name: 1}', '{"a":1}}', "{'a':1}"]) {
      expectError(await sb.request('POST', '/v1/merchants', { token, raw, headers: JSON_CT }), 400, 'INVALID_JSON');
    }
  });

  it('answers 400, never 500, for JSON that is valid but not an object', async () => {
    for (const raw of ['null', '[]', '"text"', '42', 'true', `${'['.repeat(5000)}${']'.repeat(5000)}`]) {
      const r = await sb.request('POST', '/v1/merchants', { token, raw, headers: JSON_CT });
      expect(r.status, raw.slice(0, 10)).toBe(400);
      expect(['INVALID_JSON', 'VALIDATION_ERROR']).toContain(r.body.error.code);
    }
  });

  it('answers 400 for a path that cannot be decoded', async () => {
    const r = await sb.request('GET', '/v1/merchants/%E0%A4%A', { token });
    expect(r.status).toBe(400);
    expectError(r, 400, r.body.error.code);
  });

  it('lists every violated rule with a JSON pointer in a VALIDATION_ERROR', async () => {
    const r = await sb.request('POST', '/v1/merchants', { token, body: { name: '', document: 'abc', email: 'x', phone: 5 } });
    expectError(r, 400, 'VALIDATION_ERROR');
    for (const d of r.body.error.details) {
      expect(Object.keys(d).sort()).toEqual(['message', 'path']);
      expect(d.path).toMatch(/^\//);
    }
    expect(r.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      '/document',
      '/document_type',
      '/email',
      '/name',
      '/phone',
    ]);
    expect(r.body.message).toMatch(/more problems/);
  });
});

describe('unknown fields', () => {
  it('are ignored and named in x-sandbox-warnings', async () => {
    const r = await sb.request('POST', '/v1/merchants', { token, body: { ...merchant(), nickname: 'x', extra: { deep: 1 } } });
    expect(r.status).toBe(201);
    const warning = r.headers.get('x-sandbox-warnings')!;
    expect(warning).toContain('/nickname');
    expect(warning).toContain('/extra');
    const clean = await sb.request('POST', '/v1/merchants', { token, body: merchant() });
    expect(clean.headers.get('x-sandbox-warnings')).toBeNull();
    const patch = await sb.request('PATCH', `/v1/merchants/${r.body.data.merchant.id}`, { token, body: { name: 'N', color: 'blue' } });
    expect(patch.status).toBe(200);
    expect(patch.headers.get('x-sandbox-warnings')).toContain('/color');
  });
});
