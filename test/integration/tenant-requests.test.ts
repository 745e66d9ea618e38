// Whose request is it (src/http/tenant.ts)? The journal files each entry under its tenant
// (docs/control-api.md#request-journal) and a tenant's own HTTP faults answer only its requests
// (docs/control-api.md#scoped-arrangements): a verified token names its account (expired or not), a token
// request names the account of its client_id (in HTTP Basic, a JSON body or a form body; a merchant's
// names its account); an unverified token names nobody. A busy tenant never pushes another's entries
// out of the journal, and the journal keeps the body of a request an injected fault answered.
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, DEFAULT_CLIENT, startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';
import { ok } from '../helpers/control.js';

let sb: TestSandbox;

interface Tenant {
  id: string;
  creds: { client_id: string; client_secret: string };
  merchant: { client_id: string; client_secret: string };
  token: string;
}

async function tenant(name: string): Promise<Tenant> {
  const a = await ok(sb.request('POST', '/_sandbox/accounts', { body: { name, balance: 10_000 } }));
  const creds = { client_id: a.client_id, client_secret: a.client_secret };
  const token = await sb.token(creds);
  const m = await ok(
    sb.request('POST', '/v1/merchants', {
      token,
      body: { name: `${name} Loja`, document: '11222333000181', document_type: 'CNPJ', email: 'l@example.com', phone: '11999990000' },
    }),
  );
  return { id: a.id, creds, merchant: m.data.credentials, token };
}

const form = (c: { client_id: string; client_secret: string }) =>
  sb.request('POST', '/v1/oauth/token', {
    raw: `grant_type=client_credentials&client_id=${c.client_id}&client_secret=${c.client_secret}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const basic = (c: { client_id: string; client_secret: string }) =>
  sb.request('POST', '/v1/oauth/token', {
    raw: 'grant_type=client_credentials',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`,
    },
  });
const json = (c: { client_id: string; client_secret: string }) =>
  sb.request('POST', '/v1/oauth/token', { body: { grant_type: 'client_credentials', ...c } });

/** The newest journal entry of a request id. */
async function entry(requestId: string) {
  const [e] = await ok(sb.request('GET', `/_sandbox/requests?requestId=${requestId}`));
  return e;
}

let A: Tenant;
let B: Tenant;

beforeAll(async () => {
  sb = await startTestSandbox({ journalSize: 5 });
  A = await tenant('A');
  B = await tenant('B');
});
afterAll(() => sb?.stop());

describe('the tenant of a request', () => {
  it('is the account of a verified token, expired or not, or of the client_id of a token request; an unverified token names nobody', async () => {
    await ok(sb.request('DELETE', '/_sandbox/requests'));
    const tagged = (id: string, send: (h: Record<string, string>) => Promise<HttpResult>) => send({ 'x-request-id': id });
    await tagged('json', (h) => sb.request('POST', '/v1/oauth/token', { body: { ...A.creds }, headers: h }));
    await tagged('form', (h) =>
      sb.request('POST', '/v1/oauth/token', {
        raw: `client_id=${A.creds.client_id}&client_secret=wrong-one`,
        headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    await tagged('basic', (h) =>
      sb.request('POST', '/v1/oauth/token', {
        headers: { ...h, authorization: `Basic ${Buffer.from(`${B.merchant.client_id}:x`).toString('base64')}` },
      }),
    );
    await tagged('unknown', (h) =>
      sb.request('POST', '/v1/oauth/token', { body: { client_id: 'nobody', client_secret: 'x' }, headers: h }),
    );
    await tagged('bearer', (h) => sb.request('GET', '/v1/banking/balance', { token: B.token, headers: h }));
    const forged = jwt.sign({ sub: 'x', acc: A.id, jti: 'j', iat: 1, exp: 4_000_000_000 }, 'not-the-key');
    await tagged('forged', (h) => sb.request('GET', '/v1/banking/balance', { token: forged, headers: h }));
    await ok(sb.request('POST', '/_sandbox/clock/advance', { body: { seconds: 301, accountId: B.id } }));
    await tagged('expired', (h) => sb.request('GET', '/v1/banking/balance', { token: B.token, headers: h }));
    const c = await ok(
      sb.request('POST', '/v1/banking/cash-in/pix', {
        token: A.token,
        body: { amount: 100, description: 'x', customer: { name: 'Ana', document: '52998224725' } },
      }),
    );
    await tagged('location', (h) => sb.request('GET', `/pix/qr/v2/${c.transactionId}`, { headers: h }));

    const seen: Record<string, [number, string | null]> = {};
    for (const id of ['json', 'form', 'basic', 'unknown', 'bearer', 'forged', 'expired', 'location']) {
      const e = await entry(id);
      seen[id] = [e.status, e.accountId];
    }
    expect(seen).toEqual({
      json: [200, A.id],
      form: [401, A.id],
      basic: [401, B.id], // a merchant's client_id: its account's
      unknown: [401, null],
      bearer: [200, B.id],
      forged: [401, null],
      expired: [401, B.id],
      location: [200, null],
    });
  });
});

describe('a journal per tenant', () => {
  it("keeps each tenant's last N entries: a busy tenant never pushes out another's; lists and clears one tenant's", async () => {
    const A2 = await sb.token(A.creds);
    const B2 = await sb.token(B.creds);
    await ok(sb.request('DELETE', '/_sandbox/requests'));
    for (let i = 0; i < 2; i++) await sb.request('GET', '/v1/banking/balance', { token: B2, headers: { 'x-request-id': `b${i}` } });
    for (let i = 0; i < 20; i++) await sb.request('GET', '/v1/banking/balance', { token: A2, headers: { 'x-request-id': `a${i}` } });
    await sb.request('GET', '/v1/banking/balance', { headers: { 'x-request-id': 'nobody' } });

    const ids = async (q = '') => (await ok(sb.request('GET', `/_sandbox/requests${q}`))).map((e: { requestId: string }) => e.requestId);
    expect(await ids(`?accountId=${A.id}`)).toEqual(['a19', 'a18', 'a17', 'a16', 'a15']);
    expect(await ids(`?accountId=${B.id}`)).toEqual(['b1', 'b0']);
    // every tenant's (and the requests of no known tenant) merged, newest first
    expect(await ids('?limit=8')).toEqual(['nobody', 'a19', 'a18', 'a17', 'a16', 'a15', 'b1', 'b0']);
    expect(await ids(`?accountId=${DEFAULT_ACCOUNT_ID}`)).toEqual([]);
    const unknown = await sb.request('GET', '/_sandbox/requests?accountId=9b2f9d0e-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);

    expect((await sb.request('DELETE', `/_sandbox/requests?accountId=${A.id}`)).status).toBe(204);
    expect(await ids()).toEqual(['nobody', 'b1', 'b0']);
    // with its own token, a tenant reads and clears its own journal only
    expect(
      await (await sb.request('GET', '/_sandbox/requests', { token: B2 })).body.map((e: { requestId: string }) => e.requestId),
    ).toEqual(['b1', 'b0']);
    expect((await sb.request('DELETE', '/_sandbox/requests', { token: B2 })).status).toBe(204);
    expect(await ids()).toEqual(['nobody']);
  });

  it('keeps the body of a request an injected fault answered, JSON or form, with its tenant', async () => {
    await ok(sb.request('DELETE', '/_sandbox/requests'));
    await ok(sb.request('POST', '/_sandbox/faults', { body: { path: '/v1/banking/cash-in/pix', status: 503, times: 1 } }));
    await ok(sb.request('POST', '/_sandbox/faults', { body: { path: '/v1/oauth/token', status: 500, times: 1 } }));
    const body = { amount: 4321, description: 'faulted', customer: { name: 'Ana', document: '52998224725' } };
    const faulted = await sb.request('POST', '/v1/banking/cash-in/pix', { token: A.token, body, headers: { 'x-request-id': 'f-json' } });
    expect(faulted.status).toBe(503);
    const tokenFaulted = await sb.request('POST', '/v1/oauth/token', {
      raw: `grant_type=client_credentials&client_id=${A.creds.client_id}&client_secret=${A.creds.client_secret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'f-form' },
    });
    expect(tokenFaulted.status).toBe(500);
    expect(await entry('f-json')).toMatchObject({ status: 503, accountId: A.id, requestBody: body });
    expect(await entry('f-form')).toMatchObject({
      status: 500,
      accountId: A.id,
      requestBody: { grant_type: 'client_credentials', client_id: A.creds.client_id, client_secret: '[REDACTED]' },
    });
  });
});

describe("a tenant's own HTTP faults", () => {
  it("answer its token requests (Basic, JSON or form, its merchants' too) and its tokens' requests, never another tenant's", async () => {
    await ok(sb.request('POST', '/_sandbox/faults', { body: { accountId: A.id, path: '/v1/oauth/token', status: 503, code: 'A_ONLY' } }));
    await ok(
      sb.request('POST', '/_sandbox/faults', { body: { accountId: A.id, path: '/v1/banking/balance', status: 502, code: 'A_ONLY' } }),
    );
    for (const send of [json, form, basic]) {
      for (const c of [A.creds, A.merchant]) {
        const r = await send(c);
        expect([r.status, r.body.error?.code]).toEqual([503, 'A_ONLY']);
      }
      // B's token requests are read by the same one reading, and answered by the token endpoint
      expect((await send(B.creds)).status).toBe(200);
      expect((await send(DEFAULT_CLIENT)).status).toBe(200);
    }
    // a body the token endpoint cannot read is still its error to answer (RFC 6749's shape)
    const broken = await sb.request('POST', '/v1/oauth/token', { raw: '{"client_id":', headers: { 'content-type': 'application/json' } });
    expect([broken.status, broken.body.error]).toEqual([400, 'invalid_request']);

    const fresh = await sb.token(B.creds);
    expect((await sb.request('GET', '/v1/banking/balance', { token: fresh })).status).toBe(200);
    const aFaulted = await sb.request('GET', '/v1/banking/balance', { token: A.token });
    expect([aFaulted.status, aFaulted.body.error?.code]).toEqual([502, 'A_ONLY']);
    // a token that does not verify is nobody's: A's fault does not answer it, the token check does
    const forged = jwt.sign({ sub: 'x', acc: A.id, jti: 'j', iat: 1, exp: 4_000_000_000 }, 'not-the-key');
    const r = await sb.request('GET', '/v1/banking/balance', { token: forged });
    expect([r.status, r.body.error?.code]).toEqual([401, 'INVALID_TOKEN']);
    await ok(sb.request('DELETE', `/_sandbox/faults?accountId=${A.id}`));
    expect((await json(A.creds)).status).toBe(200);
  });
});
