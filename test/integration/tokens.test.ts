// POST /v1/oauth/token and the Bearer check (docs/api.md#tokens) through real HTTP, including a
// stock OAuth 2.0 client library with its default settings.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import jwt from 'jsonwebtoken';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateCpf } from '../../src/domain/documents.js';
import { packagePath } from '../../src/paths.js';
import { advance, reset, setMerchantStatus } from '../helpers/control.js';
import { DEFAULT_ACCOUNT_ID, DEFAULT_CLIENT, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

// simple-oauth2 ships no types; only this much of it is used
interface OAuthClient {
  getToken(
    params: Record<string, unknown>,
  ): Promise<{ token: { access_token: string; token_type: string; expires_in: number; expires_at: Date } }>;
}
const { ClientCredentials } = createRequire(import.meta.url)('simple-oauth2') as {
  ClientCredentials: new (config: {
    client: { id: string; secret: string };
    auth: { tokenHost: string; tokenPath: string };
  }) => OAuthClient;
};

const TOKEN = '/v1/oauth/token';
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let sb: TestSandbox;
const post = (opts: Parameters<TestSandbox['request']>[2]) => sb.request('POST', TOKEN, opts);

/** A merchant of the default account, created through the API; returns its credentials. */
async function newMerchant(): Promise<{ id: string; client_id: string; client_secret: string }> {
  const t = await sb.token();
  const r = await sb.request('POST', '/v1/merchants', {
    token: t,
    body: { name: 'Loja', document: generateCpf(Math.random), document_type: 'CPF', email: 'a@loja.example', phone: '11912345678' },
  });
  expect(r.status).toBe(201);
  return { id: r.body.data.merchant.id, ...r.body.data.credentials };
}

function expectTokenAnswer(r: Awaited<ReturnType<typeof post>>) {
  expect(r.status).toBe(200);
  expect(r.headers.get('cache-control')).toBe('no-store');
  expect(Object.keys(r.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
  expect(r.body.token_type).toBe('bearer');
  expect(r.body.expires_in).toBe(300);
  expect(typeof r.body.access_token).toBe('string');
}

function expectOAuthError(r: Awaited<ReturnType<typeof post>>, status: number, error: string) {
  expect(r.status).toBe(status);
  expect(Object.keys(r.body).sort()).toEqual(['error', 'error_description']);
  expect(r.body.error).toBe(error);
  expect(typeof r.body.error_description).toBe('string');
  expect(r.headers.get('cache-control')).toBe('no-store');
}

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.stop();
});
// tests move the sandbox clock, which only goes forward: a reset puts it back (and the fixtures' records)
afterEach(async () => {
  await reset(sb);
});

describe('POST /v1/oauth/token', () => {
  it('issues a bearer token for a JSON body', async () => {
    expectTokenAnswer(await post({ body: { grant_type: 'client_credentials', ...DEFAULT_CLIENT } }));
  });

  it('issues a token for a form body (RFC 6749)', async () => {
    expectTokenAnswer(await post({ raw: form({ grant_type: 'client_credentials', ...DEFAULT_CLIENT }), headers: FORM }));
  });

  it('issues a token for credentials in HTTP Basic, form-urlencoded as RFC 6749 §2.3.1 says', async () => {
    expectTokenAnswer(
      await post({
        raw: form({ grant_type: 'client_credentials' }),
        headers: { ...FORM, authorization: basic(DEFAULT_CLIENT.client_id, DEFAULT_CLIENT.client_secret) },
      }),
    );
    // a secret with characters that the encoding changes (a client_id is letters, digits and . _ ~ -,
    // in fixtures as in the control API: docs/configuration.md#fixtures), given through a fixture set
    const fixtures = JSON.parse(readFileSync(packagePath('fixtures', 'default.json'), 'utf8')) as { accounts: unknown[] };
    fixtures.accounts.push({ id: randomUUID(), name: 'odd', client_id: 'odd.client~1', client_secret: 'p@ss:w+rd/ é' });
    await reset(sb, fixtures);
    expectTokenAnswer(await post({ raw: '', headers: { authorization: basic('odd.client~1', 'p@ss:w+rd/ é') } }));
  });

  it('treats a missing grant_type as client_credentials', async () => {
    expectTokenAnswer(await post({ body: DEFAULT_CLIENT }));
  });

  it('signs an HS256 JWT with iat/exp from the sandbox clock, sub, jti and the principal', async () => {
    await advance(sb, 3600);
    const r = await post({ body: DEFAULT_CLIENT });
    const header = jwt.decode(r.body.access_token, { complete: true })!.header;
    expect(header.alg).toBe('HS256');
    const claims = jwt.verify(r.body.access_token, sb.running.ctx.store.meta.signingSecret, {
      ignoreExpiration: true,
    }) as jwt.JwtPayload;
    expect(claims.exp).toBe(claims.iat! + 300);
    expect(Math.abs(claims.iat! - sb.running.ctx.clock.nowSeconds())).toBeLessThanOrEqual(2);
    expect(claims.iat! - Math.floor(Date.now() / 1000)).toBeGreaterThan(3590);
    expect(claims.sub).toBe('sandbox-client');
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.acc).toBe(DEFAULT_ACCOUNT_ID);
    const again = await post({ body: DEFAULT_CLIENT });
    expect((jwt.decode(again.body.access_token) as jwt.JwtPayload).jti).not.toBe(claims.jti);
  });

  it('answers unsupported_grant_type for any other grant', async () => {
    for (const grant_type of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      expectOAuthError(await post({ body: { grant_type, ...DEFAULT_CLIENT } }), 400, 'unsupported_grant_type');
    }
  });

  it('answers 401 invalid_client for a wrong secret, an unknown client or missing credentials', async () => {
    expectOAuthError(await post({ body: { client_id: 'sandbox-client', client_secret: 'wrong' } }), 401, 'invalid_client');
    expectOAuthError(await post({ body: { client_id: 'nobody', client_secret: 'x' } }), 401, 'invalid_client');
    expectOAuthError(await post({ body: { grant_type: 'client_credentials' } }), 401, 'invalid_client');
    expectOAuthError(await post({ body: { client_id: 'sandbox-client' } }), 401, 'invalid_client');
    const viaBasic = await post({
      raw: form({ grant_type: 'client_credentials' }),
      headers: { ...FORM, authorization: basic('sandbox-client', 'wrong') },
    });
    expectOAuthError(viaBasic, 401, 'invalid_client');
    expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic/);
  });

  it('answers invalid_request for malformed requests, never the sandbox error shape', async () => {
    expectOAuthError(await post({ body: { grant_type: 7, ...DEFAULT_CLIENT } }), 400, 'invalid_request');
    expectOAuthError(
      await post({ body: DEFAULT_CLIENT, headers: { authorization: basic('sandbox-client', 'sandbox-secret') } }),
      400,
      'invalid_request',
    );
    expectOAuthError(await post({ raw: '', headers: { authorization: 'Basic !!!' } }), 400, 'invalid_request');
    expectOAuthError(
      await post({ raw: '{"client_id": "sandbox-', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
    );
    expectOAuthError(await post({ raw: 'client_id=x', headers: { 'content-type': 'text/plain' } }), 400, 'invalid_request');
  });

  it('answers unauthorized_client for an INACTIVE or SUSPENDED merchant', async () => {
    const m = await newMerchant();
    expectTokenAnswer(await post({ body: { client_id: m.client_id, client_secret: m.client_secret } }));
    for (const status of ['INACTIVE', 'SUSPENDED'] as const) {
      await setMerchantStatus(sb, m.id, status);
      const r = await post({ body: { client_id: m.client_id, client_secret: m.client_secret } });
      expectOAuthError(r, 400, 'unauthorized_client');
      expect(r.body.error_description).toContain(status);
    }
  });

  it('gives a merchant a token carrying its merchant id', async () => {
    const m = await newMerchant();
    const r = await post({ body: { client_id: m.client_id, client_secret: m.client_secret } });
    const claims = jwt.decode(r.body.access_token) as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: m.client_id, acc: DEFAULT_ACCOUNT_ID, mer: m.id });
  });
});

describe('Bearer tokens on the API', () => {
  it('answers 401 UNAUTHORIZED with WWW-Authenticate: Bearer when the header is missing or not Bearer', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Basic c2FuZGJveC1jbGllbnQ6c2FuZGJveC1zZWNyZXQ=' },
      { authorization: 'Bearer' },
      { authorization: 'token abc' },
    ];
    for (const headers of variants) {
      const r = await sb.request('GET', '/v1/merchants', { headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ statusCode: 401, message: expect.any(String), error: { code: 'UNAUTHORIZED', details: [] } });
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('answers 401 INVALID_TOKEN for a bad signature, a foreign algorithm or garbage', async () => {
    const good = await sb.token();
    const claims = jwt.decode(good) as jwt.JwtPayload;
    const forged = jwt.sign(claims, 'not-the-secret', { algorithm: 'HS256' });
    const none = jwt.sign(claims, '', { algorithm: 'none' });
    const tampered = good.slice(0, -3) + (good.endsWith('AAA') ? 'BBB' : 'AAA');
    for (const token of [forged, none, tampered, 'abc.def.ghi', 'x']) {
      const r = await sb.request('GET', '/v1/merchants', { token });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('INVALID_TOKEN');
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    }
  });

  it('answers 401 TOKEN_EXPIRED once the sandbox clock passes exp, and not before', async () => {
    const token = await sb.token();
    await advance(sb, 290);
    expect((await sb.request('GET', '/v1/merchants', { token })).status).toBe(200);
    await advance(sb, 11); // 301 s after the token was issued
    const r = await sb.request('GET', '/v1/merchants', { token });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('TOKEN_EXPIRED');
    // a token issued now, by the advanced clock, works
    expect((await sb.request('GET', '/v1/merchants', { token: await sb.token() })).status).toBe(200);
  });

  it('answers 401 INVALID_TOKEN for a token whose principal no longer exists', async () => {
    const m = await newMerchant();
    const token = await sb.token(m);
    await reset(sb); // every record goes, the signing secret stays (docs/control-api.md#reset)
    const r = await sb.request('GET', '/v1/merchants/balance', { token });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('INVALID_TOKEN');
  });

  it('answers 403 MERCHANT_NOT_ACTIVE for a live token of a suspended merchant, and works again once ACTIVE', async () => {
    const m = await newMerchant();
    const token = await sb.token(m);
    expect((await sb.request('GET', '/v1/merchants/balance', { token })).status).toBe(200);
    await setMerchantStatus(sb, m.id, 'SUSPENDED');
    const r = await sb.request('GET', '/v1/merchants/balance', { token });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('MERCHANT_NOT_ACTIVE');
    await setMerchantStatus(sb, m.id, 'ACTIVE');
    expect((await sb.request('GET', '/v1/merchants/balance', { token })).status).toBe(200);
  });
});

describe('a stock OAuth 2.0 client (simple-oauth2, default settings: form body + Basic)', () => {
  it('obtains a token and uses it', async () => {
    const client = new ClientCredentials({
      client: { id: DEFAULT_CLIENT.client_id, secret: DEFAULT_CLIENT.client_secret },
      auth: { tokenHost: sb.url, tokenPath: TOKEN },
    });
    const access = await client.getToken({});
    expect(access.token.token_type).toBe('bearer');
    expect(access.token.expires_in).toBe(300);
    expect(access.token.expires_at).toBeInstanceOf(Date);
    const r = await sb.request('GET', '/v1/merchants', { token: access.token.access_token });
    expect(r.status).toBe(200);
    expect(r.body.pagination).toMatchObject({ page: 1, limit: 10 });
  });

  it('surfaces the RFC 6749 error of a wrong secret', async () => {
    const client = new ClientCredentials({
      client: { id: 'sandbox-client', secret: 'wrong' },
      auth: { tokenHost: sb.url, tokenPath: TOKEN },
    });
    const err = (await client.getToken({}).catch((e: unknown) => e)) as {
      output?: { statusCode: number };
      data?: { payload: { error: string } };
    };
    expect(err.output?.statusCode).toBe(401);
    expect(err.data?.payload.error).toBe('invalid_client');
  });
});
