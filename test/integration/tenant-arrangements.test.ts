// Eight tenants share one sandbox as parallel test workers do (docs/control-api.md#scoped-arrangements):
// each arranges an outcome rule, an HTTP fault and a PIX key of its own, all under the same names and
// for the same amounts, and checks what it sees while the others do the same: no cross-talk. A
// sandbox-wide rule still reaches all eight (a tenant's own rule of the same match is tried first), and
// a sandbox-wide key is seen by a ninth tenant that has none of its own. Half the workers arrange with
// their own token (self-service control), half through the operator with `accountId`.
// Each worker runs PHASES in order; the snapshot, restore and tenant-reset phases of issue 23 join them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';
import { ok } from '../helpers/control.js';

const TENANTS = 8;
const KEY = 'same@tenants.test';

let sb: TestSandbox;

interface Worker {
  i: number;
  id: string;
  token: string;
  /** a control call as this worker makes it: with its token, or as the operator naming its account */
  control(method: string, path: string, body?: Record<string, unknown>): Promise<HttpResult>;
  seen: Record<string, unknown>;
}

async function newWorker(i: number): Promise<Worker> {
  const account = await ok(sb.request('POST', '/_sandbox/accounts', { body: { name: `worker ${i}`, balance: 100_000 } }));
  const token = await sb.token({ client_id: account.client_id, client_secret: account.client_secret });
  const selfService = i % 2 === 0;
  return {
    i,
    id: account.id,
    token,
    seen: {},
    control(method, path, body) {
      if (selfService) return sb.request(method, path, { token, ...(body ? { body } : {}) });
      // the operator names the tenant: accountId in the body, or in the query
      const named = body ? { body: { ...body, accountId: account.id } } : {};
      const sep = path.includes('?') ? '&' : '?';
      return sb.request(method, body ? path : `${path}${sep}accountId=${account.id}`, named);
    },
  };
}

const cashOut = (w: { token: string }, amount: number, key = '11144477735', keyType = 'CPF') =>
  ok(
    sb.request('POST', '/v1/banking/cash-out/pix', {
      token: w.token,
      headers: { 'x-idempotency-key': randomUUID() },
      body: { type: 'pix_key', description: 'worker', amount: String(amount), details: { name: 'Receiver', key, keyType } },
    }),
  );
const lookup = (w: { token: string }, id: string) => ok(sb.request('GET', `/v1/banking/transactions/${id}`, { token: w.token }));
const advance = (w: Worker, seconds: number) => ok(w.control('POST', '/_sandbox/clock/advance', { seconds }));

type Phase = (w: Worker) => Promise<void>;

/** The worker's own rule, key and fault: the same names and amounts as every other worker's, its own outcomes. */
const arrange: Phase = async (w) => {
  const rule = await ok(
    w.control('POST', '/_sandbox/rules', {
      id: 'same-rule',
      match: { type: 'CASH_OUT', amount: 100 },
      outcome: { action: 'fail', code: `WORKER_${w.i}_RULE` },
    }),
  );
  expect(rule).toMatchObject({ id: 'same-rule', accountId: w.id });
  // even workers also cover the sandbox-wide rule's match: their own is tried first
  if (w.i % 2 === 0)
    await ok(
      w.control('POST', '/_sandbox/rules', {
        id: 'covers-wide',
        match: { type: 'CASH_OUT', amount: 300 },
        outcome: { action: 'fail', code: `WORKER_${w.i}_FIRST` },
      }),
    );
  const key = await ok(
    w.control('POST', '/_sandbox/pix-keys', { key: KEY, keyType: 'EMAIL', owner: { name: `Owner ${w.i}`, document: '52998224725' } }),
  );
  expect(key).toMatchObject({ key: KEY, accountId: w.id });
  const fault = await ok(
    w.control('POST', '/_sandbox/faults', { path: '/v1/banking/balance', status: 503, code: `WORKER_${w.i}_FAULT`, times: 1 }),
  );
  expect(fault.accountId).toBe(w.id);
};

/** What the worker's own requests meet. */
const act: Phase = async (w) => {
  // the fault: its own, once, then the balance answers
  const faulted = await sb.request('GET', '/v1/banking/balance', { token: w.token });
  expect([faulted.status, faulted.body.error?.code]).toEqual([503, `WORKER_${w.i}_FAULT`]);
  expect((await sb.request('GET', '/v1/banking/balance', { token: w.token })).status).toBe(200);
  const own = await cashOut(w, 100);
  const wide = await cashOut(w, 300);
  const toKey = await cashOut(w, 200, KEY, 'EMAIL');
  await advance(w, 3);
  w.seen = {
    rule: (await lookup(w, own.transactionId)).data,
    wide: (await lookup(w, wide.transactionId)).data,
    key: (await lookup(w, toKey.transactionId)).data,
  };
};

const check: Phase = async (w) => {
  const seen = w.seen as Record<string, any>;
  expect(seen.rule).toMatchObject({ status: 'FAILED', error: { code: `WORKER_${w.i}_RULE` } });
  expect(seen.wide).toMatchObject({ status: 'FAILED', error: { code: w.i % 2 === 0 ? `WORKER_${w.i}_FIRST` : 'SANDBOX_WIDE' } });
  expect(seen.key).toMatchObject({ status: 'COMPLETED', receiver: { name: `Owner ${w.i}`, key: KEY } });
  // its lists hold its own arrangements only
  const rules = await ok(w.control('GET', '/_sandbox/rules'));
  expect(rules.map((r: { id: string }) => r.id).sort()).toEqual(w.i % 2 === 0 ? ['covers-wide', 'same-rule'] : ['same-rule']);
  expect(rules.every((r: { accountId: string }) => r.accountId === w.id)).toBe(true);
  expect((await ok(w.control('GET', '/_sandbox/pix-keys'))).map((k: { owner: { name: string } }) => k.owner.name)).toEqual([
    `Owner ${w.i}`,
  ]);
  expect(await ok(w.control('GET', '/_sandbox/faults'))).toEqual([]); // spent
  // its journal holds its own requests, every one of them
  const journal = await ok(w.control('GET', '/_sandbox/requests?limit=1000'));
  expect(journal.length).toBeGreaterThanOrEqual(7);
  expect(journal.every((e: { accountId: string }) => e.accountId === w.id)).toBe(true);
};

// snapshot, restore and the tenant reset (issue 23) come as phases here, between act and check or after it
const PHASES: Phase[] = [arrange, act, check];

beforeAll(async () => {
  sb = await startTestSandbox();
  // a sandbox-wide rule and key, as the default fixtures ship magic values
  await ok(
    sb.request('POST', '/_sandbox/rules', {
      body: { id: 'same-rule', match: { type: 'CASH_OUT', amount: 300 }, outcome: { action: 'fail', code: 'SANDBOX_WIDE' } },
    }),
  );
  await ok(
    sb.request('POST', '/_sandbox/pix-keys', { body: { key: KEY, keyType: 'EMAIL', owner: { name: 'Shared', document: '11144477735' } } }),
  );
});
afterAll(() => sb?.stop());

describe('eight tenants arranging at once', () => {
  it('each sees its own rule, fault and key, never another’s; a sandbox-wide rule reaches them all', async () => {
    const workers = await Promise.all(Array.from({ length: TENANTS }, (_, i) => newWorker(i)));
    for (const phase of PHASES) await Promise.all(workers.map((w) => phase(w)));

    // a ninth tenant with no arrangement of its own sees the sandbox-wide ones only
    const ninth = await newWorker(TENANTS + 1);
    const wide = await cashOut(ninth, 300);
    const plain = await cashOut(ninth, 100);
    const toKey = await cashOut(ninth, 200, KEY, 'EMAIL');
    await advance(ninth, 3);
    expect((await lookup(ninth, wide.transactionId)).data).toMatchObject({ status: 'FAILED', error: { code: 'SANDBOX_WIDE' } });
    expect((await lookup(ninth, plain.transactionId)).data.status).toBe('COMPLETED');
    expect((await lookup(ninth, toKey.transactionId)).data).toMatchObject({ status: 'COMPLETED', receiver: { name: 'Shared' } });
    expect((await sb.request('GET', '/v1/banking/balance', { token: ninth.token })).status).toBe(200);

    // an account that does not exist owns nothing: 404, and nothing is made
    const unknown = '9b2f9d0e-0000-4000-8000-000000000000';
    const before = await ok(sb.request('GET', '/_sandbox/rules'));
    for (const [path, body] of [
      ['/_sandbox/rules', { match: { type: 'CASH_IN', amount: 1 }, outcome: { action: 'wait' } }],
      ['/_sandbox/faults', { path: '/v1/x', status: 500 }],
      ['/_sandbox/pix-keys', { key: 'x@y.test', keyType: 'EMAIL', owner: { name: 'X', document: '52998224725' } }],
    ] as const) {
      const r = await sb.request('POST', path, { body: { ...body, accountId: unknown } });
      expect([r.status, r.body.error.code], path).toEqual([404, 'NOT_FOUND']);
    }
    expect(await ok(sb.request('GET', '/_sandbox/rules'))).toEqual(before);
    expect((await sb.request('GET', `/_sandbox/faults?accountId=${unknown}`)).status).toBe(404);

    // the operator sees every scope: each tenant's rule of the same id, and the sandbox-wide one
    const all = await ok(sb.request('GET', '/_sandbox/rules'));
    const same = all.filter((r: { id: string }) => r.id === 'same-rule');
    expect(same.map((r: { accountId: string | null }) => r.accountId).sort()).toEqual([...workers.map((w) => w.id), null].sort());
  }, 60_000);
});

describe('fixtures with a tenant’s own arrangements', () => {
  const OWN = '0a0a0a0a-0000-4000-8000-00000000000a';
  const account = (id: string, client: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: client,
    client_id: client,
    client_secret: `${client}-secret`,
    balance: 10_000,
    ...extra,
  });
  const fixtures = (ownRules: unknown[]) => ({
    accounts: [
      account('00000000-0000-4000-8000-000000000001', 'sandbox-client'),
      account(OWN, 'own-client', {
        rules: ownRules,
        pixKeys: [{ key: KEY, keyType: 'EMAIL', owner: { name: 'Own Owner', document: '52998224725' } }],
      }),
    ],
    pixKeys: [{ key: KEY, keyType: 'EMAIL', owner: { name: 'Shared', document: '11144477735' } }],
  });

  it('loads an account’s own rules and keys, seen by its transactions only; a bad one is named by its place', async () => {
    const fx = await startTestSandbox();
    try {
      const rule = { id: 'own', match: { type: 'CASH_OUT', amount: 100 }, outcome: { action: 'fail', code: 'OWN_RULE' } };
      await ok(fx.request('POST', '/_sandbox/reset', { body: { fixtures: fixtures([rule]) } }));
      expect(await ok(fx.request('GET', `/_sandbox/rules?accountId=${OWN}`))).toMatchObject([{ id: 'own', accountId: OWN }]);
      const own = { token: await fx.token({ client_id: 'own-client', client_secret: 'own-client-secret' }) };
      const other = { token: await fx.token({ client_id: 'sandbox-client', client_secret: 'sandbox-client-secret' }) };
      const send = async (w: { token: string }, amount: number, key?: string) => {
        const r = await fx.request('POST', '/v1/banking/cash-out/pix', {
          token: w.token,
          headers: { 'x-idempotency-key': randomUUID() },
          body: {
            type: 'pix_key',
            description: 'fixture',
            amount: String(amount),
            details: key ? { name: 'R', key, keyType: 'EMAIL' } : { name: 'R', key: '11144477735', keyType: 'CPF' },
          },
        });
        return r.body.transactionId as string;
      };
      const ids = {
        ownRule: await send(own, 100),
        otherRule: await send(other, 100),
        ownKey: await send(own, 200, KEY),
        otherKey: await send(other, 200, KEY),
      };
      await ok(fx.request('POST', '/_sandbox/clock/advance', { body: { seconds: 3 } }));
      const status = async (w: { token: string }, id: string) =>
        (await ok(fx.request('GET', `/v1/banking/transactions/${id}`, { token: w.token }))).data;
      expect(await status(own, ids.ownRule)).toMatchObject({ status: 'FAILED', error: { code: 'OWN_RULE' } });
      expect((await status(other, ids.otherRule)).status).toBe('COMPLETED');
      expect((await status(own, ids.ownKey)).receiver.name).toBe('Own Owner');
      expect((await status(other, ids.otherKey)).receiver.name).toBe('Shared');

      const bad = await fx.request('POST', '/_sandbox/reset', {
        body: { fixtures: fixtures([{ match: { type: 'CASH_OUT' }, outcome: {} }]) },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.map((d: { path: string }) => d.path)).toContain('/fixtures/accounts/1/rules/0/outcome/action');
    } finally {
      await fx.stop();
    }
  });
});
