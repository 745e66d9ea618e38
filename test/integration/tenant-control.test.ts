// Self-service control with a tenant's token (docs/control-api.md#self-service-control), checked for every
// control operation of the table: with only tenant A's bearer token, A's calls work; every call naming
// B's records (a path id, an accountId, an id in a body) answers 404 and changes nothing of B; calls on
// the whole sandbox answer 403. The walk goes through OPERATIONS, so a control route without a declared
// scope, or without a case here, fails this test. The sandbox has an admin token: A's token is taken in
// its place.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations.js';
import { errorShape, ok, tenantListing } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const ADMIN = 'tenant-control-admin';
const admin = { 'x-sandbox-admin-token': ADMIN };

let sb: TestSandbox;
let rx: Receiver;

/** A tenant and a few records of it, made through the API. */
interface World {
  id: string;
  token: string;
  merchantId: string;
  walletId: string;
  chargeId: string;
  pixCode: string;
  qrImage: string;
  transferId: string;
  endpointId: string;
  deliveryId: string;
  webhookFaultId: string;
  ruleId: string;
  key: string;
  faultId: string;
  /** a named snapshot of the tenant */
  snapshot: string;
}

let A: World;
let B: World;

const asAdmin = (method: string, path: string, body?: unknown) =>
  sb.request(method, path, { headers: admin, ...(body !== undefined ? { body } : {}) });

const charge = (token: string) =>
  ok(
    sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount: 1234, description: 'tenant control', customer: { name: 'Ana Lima', document: '52998224725' } },
    }),
  );
const transfer = (token: string) =>
  ok(
    sb.request('POST', '/v1/banking/cash-out/pix', {
      token,
      headers: { 'x-idempotency-key': randomUUID() },
      body: { type: 'pix_key', description: 'tenant control', amount: '10', details: { name: 'Joao', key: '11144477735', keyType: 'CPF' } },
    }),
  );

async function world(name: string): Promise<World> {
  const account = await ok(asAdmin('POST', '/_sandbox/accounts', { name, balance: 1_000_000, settleAfterSeconds: 86_400 }));
  const token = await sb.token({ client_id: account.client_id, client_secret: account.client_secret });
  const merchant = await ok(
    sb.request('POST', '/v1/merchants', {
      token,
      body: { name: `${name} Loja`, document: '11222333000181', document_type: 'CNPJ', email: 'loja@example.com', phone: '11999990000' },
    }),
  );
  const endpoint = await ok(asAdmin('POST', '/_sandbox/webhooks', { url: rx.url, accountId: account.id, events: ['cashin.created'] }));
  const c = await charge(token);
  const detail = await ok(asAdmin('GET', `/_sandbox/transactions/${c.transactionId}`));
  const t = await transfer(token);
  const [delivery] = await ok(asAdmin('GET', `/_sandbox/webhooks/deliveries?transactionId=${c.transactionId}`));
  const wf = await ok(asAdmin('POST', '/_sandbox/webhooks/faults', { action: 'drop', accountId: account.id, eventType: 'cashout.failed' }));
  const rule = await ok(
    asAdmin('POST', '/_sandbox/rules', {
      id: 'mine',
      accountId: account.id,
      match: { type: 'CASH_IN', amount: 999_001 },
      outcome: { action: 'wait' },
    }),
  );
  const key = await ok(
    asAdmin('POST', '/_sandbox/pix-keys', {
      key: 'mine@tenant.test',
      keyType: 'EMAIL',
      owner: { name: `${name} Owner`, document: '52998224725' },
      accountId: account.id,
    }),
  );
  const fault = await ok(asAdmin('POST', '/_sandbox/faults', { path: '/v1/nowhere', status: 503, accountId: account.id }));
  const snapshot = await ok(asAdmin('POST', '/_sandbox/snapshots', { name: `snap-${account.id}`, accountId: account.id }));
  return {
    id: account.id,
    token,
    merchantId: merchant.data.merchant.id,
    walletId: merchant.data.wallet_id,
    chargeId: c.transactionId,
    pixCode: c.pixCode,
    qrImage: detail.qrCode,
    transferId: t.transactionId,
    endpointId: endpoint.id,
    deliveryId: delivery.id,
    webhookFaultId: wf.id,
    ruleId: rule.id,
    key: key.key,
    faultId: fault.id,
    snapshot: snapshot.name,
  };
}

/** One call of a case, made with A's token (its method comes from the operation). */
interface Call {
  path: string;
  body?: unknown;
  /** another method than the operation's: HEAD for the event stream, which a GET would hold open */
  method?: string;
}
type Maker = () => Call | Promise<Call>;
interface TenantCase {
  scope: 'tenant';
  /** A's own call: it must answer 2xx */
  own: Maker;
  /** calls naming B's records: each must answer 404 and change nothing of B */
  others: ((b: World) => Call)[];
}
interface SandboxCase {
  scope: 'sandbox';
  call: Call;
}
type Case = TenantCase | SandboxCase;

const own = (o: Maker, ...others: ((b: World) => Call)[]): TenantCase => ({ scope: 'tenant', own: o, others });
const wide = (path: string, body?: unknown): SandboxCase => ({ scope: 'sandbox', call: { path, ...(body !== undefined ? { body } : {}) } });
const path = (p: string) => (): Call => ({ path: p });
const accountQuery = (p: string) => (b: World) => ({ path: `${p}?accountId=${b.id}` });
const withBody = (p: string, body: Record<string, unknown>) => (b: World) => ({ path: p, body: { ...body, accountId: b.id } });

const asA = (method: string, c: Call) =>
  sb.request(c.method ?? method, c.path, { token: A.token, ...(c.body !== undefined ? { body: c.body } : {}) });
/** A fresh endpoint of A's and a delivery to it, made with A's token (an earlier case may have removed A's first ones). */
async function ownDelivery(): Promise<{ endpointId: string; deliveryId: string }> {
  const endpoint = await ok(asA('POST', { path: '/_sandbox/webhooks', body: { url: rx.url, events: ['cashin.created'] } }));
  const c = await charge(A.token);
  const [delivery] = await ok(asA('GET', { path: `/_sandbox/webhooks/deliveries?transactionId=${c.transactionId}` }));
  return { endpointId: endpoint.id, deliveryId: delivery.id };
}
const aRule = { match: { type: 'CASH_OUT', amount: 777 }, outcome: { action: 'wait' } };
const aKey = { key: 'own@tenant.test', keyType: 'EMAIL', owner: { name: 'Own', document: '52998224725' } };

/** Every control operation, by method and path: what A's own call is, and the calls that name B's records. */
const CASES: Record<string, Case> = {
  'POST /_sandbox/reset': wide('/_sandbox/reset'),
  'GET /_sandbox/accounts': wide('/_sandbox/accounts'),
  'POST /_sandbox/accounts': wide('/_sandbox/accounts', { name: 'not mine to make' }),
  'GET /_sandbox/version': own(path('/_sandbox/version')),
  'GET /_sandbox/clock': own(path('/_sandbox/clock'), accountQuery('/_sandbox/clock')),
  'POST /_sandbox/clock/advance': own(
    () => ({ path: '/_sandbox/clock/advance', body: { seconds: 1 } }),
    withBody('/_sandbox/clock/advance', { seconds: 1 }),
  ),
  'POST /_sandbox/clock/freeze': own(() => ({ path: '/_sandbox/clock/freeze', body: {} }), withBody('/_sandbox/clock/freeze', {})),
  'POST /_sandbox/clock/unfreeze': own(() => ({ path: '/_sandbox/clock/unfreeze', body: {} }), withBody('/_sandbox/clock/unfreeze', {})),
  'GET /_sandbox/accounts/{id}': own(
    () => ({ path: `/_sandbox/accounts/${A.id}` }),
    (b) => ({ path: `/_sandbox/accounts/${b.id}` }),
  ),
  'PATCH /_sandbox/accounts/{id}': own(
    () => ({ path: `/_sandbox/accounts/${A.id}`, body: { name: 'A renamed' } }),
    (b) => ({ path: `/_sandbox/accounts/${b.id}`, body: { name: 'not mine' } }),
  ),
  'POST /_sandbox/accounts/{id}/credit': own(
    () => ({ path: `/_sandbox/accounts/${A.id}/credit`, body: { amount: 100 } }),
    (b) => ({ path: `/_sandbox/accounts/${b.id}/credit`, body: { amount: -100 } }),
  ),
  // made near the end (they put A back as it was): A resets itself, restores its own snapshot
  'POST /_sandbox/accounts/{id}/reset': own(
    () => ({ path: `/_sandbox/accounts/${A.id}/reset` }),
    (b) => ({ path: `/_sandbox/accounts/${b.id}/reset` }),
  ),
  'POST /_sandbox/snapshots': own(
    () => ({ path: '/_sandbox/snapshots', body: { name: 'a-made-by-a' } }),
    // a snapshot of another tenant's account
    withBody('/_sandbox/snapshots', { name: 'a-names-b' }),
  ),
  'GET /_sandbox/snapshots': own(path('/_sandbox/snapshots'), accountQuery('/_sandbox/snapshots')),
  'GET /_sandbox/snapshots/{name}': own(
    () => ({ path: `/_sandbox/snapshots/${A.snapshot}` }),
    (b) => ({ path: `/_sandbox/snapshots/${b.snapshot}` }),
  ),
  'DELETE /_sandbox/snapshots/{name}': own(
    async () => {
      await ok(asA('POST', { path: '/_sandbox/snapshots', body: { name: 'a-to-delete' } }));
      return { path: '/_sandbox/snapshots/a-to-delete' };
    },
    (b) => ({ path: `/_sandbox/snapshots/${b.snapshot}` }),
  ),
  'POST /_sandbox/snapshots/{name}/restore': own(
    () => ({ path: `/_sandbox/snapshots/${A.snapshot}/restore` }),
    (b) => ({ path: `/_sandbox/snapshots/${b.snapshot}/restore` }),
  ),
  'GET /_sandbox/snapshots/{name}/export': own(
    () => ({ path: `/_sandbox/snapshots/${A.snapshot}/export` }),
    (b) => ({ path: `/_sandbox/snapshots/${b.snapshot}/export` }),
  ),
  // made last: A deletes itself
  'DELETE /_sandbox/accounts/{id}': own(
    () => ({ path: `/_sandbox/accounts/${A.id}` }),
    (b) => ({ path: `/_sandbox/accounts/${b.id}` }),
  ),
  'GET /_sandbox/wallets/{walletId}': own(
    () => ({ path: `/_sandbox/wallets/${A.walletId}` }),
    (b) => ({ path: `/_sandbox/wallets/${b.walletId}` }),
  ),
  'POST /_sandbox/wallets/{walletId}/credit': own(
    () => ({ path: `/_sandbox/wallets/${A.walletId}/credit`, body: { amount: 100 } }),
    (b) => ({ path: `/_sandbox/wallets/${b.walletId}/credit`, body: { amount: 100 } }),
  ),
  'GET /_sandbox/merchants': own(path('/_sandbox/merchants'), accountQuery('/_sandbox/merchants')),
  'GET /_sandbox/merchants/{id}': own(
    () => ({ path: `/_sandbox/merchants/${A.merchantId}` }),
    (b) => ({ path: `/_sandbox/merchants/${b.merchantId}` }),
  ),
  'PATCH /_sandbox/merchants/{id}': own(
    () => ({ path: `/_sandbox/merchants/${A.merchantId}`, body: { status: 'INACTIVE' } }),
    (b) => ({ path: `/_sandbox/merchants/${b.merchantId}`, body: { status: 'SUSPENDED' } }),
  ),
  'GET /_sandbox/transactions': own(path('/_sandbox/transactions'), accountQuery('/_sandbox/transactions')),
  'GET /_sandbox/transactions/{id}': own(
    () => ({ path: `/_sandbox/transactions/${A.chargeId}` }),
    (b) => ({ path: `/_sandbox/transactions/${b.chargeId}` }),
    (b) => ({ path: `/_sandbox/transactions/${b.transferId}` }),
  ),
  'POST /_sandbox/charges/{id}/pay': own(
    async () => ({ path: `/_sandbox/charges/${(await charge(A.token)).transactionId}/pay`, body: {} }),
    (b) => ({ path: `/_sandbox/charges/${b.chargeId}/pay`, body: {} }),
  ),
  'POST /_sandbox/charges/{id}/expire': own(
    async () => ({ path: `/_sandbox/charges/${(await charge(A.token)).transactionId}/expire` }),
    (b) => ({ path: `/_sandbox/charges/${b.chargeId}/expire` }),
  ),
  'POST /_sandbox/charges/{id}/cancel': own(
    async () => ({ path: `/_sandbox/charges/${(await charge(A.token)).transactionId}/cancel` }),
    (b) => ({ path: `/_sandbox/charges/${b.chargeId}/cancel` }),
  ),
  'POST /_sandbox/pix/pay': own(
    async () => ({ path: '/_sandbox/pix/pay', body: { pixCode: (await charge(A.token)).pixCode } }),
    (b) => ({ path: '/_sandbox/pix/pay', body: { pixCode: b.pixCode } }),
    (b) => ({ path: '/_sandbox/pix/pay', body: { qrImage: b.qrImage } }),
  ),
  'POST /_sandbox/transfers/{id}/complete': own(
    async () => ({ path: `/_sandbox/transfers/${(await transfer(A.token)).transactionId}/complete` }),
    (b) => ({ path: `/_sandbox/transfers/${b.transferId}/complete` }),
  ),
  'POST /_sandbox/transfers/{id}/fail': own(
    async () => ({ path: `/_sandbox/transfers/${(await transfer(A.token)).transactionId}/fail`, body: { code: 'BLOCKED' } }),
    (b) => ({ path: `/_sandbox/transfers/${b.transferId}/fail`, body: { code: 'BLOCKED' } }),
  ),
  'GET /_sandbox/pix-keys': own(path('/_sandbox/pix-keys'), accountQuery('/_sandbox/pix-keys')),
  'POST /_sandbox/pix-keys': own(() => ({ path: '/_sandbox/pix-keys', body: aKey }), withBody('/_sandbox/pix-keys', aKey)),
  'DELETE /_sandbox/pix-keys': own(path('/_sandbox/pix-keys'), accountQuery('/_sandbox/pix-keys')),
  'GET /_sandbox/pix-keys/{key}': own(
    async () => (await ok(asA('POST', { path: '/_sandbox/pix-keys', body: aKey })), { path: `/_sandbox/pix-keys/${aKey.key}` }),
    (b) => ({ path: `/_sandbox/pix-keys/${b.key}?accountId=${b.id}` }),
  ),
  'DELETE /_sandbox/pix-keys/{key}': own(
    async () => (await ok(asA('POST', { path: '/_sandbox/pix-keys', body: aKey })), { path: `/_sandbox/pix-keys/${aKey.key}` }),
    (b) => ({ path: `/_sandbox/pix-keys/${b.key}?accountId=${b.id}` }),
  ),
  'GET /_sandbox/rules': own(path('/_sandbox/rules'), accountQuery('/_sandbox/rules')),
  'POST /_sandbox/rules': own(() => ({ path: '/_sandbox/rules', body: aRule }), withBody('/_sandbox/rules', aRule)),
  'DELETE /_sandbox/rules': own(path('/_sandbox/rules'), accountQuery('/_sandbox/rules')),
  'DELETE /_sandbox/rules/{id}': own(
    async () => ({ path: `/_sandbox/rules/${(await ok(asA('POST', { path: '/_sandbox/rules', body: aRule }))).id}` }),
    (b) => ({ path: `/_sandbox/rules/${b.ruleId}?accountId=${b.id}` }),
  ),
  'GET /_sandbox/webhooks': own(path('/_sandbox/webhooks'), accountQuery('/_sandbox/webhooks')),
  'POST /_sandbox/webhooks': own(
    () => ({ path: '/_sandbox/webhooks', body: { url: rx.url } }),
    (b) => ({ path: '/_sandbox/webhooks', body: { url: rx.url, accountId: b.id } }),
  ),
  'DELETE /_sandbox/webhooks': own(path('/_sandbox/webhooks'), accountQuery('/_sandbox/webhooks')),
  'GET /_sandbox/webhooks/deliveries': own(path('/_sandbox/webhooks/deliveries'), accountQuery('/_sandbox/webhooks/deliveries')),
  'GET /_sandbox/webhooks/deliveries/{id}': own(
    async () => ({ path: `/_sandbox/webhooks/deliveries/${(await ownDelivery()).deliveryId}` }),
    (b) => ({ path: `/_sandbox/webhooks/deliveries/${b.deliveryId}` }),
  ),
  'POST /_sandbox/webhooks/deliveries/{id}/redeliver': own(
    async () => ({ path: `/_sandbox/webhooks/deliveries/${(await ownDelivery()).deliveryId}/redeliver` }),
    (b) => ({ path: `/_sandbox/webhooks/deliveries/${b.deliveryId}/redeliver` }),
  ),
  'POST /_sandbox/webhooks/fire': own(
    () => ({ path: '/_sandbox/webhooks/fire', body: { transactionId: A.chargeId, type: 'cashin.created' } }),
    (b) => ({ path: '/_sandbox/webhooks/fire', body: { transactionId: b.chargeId, type: 'cashin.created' } }),
  ),
  'GET /_sandbox/webhooks/{id}': own(
    async () => ({ path: `/_sandbox/webhooks/${(await ownDelivery()).endpointId}` }),
    (b) => ({ path: `/_sandbox/webhooks/${b.endpointId}` }),
  ),
  'DELETE /_sandbox/webhooks/{id}': own(
    async () => ({ path: `/_sandbox/webhooks/${(await ok(asA('POST', { path: '/_sandbox/webhooks', body: { url: rx.url } }))).id}` }),
    (b) => ({ path: `/_sandbox/webhooks/${b.endpointId}` }),
  ),
  'GET /_sandbox/webhooks/faults': own(path('/_sandbox/webhooks/faults'), accountQuery('/_sandbox/webhooks/faults')),
  'POST /_sandbox/webhooks/faults': own(
    () => ({ path: '/_sandbox/webhooks/faults', body: { action: 'drop', eventType: 'cashout.failed' } }),
    withBody('/_sandbox/webhooks/faults', { action: 'drop' }),
    (b) => ({ path: '/_sandbox/webhooks/faults', body: { action: 'drop', endpointId: b.endpointId } }),
  ),
  'DELETE /_sandbox/webhooks/faults': own(path('/_sandbox/webhooks/faults'), accountQuery('/_sandbox/webhooks/faults')),
  'DELETE /_sandbox/webhooks/faults/{id}': own(
    async () => ({
      path: `/_sandbox/webhooks/faults/${(await ok(asA('POST', { path: '/_sandbox/webhooks/faults', body: { action: 'duplicate', eventType: 'cashout.failed' } }))).id}`,
    }),
    (b) => ({ path: `/_sandbox/webhooks/faults/${b.webhookFaultId}` }),
  ),
  'POST /_sandbox/webhooks/send': own(
    async () => ({ path: '/_sandbox/webhooks/send', body: { endpointId: (await ownDelivery()).endpointId, body: { id: 'evt_own' } } }),
    (b) => ({ path: '/_sandbox/webhooks/send', body: { endpointId: b.endpointId, body: { id: 'evt_not_mine' } } }),
  ),
  'GET /_sandbox/webhooks/sends': own(path('/_sandbox/webhooks/sends'), accountQuery('/_sandbox/webhooks/sends')),
  'GET /_sandbox/requests': own(path('/_sandbox/requests'), accountQuery('/_sandbox/requests')),
  'GET /_sandbox/report': own(path('/_sandbox/report'), accountQuery('/_sandbox/report')),
  'POST /_sandbox/webhooks/audit': own(
    async () => ({ path: '/_sandbox/webhooks/audit', body: { endpointId: (await ownDelivery()).endpointId } }),
    (b) => ({ path: '/_sandbox/webhooks/audit', body: { endpointId: b.endpointId } }),
  ),
  // A's own stream by HEAD (a GET stays open); naming B is answered at once, as a 404
  'GET /_sandbox/changes': own(() => ({ method: 'HEAD', path: '/_sandbox/changes' }), accountQuery('/_sandbox/changes')),
  'DELETE /_sandbox/requests': own(path('/_sandbox/requests'), accountQuery('/_sandbox/requests')),
  // A's own request, made just before (an earlier case may have emptied A's journal)
  'POST /_sandbox/verify': own(
    async () => (
      await charge(A.token),
      { path: '/_sandbox/verify', body: { request: { method: 'POST', path: '/v1/banking/cash-in/pix' } } }
    ),
    withBody('/_sandbox/verify', { request: {} }),
  ),
  'POST /_sandbox/verify/sequence': own(
    async () => (
      await charge(A.token),
      { path: '/_sandbox/verify/sequence', body: { requests: [{ request: { path: '/v1/banking/cash-in/pix' } }] } }
    ),
    withBody('/_sandbox/verify/sequence', { requests: [{ request: {} }] }),
  ),
  'GET /_sandbox/faults': own(path('/_sandbox/faults'), accountQuery('/_sandbox/faults')),
  'POST /_sandbox/faults': own(
    () => ({ path: '/_sandbox/faults', body: { path: '/v1/elsewhere', status: 503 } }),
    withBody('/_sandbox/faults', { path: '/v1/elsewhere', status: 503 }),
  ),
  'DELETE /_sandbox/faults': own(path('/_sandbox/faults'), accountQuery('/_sandbox/faults')),
  'DELETE /_sandbox/faults/{id}': own(
    async () => ({
      path: `/_sandbox/faults/${(await ok(asA('POST', { path: '/_sandbox/faults', body: { path: '/v1/x', status: 500 } }))).id}`,
    }),
    (b) => ({ path: `/_sandbox/faults/${b.faultId}` }),
  ),
};

const CONTROL = OPERATIONS.filter((o) => o.auth === 'admin');
const keyOf = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startTestSandbox({ adminToken: ADMIN });
  A = await world('Tenant A');
  B = await world('Tenant B');
});
afterAll(async () => {
  await sb?.stop();
  await rx?.close();
});

describe("self-service control with a tenant's token", () => {
  it('has a declared scope and a case here for every control operation of the table, and no case for a route that is gone', () => {
    expect(CONTROL.filter((o) => o.scope !== 'tenant' && o.scope !== 'sandbox').map(keyOf)).toEqual([]);
    expect(CONTROL.map(keyOf).filter((k) => !(k in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((k) => !CONTROL.some((o) => keyOf(o) === k))).toEqual([]);
    for (const o of CONTROL) expect(CASES[keyOf(o)]!.scope, keyOf(o)).toBe(o.scope);
  });

  it("walks every control operation: A's own calls work, calls naming B's records are 404 and change nothing, sandbox-wide calls are 403", async () => {
    const before = await tenantListing(sb, B.id, [], admin);
    // A puts itself back (its reset, its snapshot's restore) after the calls that need its records, and deletes itself last
    const LATE = ['POST /_sandbox/accounts/{id}/reset', 'POST /_sandbox/snapshots/{name}/restore', 'DELETE /_sandbox/accounts/{id}'];
    const ops = [...CONTROL].sort((x, y) => LATE.indexOf(keyOf(x)) - LATE.indexOf(keyOf(y)));
    for (const op of ops) {
      const key = keyOf(op);
      const method = op.method.toUpperCase();
      const c = CASES[key]!;
      if (c.scope === 'sandbox') {
        const r = await asA(method, c.call);
        expect(r.status, `${key} with A's token`).toBe(403);
        expect(errorShape(r).error.code).toBe('FORBIDDEN');
      } else {
        for (const other of c.others) {
          const call = other(B);
          const r = await asA(method, call);
          expect(r.status, `${key} naming B (${call.path} ${JSON.stringify(call.body ?? '')})`).toBe(404);
          expect(errorShape(r).error.code).toBe('NOT_FOUND');
        }
        const mine = await c.own();
        const r = await asA(method, mine);
        expect(r.status, `${key} as A: ${r.text}`).toBeGreaterThanOrEqual(200);
        expect(r.status, `${key} as A: ${r.text}`).toBeLessThan(300);
      }
      expect(await tenantListing(sb, B.id, [], admin), `${key} changed nothing of B`).toBe(before);
    }
    // the deletion went through: A's token names nobody now
    const gone = await sb.request('GET', '/_sandbox/version', { token: A.token });
    expect([gone.status, errorShape(gone).error.code]).toEqual([401, 'INVALID_TOKEN']);
  }, 60_000);
});

describe("what a tenant's token is told", () => {
  let C: World;
  beforeAll(async () => {
    C = await world('Tenant C');
  });

  it('lists and reads show its own records only, and what it arranges is its own', async () => {
    const get = (p: string) => ok(sb.request('GET', p, { token: C.token }));
    for (const p of ['/_sandbox/transactions', '/_sandbox/merchants', '/_sandbox/webhooks', '/_sandbox/webhooks/faults'])
      expect(
        (await get(p)).every((r: { accountId: string }) => r.accountId === C.id),
        p,
      ).toBe(true);
    const deliveries = await get('/_sandbox/webhooks/deliveries');
    expect(deliveries.map((d: { endpointId: string }) => d.endpointId)).toEqual([C.endpointId]);
    expect((await get('/_sandbox/transactions')).length).toBe(2);
    // another tenant's ids as list filters find nothing of C's
    expect(await get(`/_sandbox/webhooks/deliveries?endpointId=${B.endpointId}`)).toEqual([]);
    expect(await get(`/_sandbox/webhooks/sends?endpointId=${B.endpointId}`)).toEqual([]);
    // arrangements made with its token are its own; the sandbox-wide ones are not listed to it
    const rule = await ok(sb.request('POST', '/_sandbox/rules', { token: C.token, body: { id: 'c-rule', ...aRule } }));
    expect(rule).toMatchObject({ id: 'c-rule', accountId: C.id });
    expect((await get('/_sandbox/rules')).map((r: { id: string }) => r.id).sort()).toEqual(['c-rule', 'mine']);
    const clock = await get('/_sandbox/clock');
    expect(clock.accountId).toBe(C.id);
  });

  it("a merchant's token gives no control access; a bad, expired or missing token is 401; a wrong admin token beside it is 401", async () => {
    const m = await ok(
      sb.request('POST', '/v1/merchants', {
        token: C.token,
        body: { name: 'C Loja 2', document: '45723174000110', document_type: 'CNPJ', email: 'c2@example.com', phone: '11999990001' },
      }),
    );
    const mToken = await sb.token(m.data.credentials);
    const merchant = await sb.request('GET', '/_sandbox/transactions', { token: mToken });
    expect([merchant.status, errorShape(merchant).error.code]).toEqual([403, 'FORBIDDEN']);

    const forged = `${C.token.slice(0, -4)}AAAA`;
    const bad = await sb.request('GET', '/_sandbox/transactions', { token: forged });
    expect([bad.status, errorShape(bad).error.code]).toEqual([401, 'INVALID_TOKEN']);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer realm="pix-sandbox", error="invalid_token"/);
    const malformed = await sb.request('GET', '/_sandbox/transactions', { headers: { authorization: 'Bearer not a token' } });
    expect([malformed.status, errorShape(malformed).error.code]).toEqual([401, 'UNAUTHORIZED']);
    const none = await sb.request('GET', '/_sandbox/transactions');
    expect([none.status, errorShape(none).error.code]).toEqual([401, 'UNAUTHORIZED']);
    const wrongAdmin = await sb.request('GET', '/_sandbox/transactions', { token: C.token, headers: { 'x-sandbox-admin-token': 'nope' } });
    expect([wrongAdmin.status, errorShape(wrongAdmin).error.code]).toEqual([401, 'UNAUTHORIZED']);
    // with the right admin token beside it, the bearer still confines the call to its tenant
    const both = await sb.request('GET', '/_sandbox/accounts', { token: C.token, headers: admin });
    expect(both.status).toBe(403);

    await ok(asAdmin('POST', '/_sandbox/clock/advance', { seconds: 301, accountId: C.id }));
    const expired = await sb.request('GET', '/_sandbox/transactions', { token: C.token });
    expect([expired.status, errorShape(expired).error.code]).toEqual([401, 'TOKEN_EXPIRED']);
  });
});

describe('without an admin token', () => {
  it("a tenant's token still confines its calls; calls without one stay the operator's", async () => {
    const open = await startTestSandbox();
    try {
      const made = await open.request('POST', '/_sandbox/accounts', { body: { name: 'Open tenant' } });
      const token = await open.token({ client_id: made.body.client_id, client_secret: made.body.client_secret });
      const reset = await open.request('POST', '/_sandbox/reset', { token });
      expect([reset.status, errorShape(reset).error.code]).toEqual([403, 'FORBIDDEN']);
      const others = await open.request('GET', '/_sandbox/transactions?accountId=00000000-0000-4000-8000-000000000001', { token });
      expect(others.status).toBe(404);
      expect((await open.request('GET', '/_sandbox/accounts')).status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});
