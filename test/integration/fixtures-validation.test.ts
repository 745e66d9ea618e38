// Inline and file fixtures pass the checks of the control calls that make the same things, and the set
// must hold together (docs/configuration.md#fixtures): one answer names every problem at once, with its
// place in the set, and nothing changes. A set that passes loads.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/domain/errors.js';
import { errorShape } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ACC = '00000000-0000-4000-8000-000000000001';
const ACC2 = '00000000-0000-4000-8000-000000000002';
const merchant = (n: number, over: Record<string, unknown> = {}) => ({
  id: `00000000-0000-4000-8000-00000000a00${n}`,
  walletId: `00000000-0000-4000-8000-00000000b00${n}`,
  name: `Loja ${n}`,
  document: '52998224725',
  document_type: 'CPF',
  email: `loja${n}@example.com`,
  phone: '11987654321',
  client_id: `loja-${n}`,
  client_secret: `loja-${n}-secret`,
  ...over,
});

/** A set wrong in every way the issue names, each problem in its own place. */
const broken = {
  accounts: [
    { id: ACC, name: 'Default', client_id: 'shared-id', client_secret: 'sandbox-secret', merchants: [merchant(1), merchant(2)] },
    {
      id: ACC2,
      name: 'Second',
      client_id: 'second-client',
      client_secret: 'short',
      merchants: [merchant(3, { client_id: 'shared-id', document: '12345678900', email: 'not an e-mail', phone: '123' })],
    },
  ],
  pixKeys: [{ key: '12345678900', keyType: 'CPF', owner: { name: 'X', document: '52998224725' } }],
  rules: [{ match: { type: 'CASH_OUT', amountMin: 500, amountMax: 100 }, outcome: { action: 'fail' } }],
  webhooks: [
    { url: 'ftp://example.com/hook' },
    { url: 'http://127.0.0.1:8080/hook', accountId: '99999999-0000-4000-8000-000000000009' },
    { url: 'http://127.0.0.1:8080/hook', events: ['cashin.payed'] },
  ],
  ledger: [
    {
      id: '11111111-0000-4000-8000-000000000001',
      from: `account:${ACC}`,
      to: 'world',
      amount: 5,
      transactionId: null,
      kind: 'ADJUSTMENT',
      at: '2030-01-01T00:00:00.000Z',
    },
  ],
};

/** Each problem of `broken`, by its place: every one of them must be named. */
const EXPECTED: [string, RegExp][] = [
  ['/accounts/1/merchants/0/client_id', /already the client_id of \/accounts\/0/],
  ['/accounts/0/merchants/1/document', /already the document of \/accounts\/0\/merchants\/0/],
  ['/accounts/1/client_secret', /at least 8|8 to 200/],
  ['/accounts/1/merchants/0/document', /check digit|CPF/],
  ['/accounts/1/merchants/0/email', /e-mail/],
  ['/accounts/1/merchants/0/phone', /digits/],
  ['/pixKeys/0/key', /CPF/],
  ['/rules/0/match/amountMin', /must not exceed amountMax/],
  ['/rules/0/outcome/code', /required when action is fail/],
  ['/webhooks/0/url', /http/],
  ['/webhooks/1/accountId', /not the id of an account of the fixture set/],
  ['/webhooks/2/events/0', /cashin\.paid/],
  ['/ledger/0/from', /below zero/],
];

function expectEveryProblem(details: { path: string; message: string }[]) {
  for (const [p, message] of EXPECTED) {
    const found = details.filter((d) => d.path === p);
    expect(found.length, `${p} in ${JSON.stringify(details)}`).toBeGreaterThan(0);
    expect(
      found.some((d) => message.test(d.message)),
      `${p}: ${JSON.stringify(found)}`,
    ).toBe(true);
  }
}

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-fixtures-'));
});
afterAll(async () => {
  await sb?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('inline fixtures (POST /_sandbox/reset)', () => {
  it('name every problem at once, and change nothing', async () => {
    const before = (await sb.request('GET', '/_sandbox/accounts')).body;
    const r = await sb.request('POST', '/_sandbox/reset', { body: { fixtures: broken } });
    expect(r.status).toBe(400);
    const err = errorShape(r);
    expect(err.error.code).toBe('VALIDATION_ERROR');
    expectEveryProblem(err.error.details.map((d) => ({ ...d, path: d.path.replace(/^\/fixtures/, '') })));
    expect((await sb.request('GET', '/_sandbox/accounts')).body).toEqual(before);
  });

  it('load once they hold together', async () => {
    const fixed = {
      accounts: [
        { id: ACC, name: 'Default', client_id: 'sandbox-client', client_secret: 'sandbox-secret', merchants: [merchant(1)] },
        { id: ACC2, name: 'Second', client_id: 'second-client', client_secret: 'second-secret', merchants: [merchant(3)] },
      ],
      webhooks: [{ url: 'http://127.0.0.1:8080/hook', accountId: ACC2, events: ['cashin.paid'] }],
    };
    const r = await sb.request('POST', '/_sandbox/reset', { body: { fixtures: fixed } });
    expect(r.status).toBe(200);
    expect(r.body.accounts).toHaveLength(2);
  });
});

describe('a fixtures file (--fixtures)', () => {
  it('stops the start, naming every problem at once', async () => {
    const file = path.join(dir, 'broken.json');
    await writeFile(file, JSON.stringify(broken));
    const failed = await startTestSandbox({ fixtures: file }).then(
      async (s) => (await s.stop(), null),
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(SandboxError);
    expect((failed as SandboxError).message).toContain(file);
    expectEveryProblem((failed as SandboxError).details);
  });
});
