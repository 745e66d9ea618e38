// The integration report judging two apps (docs/report.md): a careful one and a careless one, written
// here as the code an integrator would write, run the same flows against one sandbox, each as its own
// tenant with its own webhook receiver (a real HTTP server): a token, a charge paid and its webhook, a
// lookup, a cash-out, a cash-out that meets a 503 and then a 429 (injected faults), and a token that
// expires (the tenant's clock advanced). The careless one fetches a token per request, retries the
// cash-out under a new key, ignores Retry-After, polls the lookup and accepts any signature. The report
// must flag each of those with its check, outcome and evidence, and give the careful app no fail and no
// warn but failure-coverage.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/verify.js';
import { control } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const CASH_OUT = '/v1/banking/cash-out/pix';
const CUSTOMER = { name: 'Ana Lima', document: '52998224725' };
const PAYEE = { type: 'pix_key', description: 'report', amount: '25', details: { name: 'Joao', key: '11144477735', keyType: 'CPF' } };

interface Tenant {
  id: string;
  creds: { client_id: string; client_secret: string };
  rx: Receiver;
  endpointSecret: string;
}

let sb: TestSandbox;
let careful: Tenant;
let careless: Tenant;

/** An app under test: the same flows, written carefully or not. */
class App {
  #token: string | null = null;
  constructor(
    readonly t: Tenant,
    readonly careful: boolean,
  ) {}

  async #fetchToken(): Promise<string> {
    return (this.#token = await sb.token(this.t.creds));
  }

  /** A call with a token: the careful app keeps one and renews it on TOKEN_EXPIRED; the careless one fetches one per call. */
  async call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) {
    const token = this.careful ? (this.#token ?? (await this.#fetchToken())) : await this.#fetchToken();
    const r = await sb.request(method, path, { token, ...opts });
    if (this.careful && r.status === 401 && r.body?.error?.code === 'TOKEN_EXPIRED') {
      await this.#fetchToken();
      return sb.request(method, path, { token: this.#token, ...opts });
    }
    return r;
  }

  /** A charge, paid by the payer, learned of by webhook (careful) or by polling (careless). */
  async chargePaid(): Promise<void> {
    const charge = await this.call('POST', '/v1/banking/cash-in/pix', { body: { amount: 1500, description: 'order', customer: CUSTOMER } });
    expect(charge.status).toBe(201);
    const id = charge.body.transactionId as string;
    if (!this.careful) for (let i = 0; i < 12; i++) await this.call('GET', `/v1/banking/transactions/${id}`);
    await control(sb, 'POST', `/_sandbox/charges/${id}/pay`);
    await this.t.rx.waitFor(1, (r) => r.body?.type === 'cashin.paid' && r.body?.data?.transactionId === id);
    const lookup = await this.call('GET', `/v1/banking/transactions/${id}`);
    expect(lookup.status).toBe(200);
  }

  /** A cash-out, retried until it is accepted: the careful app keeps its key and waits out Retry-After. */
  async cashOut(): Promise<void> {
    let key = randomUUID();
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = await this.call('POST', CASH_OUT, { body: PAYEE, headers: { 'x-idempotency-key': key } });
      if (r.status < 300) return;
      expect([429, 503]).toContain(r.status);
      if (this.careful) await sleep(r.status === 429 ? Number(r.headers.get('retry-after') ?? 1) * 1000 : 200);
      else key = randomUUID();
    }
    throw new Error('the cash-out was never accepted');
  }

  /** The token expires while the app holds it (the tenant's clock moves past its 300 s). */
  async tokenExpires(): Promise<number> {
    if (!this.careful) {
      // fetched, then held across the advance: the careless app does not recover
      const token = await this.#fetchToken();
      await control(sb, 'POST', '/_sandbox/clock/advance', { seconds: 301, accountId: this.t.id });
      return (await sb.request('GET', '/v1/banking/balance', { token })).status;
    }
    await control(sb, 'POST', '/_sandbox/clock/advance', { seconds: 301, accountId: this.t.id });
    return (await this.call('GET', '/v1/banking/balance')).status;
  }

  async run(): Promise<void> {
    await this.chargePaid();
    await this.cashOut(); // plain
    await control(sb, 'POST', '/_sandbox/faults', { method: 'POST', path: CASH_OUT, status: 503, times: 1, accountId: this.t.id });
    await control(sb, 'POST', '/_sandbox/faults', { method: 'POST', path: CASH_OUT, status: 429, times: 1, accountId: this.t.id });
    await this.cashOut(); // meets the 503, then the 429
    expect(await this.tokenExpires()).toBe(this.careful ? 200 : 401);
  }
}

async function tenant(name: string, verifies: boolean): Promise<Tenant> {
  const account = await control(sb, 'POST', '/_sandbox/accounts', { name, balance: 1_000_000, settleAfterSeconds: 86_400 });
  const rx = await startReceiver();
  const endpoint = await control(sb, 'POST', '/_sandbox/webhooks', { url: rx.url, accountId: account.id });
  const seen = new Set<string>();
  // the careful receiver verifies the signature (refusing a forged or stale one) and acknowledges a duplicate without acting twice
  rx.behave((_n, r) => {
    if (!verifies) return { status: 200 };
    if (!verifySignature({ payload: r.raw, header: r.headers['x-sandbox-signature'] as string, secret: endpoint.secret }))
      return { status: 400 };
    seen.add(String(r.headers['x-sandbox-event-id']));
    return { status: 200 };
  });
  return {
    id: account.id,
    creds: { client_id: account.client_id, client_secret: account.client_secret },
    rx,
    endpointSecret: endpoint.secret,
  };
}

type Check = { id: string; outcome: string; count: number; evidence: (number | string)[]; advice: string; docs: string; detail: string };
interface Report {
  accountId: string;
  requests: number;
  checks: Check[];
}
const report = async (t: Tenant): Promise<Report> => control(sb, 'GET', `/_sandbox/report?accountId=${t.id}&probe=true`);
const checkOf = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;
/** The tenant's journal by seq. */
async function journal(t: Tenant): Promise<Map<number, any>> {
  const entries = await control<any[]>(sb, 'GET', `/_sandbox/requests?accountId=${t.id}&limit=10000`);
  return new Map(entries.map((e) => [e.seq, e]));
}

let carefulReport: Report;
let carelessReport: Report;

beforeAll(async () => {
  sb = await startTestSandbox();
  careful = await tenant('Careful Ltda', true);
  careless = await tenant('Careless Ltda', false);
  await new App(careful, true).run();
  await new App(careless, false).run();
  carefulReport = await report(careful);
  carelessReport = await report(careless);
}, 60_000);
afterAll(async () => {
  await sb?.stop();
  await careful?.rx.close();
  await careless?.rx.close();
});

describe('the integration report of a careful app', () => {
  it('has every check, and no fail and no warn but failure-coverage', () => {
    const outcomes = Object.fromEntries(carefulReport.checks.map((c) => [c.id, c.outcome]));
    expect(outcomes).toEqual({
      'token-reuse': 'pass',
      'expired-token-recovery': 'pass',
      'idempotent-retry': 'pass',
      'idempotency-key-reuse': 'pass',
      'retry-after': 'pass',
      polling: 'pass',
      'webhook-ack': 'pass',
      'webhook-signature': 'pass',
      'validation-errors': 'pass',
      'plain-http': 'not-exercised',
      'failure-coverage': 'warn',
    });
    expect(checkOf(carefulReport, 'token-reuse').count).toBe(2);
    // the flows meet a token expired, a 429, a 5xx and the probe; nothing else
    expect(checkOf(carefulReport, 'failure-coverage').detail).toBe(
      '4/11 met; not met: transfer-failed, charge-expired, insufficient-funds, webhook-retried, webhook-duplicated, webhook-reordered, webhook-delayed',
    );
    for (const c of carefulReport.checks) expect(c.docs).toBe(`docs/report.md#${c.id}`);
  });
});

describe('the integration report of a careless app', () => {
  it('flags each careless behaviour with its check and outcome', () => {
    const outcomes = Object.fromEntries(carelessReport.checks.map((c) => [c.id, c.outcome]));
    expect(outcomes).toMatchObject({
      'token-reuse': 'fail',
      'expired-token-recovery': 'fail',
      'idempotent-retry': 'fail',
      'idempotency-key-reuse': 'pass',
      'retry-after': 'fail',
      polling: 'warn',
      'webhook-ack': 'pass',
      'webhook-signature': 'fail',
      'validation-errors': 'pass',
    });
    for (const c of carelessReport.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn')) expect(c.advice).toMatch(/\.$/);
  });

  it('points its evidence at the entries behind each flag', async () => {
    const byId = await journal(careless);
    const at = (c: string) => checkOf(carelessReport, c).evidence.map((s) => byId.get(s as number));
    // every token request of the app (one per call): more than 3 within 300 s
    const tokens = at('token-reuse');
    const issued = [...byId.values()].filter((e) => e.path === '/v1/oauth/token').map((e) => e.seq);
    expect(issued.length).toBeGreaterThan(10);
    expect(checkOf(carelessReport, 'token-reuse').evidence).toEqual(issued.sort((a, b) => a - b));
    for (const e of tokens) expect([e.method, e.path, e.status]).toEqual(['POST', '/v1/oauth/token', 200]);
    // the expired token's answer, never followed by the same request
    expect(at('expired-token-recovery').map((e) => [e.path, e.status, e.responseBody.error.code])).toEqual([
      ['/v1/banking/balance', 401, 'TOKEN_EXPIRED'],
    ]);
    // the 503 and its retry, the 429 and its retry: each retry under another key
    const retries = at('idempotent-retry');
    expect(retries.map((e) => [e.path, e.status])).toEqual([
      [CASH_OUT, 503],
      [CASH_OUT, 429],
      [CASH_OUT, 429],
      [CASH_OUT, 201],
    ]);
    expect(retries[0].requestHeaders['x-idempotency-key']).not.toBe(retries[1].requestHeaders['x-idempotency-key']);
    // the 429, and the next request of the same client at once (the token for the retry)
    const hurried = at('retry-after');
    expect(hurried.map((e) => [e.path, e.status])).toEqual([
      [CASH_OUT, 429],
      ['/v1/oauth/token', 200],
    ]);
    expect(Date.parse(hurried[1].at) - Date.parse(hurried[0].at)).toBeLessThan(1000);
    // the polled lookups of one transaction
    const polled = at('polling');
    expect(polled.length).toBeGreaterThan(10);
    expect(new Set(polled.map((e) => e.path)).size).toBe(1);
    expect(polled[0].path).toMatch(/^\/v1\/banking\/transactions\//);
  });

  it('names the probe sends the receiver accepted: the bad and the stale, marked audit in the send log', async () => {
    const sends = await control<any[]>(sb, 'GET', `/_sandbox/webhooks/sends?accountId=${careless.id}`);
    const accepted = checkOf(carelessReport, 'webhook-signature').evidence;
    const named = sends.filter((s) => accepted.includes(s.id));
    expect(named.map((s) => [s.signature, s.audit, s.attempt.statusCode]).sort()).toEqual([
      ['bad', true, 200],
      ['stale', true, 200],
    ]);
    // the careful receiver refused the same two
    const refused = await control<any[]>(sb, 'GET', `/_sandbox/webhooks/sends?accountId=${careful.id}`);
    expect(refused.map((s) => [s.signature, s.attempt.statusCode]).sort()).toEqual([
      ['bad', 400],
      ['stale', 400],
      ['valid', 200],
    ]);
  });
});
