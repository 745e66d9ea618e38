// The request journal: what clients sent and got, bounded, and never holding a secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createCharge, errorShape } from '../helpers/control.js';

describe('request journal', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.stop());

  it('never contains a client secret, an access token or an Authorization header value', async () => {
    const secrets: string[] = [DEFAULT_CLIENT.client_secret];
    // JSON body
    const t1 = await sb.token();
    // form body with HTTP Basic credentials
    const basic = Buffer.from(`${DEFAULT_CLIENT.client_id}:${DEFAULT_CLIENT.client_secret}`).toString('base64');
    const t2 = await sb.request('POST', '/v1/oauth/token', {
      raw: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
    expect(t2.status).toBe(200);
    // form body with the secret in it
    const t3 = await sb.request('POST', '/v1/oauth/token', {
      raw: `grant_type=client_credentials&client_id=${DEFAULT_CLIENT.client_id}&client_secret=${DEFAULT_CLIENT.client_secret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    // a wrong secret is a secret too
    await sb.request('POST', '/v1/oauth/token', { body: { client_id: 'sandbox-client', client_secret: 'a-wrong-but-private-guess' } });
    secrets.push('a-wrong-but-private-guess', t1, t2.body.access_token, t3.body.access_token, basic);
    // a merchant's credentials in a response body
    const m = await sb.request('POST', '/v1/merchants', {
      token: t1,
      body: { name: 'Journal Loja', document: '11222333000181', document_type: 'CNPJ', email: 'j@loja.example', phone: '11999990000' },
    });
    expect(m.status).toBe(201);
    secrets.push(m.body.data.credentials.client_secret);
    const mToken = await sb.token(m.body.data.credentials);
    secrets.push(mToken);
    await sb.request('GET', '/v1/merchants/balance', { token: mToken });
    // a token in the query string
    await sb.request('GET', `/v1/banking/balance?access_token=${t1}`);
    await createCharge(sb, t1, 100, { externalId: 'journal-1' });

    const r = await sb.request('GET', '/_sandbox/requests?limit=1000');
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    for (const s of secrets) expect(text.includes(s), `journal leaks ${s.slice(0, 12)}…`).toBe(false);
    expect(text).not.toMatch(/Bearer ey/);
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);

    const tokenCalls = r.body.filter((e: any) => e.path === '/v1/oauth/token');
    expect(tokenCalls.length).toBe(5);
    expect(tokenCalls.find((e: any) => e.requestHeaders.authorization)?.requestHeaders.authorization).toBe('Basic [REDACTED]');
    expect(tokenCalls.some((e: any) => e.requestBody?.client_secret === '[REDACTED]')).toBe(true);
    expect(tokenCalls.filter((e: any) => e.status === 200).every((e: any) => e.responseBody.access_token === '[REDACTED]')).toBe(true);
    const merchant = r.body.find((e: any) => e.path === '/v1/merchants' && e.method === 'POST');
    expect(merchant.requestHeaders.authorization).toBe('Bearer [REDACTED]');
    expect(merchant.responseBody.data.credentials).toMatchObject({
      client_id: m.body.data.credentials.client_id,
      client_secret: '[REDACTED]',
    });
    expect(r.body.find((e: any) => e.path.startsWith('/v1/banking/balance?')).path).toBe('/v1/banking/balance?access_token=[REDACTED]');
  });

  it('records method, path, status, duration, request id and both bodies, newest first; control calls are not kept', async () => {
    await sb.request('DELETE', '/_sandbox/requests');
    const token = await sb.token();
    const bad = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount: -1 },
      headers: { 'x-request-id': 'journal-test-1' },
    });
    expect(bad.status).toBe(400);
    await sb.request('GET', '/_sandbox/accounts');
    const c = await createCharge(sb, token, 250);
    await sb.request('GET', `/pix/qr/v2/${c.transactionId}`);

    const list = (await sb.request('GET', '/_sandbox/requests')).body;
    expect(list.map((e: any) => `${e.method} ${e.path.replace(c.transactionId, ':id')} ${e.status}`)).toEqual([
      'GET /pix/qr/v2/:id 200',
      'POST /v1/banking/cash-in/pix 201',
      'POST /v1/banking/cash-in/pix 400',
      'POST /v1/oauth/token 200',
    ]);
    const entry = list.find((e: any) => e.requestId === 'journal-test-1');
    expect(entry).toMatchObject({
      method: 'POST',
      status: 400,
      requestBody: { amount: -1 },
      responseBody: { statusCode: 400, error: { code: 'VALIDATION_ERROR' } },
    });
    expect(typeof entry.durationMs).toBe('number');
    expect(Date.parse(entry.at)).not.toBeNaN();
    const created = list[1];
    expect(created.responseBody.pixCode).toBe(c.pixCode);
    expect(created.requestBody).toEqual({
      amount: 250,
      description: 'control test',
      customer: { name: 'Cliente Teste', document: '12345678909' },
    }); // as sent: no defaults filled in
    expect(created.responseBody.qrCode.length).toBeLessThan(700); // the image is shortened
    const filtered = await sb.request('GET', '/_sandbox/requests?status=400&method=post&path=/v1/banking');
    expect(filtered.body.map((e: any) => e.requestId)).toEqual(['journal-test-1']);
    expect((await sb.request('GET', '/_sandbox/requests?requestId=journal-test-1')).body).toHaveLength(1);
    expect(errorShape(await sb.request('GET', '/_sandbox/requests?limit=0')).error.details[0]?.path).toBe('/query/limit');
    expect((await sb.request('DELETE', '/_sandbox/requests')).status).toBe(204);
    expect((await sb.request('GET', '/_sandbox/requests')).body).toEqual([]);
  });

  it('journals injected faults as the client saw them', async () => {
    await sb.request('POST', '/_sandbox/faults', { body: { path: '/v1/banking/balance', status: 502, times: 1 } });
    await sb.request('GET', '/v1/banking/balance', { token: await sb.token() });
    const [last] = (await sb.request('GET', '/_sandbox/requests?limit=1')).body;
    expect(last).toMatchObject({ path: '/v1/banking/balance', status: 502, responseBody: { error: { code: 'BAD_GATEWAY' } } });
  });
});

describe('a small journal', () => {
  it('keeps only the newest entries', async () => {
    const sb = await startTestSandbox({ journalSize: 3 });
    try {
      const token = await sb.token();
      for (let i = 0; i < 5; i++) await sb.request('GET', '/v1/banking/balance', { token, headers: { 'x-request-id': `r${i}` } });
      const list = (await sb.request('GET', '/_sandbox/requests')).body;
      expect(list.map((e: any) => e.requestId)).toEqual(['r4', 'r3', 'r2']);
    } finally {
      await sb.stop();
    }
  });
});
