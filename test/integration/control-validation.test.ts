// Every control body is validated by its JSON Schema and refused in the error shape of docs/decisions.md#d8-one-error-shape,
// listing every violated rule with a JSON Pointer; nothing changes when a body is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createCharge, createTransfer, errorShape } from '../helpers/control.js';

let sb: TestSandbox;
let chargeId: string;
let transferId: string;
let merchantId: string;
let walletId: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  const token = await sb.token();
  chargeId = (await createCharge(sb, token, 100)).transactionId;
  transferId = (await createTransfer(sb, token, 100)).transactionId;
  const m = await sb.request('POST', '/v1/merchants', {
    token,
    body: { name: 'Validation Loja', document: '11222333000181', document_type: 'CNPJ', email: 'v@loja.example', phone: '11999990000' },
  });
  merchantId = m.body.data.merchant.id;
  walletId = m.body.data.wallet_id;
});
afterAll(() => sb.stop());

type Case = [method: string, path: () => string, body: unknown, paths: string[]];

const CASES: Case[] = [
  ['POST', () => '/_sandbox/accounts', {}, ['/name']],
  [
    'POST',
    () => '/_sandbox/accounts',
    {
      name: '',
      client_id: 'has space',
      client_secret: 'short',
      splitEnabled: 'yes',
      settleAfterSeconds: -1,
      autoPayAfterSeconds: 1.5,
      balance: -3,
    },
    ['/name', '/client_id', '/client_secret', '/splitEnabled', '/settleAfterSeconds', '/autoPayAfterSeconds', '/balance'],
  ],
  ['POST', () => '/_sandbox/accounts', [], ['/']],
  ['PATCH', () => `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`, {}, ['/']],
  ['PATCH', () => `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`, { client_secret: 'new-secret-123' }, ['/client_secret']],
  [
    'PATCH',
    () => `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`,
    { splitEnabled: 1, settleAfterSeconds: 86_401 },
    ['/splitEnabled', '/settleAfterSeconds'],
  ],
  ['POST', () => `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}/credit`, { amount: 1.5 }, ['/amount']],
  ['POST', () => `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}/credit`, { amount: '100', description: '' }, ['/amount', '/description']],
  ['POST', () => `/_sandbox/wallets/${walletId}/credit`, {}, ['/amount']],
  ['PATCH', () => `/_sandbox/merchants/${merchantId}`, { status: 'DELETED' }, ['/status']],
  ['PATCH', () => `/_sandbox/merchants/${merchantId}`, {}, ['/status']],
  [
    'POST',
    () => `/_sandbox/charges/${chargeId}/pay`,
    { payer: { document: '123', ispb: 'abc', name: '' } },
    ['/payer/document', '/payer/ispb', '/payer/name'],
  ],
  ['POST', () => '/_sandbox/pix/pay', { pixCode: 42 }, ['/pixCode']],
  ['POST', () => `/_sandbox/transfers/${transferId}/fail`, {}, ['/code']],
  ['POST', () => '/_sandbox/pix-keys', { key: 'x@y.com', keyType: 'PIX', owner: { name: 'A' } }, ['/keyType', '/owner/document']],
  ['POST', () => '/_sandbox/pix-keys', { key: '+551199', keyType: 'PHONE', owner: { name: 'A', document: '12345678909' } }, ['/key']],
  [
    'POST',
    () => '/_sandbox/pix-keys',
    { key: 'a@b.co', keyType: 'EMAIL', owner: { name: 'A', document: '12345678900' } },
    ['/owner/document'],
  ],
  ['POST', () => '/_sandbox/rules', { match: { type: 'CASH_IN' }, outcome: { action: 'complete' } }, ['/outcome/action']],
  [
    'POST',
    () => '/_sandbox/rules',
    { match: { type: 'PIX', amount: 0 }, outcome: { action: 'explode', afterSeconds: -1 } },
    ['/match/type', '/match/amount', '/outcome/action', '/outcome/afterSeconds'],
  ],
  [
    'POST',
    () => '/_sandbox/rules',
    { id: 'has space', match: { type: 'CASH_OUT', amountMin: 10, amountMax: 5 }, outcome: { action: 'wait' } },
    ['/id'],
  ],
  [
    'POST',
    () => '/_sandbox/rules',
    { match: { type: 'CASH_OUT', amountMin: 10, amountMax: 5 }, outcome: { action: 'wait' } },
    ['/match/amountMin'],
  ],
  ['POST', () => '/_sandbox/clock/advance', { seconds: 'ten' }, ['/seconds']],
  ['POST', () => '/_sandbox/reset', { fixtures: 'Not A Name' }, ['/fixtures']],
  ['POST', () => '/_sandbox/faults', { path: '/v1', status: 'five hundred' }, ['/status']],
];

describe('control bodies', () => {
  it.each(CASES.map((c) => [`${c[0]} ${c[1].toString().replace(/^\(\) => /, '')} ${JSON.stringify(c[2]).slice(0, 60)}`, c] as const))(
    '%s → 400 VALIDATION_ERROR naming each problem',
    async (_name, [method, path, body, paths]) => {
      const before =
        JSON.stringify((await sb.request('GET', '/_sandbox/accounts')).body) +
        JSON.stringify((await sb.request('GET', '/_sandbox/rules')).body);
      const r = await sb.request(method, path(), { body });
      expect(r.status).toBe(400);
      const e = errorShape(r);
      expect(e.error.code).toBe('VALIDATION_ERROR');
      expect(e.message).not.toMatch(/at \w+ \(|node_modules|\/work\//);
      const got = e.error.details.map((d) => d.path);
      for (const p of paths) expect(got, `${JSON.stringify(got)} should name ${p}`).toContain(p);
      const after =
        JSON.stringify((await sb.request('GET', '/_sandbox/accounts')).body) +
        JSON.stringify((await sb.request('GET', '/_sandbox/rules')).body);
      expect(after).toBe(before);
    },
  );

  it('refuses a body that is not JSON (415) or not valid JSON (400 INVALID_JSON)', async () => {
    const form = await sb.request('POST', '/_sandbox/accounts', {
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(errorShape(form).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const broken = await sb.request('POST', '/_sandbox/rules', { raw: '{"match":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(errorShape(broken).error.code).toBe('INVALID_JSON');
  });

  it('ignores unknown fields and names them in x-sandbox-warnings', async () => {
    const r = await sb.request('POST', '/_sandbox/clock/advance', { body: { seconds: 1, minutes: 3 } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-sandbox-warnings')).toContain('/minutes');
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const r = await sb.request('PUT', '/_sandbox/clock');
    expect(r.status).toBe(405);
    expect(errorShape(r).error.code).toBe('METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toContain('GET');
  });
});
