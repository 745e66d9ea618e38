// Eight tenants share one sandbox as parallel test workers do (docs/control-api.md#scoped-arrangements):
// each arranges an outcome rule, an HTTP fault and a PIX key of its own, all under the same names and
// for the same amounts, and checks what it sees while the others do the same: no cross-talk. A
// sandbox-wide rule still reaches all eight (a tenant's own rule of the same match is tried first), and
// a sandbox-wide key is seen by a ninth tenant that has none of its own. Half the workers arrange with
// their own token (self-service control), half through the operator with `accountId`.
// Each worker runs the phases in order, all eight at once: it snapshots its arranged world, spends it,
// restores it (and meets its own rule, fault and key again), then resets itself to as it was made (and
// meets the sandbox-wide ones only). Half restore or reset while the other half read their own listing
// again and again: a neighbour's restore or reset never moves it (docs/control-api.md#snapshots).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';
import { ok, tenantListing } from '../helpers/control.js';

const TENANTS = 8;
// frozen, so that a listing holds the tenant's instant: a restore puts it back to the snapshot's, a reset to the first
const FROZEN = { at: '2030-01-01T12:00:00.000Z', frozen: true };
const KEY = 'same@tenants.test';

let sb: TestSandbox;

interface Worker {
  i: number;
  id: string;
  token: string;
  /** a control call as this worker makes it: with its token, or as the operator naming its account */
  control(method: string, path: string, body?: Record<string, unknown>): Promise<HttpResult>;
  seen: Record<string, unknown>;
  /** its listing right after it was made, and when it saved its snapshot */
  made: string;
  saved: string;
}

/** A tenant's listing with its clock's instant in place of its distance from real time, which moves by itself. */
async function world(accountId: string): Promise<string> {
  const parts = JSON.parse(await tenantListing(sb, accountId)) as unknown[];
  const { offsetSeconds: _moves, ...clock } = parts.pop() as { offsetSeconds: number };
  const { now } = await ok(sb.request('GET', `/_sandbox/clock?accountId=${accountId}`));
  return JSON.stringify([...parts, { ...clock, now }]);
}

async function newWorker(i: number): Promise<Worker> {
  const account = await ok(sb.request('POST', '/_sandbox/accounts', { body: { name: `worker ${i}`, balance: 100_000, clock: FROZEN } }));
  const token = await sb.token({ client_id: account.client_id, client_secret: account.client_secret });
  const selfService = i % 2 === 0;
  return {
    i,
    id: account.id,
    token,
    seen: {},
    made: await world(account.id),
    saved: '',
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

/** Its arranged world saved under a name of its own (names are unique in the sandbox). */
const snapshot: Phase = async (w) => {
  w.saved = await world(w.id);
  const saved = await ok(w.control('POST', '/_sandbox/snapshots', { name: `worker-${w.i}` }));
  expect(saved).toMatchObject({ name: `worker-${w.i}`, accountId: w.id, counts: { transactions: 0 } });
};

/** A neighbour's change happening now must not move this worker's listing: read it while the others work. */
async function unmoved(w: Worker, expected: string, reads = 6) {
  for (let n = 0; n < reads; n++) expect(await world(w.id), `worker ${w.i}, read ${n}`).toBe(expected);
}

/** Half the workers (`parity`) restore their snapshot, while the other half see their own listing unmoved. */
const restoreHalf =
  (parity: number): Phase =>
  async (w) => {
    if (w.i % 2 !== parity) return unmoved(w, await world(w.id));
    expect(await world(w.id)).not.toBe(w.saved); // its transfers since, its fault spent
    const restored = await ok(w.control('POST', `/_sandbox/snapshots/worker-${w.i}/restore`));
    expect(restored).toMatchObject({ name: `worker-${w.i}`, accountId: w.id });
    expect(await world(w.id)).toBe(w.saved);
  };

/** Half the workers reset their tenant to as it was made, while the other half see their own listing unmoved. */
const resetHalf =
  (parity: number): Phase =>
  async (w) => {
    if (w.i % 2 !== parity) return unmoved(w, await world(w.id));
    expect(await world(w.id)).not.toBe(w.made);
    const account = await ok(w.control('POST', `/_sandbox/accounts/${w.id}/reset`));
    expect(account).toMatchObject({ id: w.id, balance: 100_000 });
    expect(await world(w.id)).toBe(w.made);
  };

/** After its reset, nothing of its own: the sandbox-wide rule and key decide its transfers, no fault meets it. */
const afterReset: Phase = async (w) => {
  expect((await sb.request('GET', '/v1/banking/balance', { token: w.token })).status).toBe(200);
  const plain = await cashOut(w, 100);
  const wide = await cashOut(w, 300);
  const toKey = await cashOut(w, 200, KEY, 'EMAIL');
  await advance(w, 3);
  expect((await lookup(w, plain.transactionId)).data.status).toBe('COMPLETED');
  expect((await lookup(w, wide.transactionId)).data).toMatchObject({ status: 'FAILED', error: { code: 'SANDBOX_WIDE' } });
  expect((await lookup(w, toKey.transactionId)).data).toMatchObject({ status: 'COMPLETED', receiver: { name: 'Shared' } });
  for (const list of ['rules', 'pix-keys', 'faults']) expect(await ok(w.control('GET', `/_sandbox/${list}`)), list).toEqual([]);
  // its journal kept its own requests through the restore and the reset, and only them
  const journal = await ok(w.control('GET', '/_sandbox/requests?limit=1000'));
  expect(journal.every((e: { accountId: string }) => e.accountId === w.id)).toBe(true);
  expect(journal.length).toBeGreaterThanOrEqual(17);
};

const ARRANGED: Phase[] = [arrange, snapshot, act, check];
// act and check again on the same world restored (its fault unspent again), then the tenant reset
const RESTORED: Phase[] = [restoreHalf(0), restoreHalf(1), act, check, resetHalf(0), resetHalf(1), afterReset];

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
  it('each sees its own rule, fault, key, snapshot, restore and reset, never another’s; a sandbox-wide rule reaches them all', async () => {
    const workers = await Promise.all(Array.from({ length: TENANTS }, (_, i) => newWorker(i)));
    for (const phase of ARRANGED) await Promise.all(workers.map((w) => phase(w)));
    // the operator sees every scope: each tenant's rule of the same id, and the sandbox-wide one
    const same = async () =>
      (await ok(sb.request('GET', '/_sandbox/rules')))
        .filter((r: { id: string }) => r.id === 'same-rule')
        .map((r: { accountId: string | null }) => r.accountId)
        .sort();
    expect(await same()).toEqual([...workers.map((w) => w.id), null].sort());
    for (const phase of RESTORED) await Promise.all(workers.map((w) => phase(w)));
    expect(await same()).toEqual([null]);

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
  }, 120_000);
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
