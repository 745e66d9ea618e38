// Small helpers for the control-plane integration tests: public API calls the tests repeat.
import { randomUUID } from 'node:crypto';
import type { HttpResult, TestSandbox } from './sandbox.js';

export const CUSTOMER = { name: 'Cliente Teste', document: '12345678909' };

export async function createCharge(sb: TestSandbox, token: string, amount: number, extra: Record<string, unknown> = {}) {
  const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
    token,
    body: { amount, description: 'control test', customer: CUSTOMER, ...extra },
  });
  if (r.status !== 201) throw new Error(`cash-in failed: ${r.status} ${r.text}`);
  return r.body as { transactionId: string; pixCode: string; status: string; amount: number };
}

export async function createTransfer(sb: TestSandbox, token: string, amount: number, details: Record<string, unknown> = {}) {
  const r = await sb.request('POST', '/v1/banking/cash-out/pix', {
    token,
    headers: { 'x-idempotency-key': randomUUID() },
    body: {
      type: 'pix_key',
      description: 'control test',
      amount: String(amount),
      details: { name: 'Recebedor', key: '11144477735', keyType: 'CPF', ...details },
    },
  });
  if (r.status !== 201) throw new Error(`cash-out failed: ${r.status} ${r.text}`);
  return r.body as { transactionId: string; status: string };
}

export async function lookup(sb: TestSandbox, token: string, id: string) {
  return sb.request('GET', `/v1/banking/transactions/${id}`, { token });
}

export async function balance(sb: TestSandbox, token: string): Promise<number> {
  const r = await sb.request('GET', '/v1/banking/balance', { token });
  if (r.status !== 200) throw new Error(`balance failed: ${r.status} ${r.text}`);
  return r.body.data.balance as number;
}

export async function advance(sb: TestSandbox, seconds: number) {
  const r = await sb.request('POST', '/_sandbox/clock/advance', { body: { seconds } });
  if (r.status !== 200) throw new Error(`advance failed: ${r.status} ${r.text}`);
  return r.body as { now: string; offsetSeconds: number };
}

/** Asserts the §3 error shape and returns the body. */
export function errorShape(r: { status: number; body: any }) {
  const b = r.body;
  const ok =
    b &&
    b.statusCode === r.status &&
    typeof b.message === 'string' &&
    b.message.length > 0 &&
    typeof b.error?.code === 'string' &&
    Array.isArray(b.error?.details);
  if (!ok) throw new Error(`not the contract error shape: ${r.status} ${JSON.stringify(b)}`);
  return b as { statusCode: number; message: string; error: { code: string; details: { path: string; message: string }[] } };
}

/** The body of an answer of one of `status` (any 2xx but 202 by default); anything else throws, with the answer. */
export async function ok<T = any>(r: Promise<HttpResult<T>>, status = [200, 201, 204]): Promise<T> {
  const res = await r;
  if (!status.includes(res.status)) throw new Error(`expected ${status.join('/')}, got ${res.status} ${res.text}`);
  return res.body;
}

/**
 * Everything of a tenant the operator lists through the control API, as one text to compare whole
 * (docs/control-api.md#scoped-arrangements): its account, merchants, transactions, endpoints,
 * deliveries (without their attempts, which go on by themselves), webhook faults and sends, its own
 * rules, keys and faults, its clock (without `now`, which flows); `more` adds reads of its own.
 */
export async function tenantListing(
  sb: TestSandbox,
  accountId: string,
  more: string[] = [],
  headers: Record<string, string> = {},
): Promise<string> {
  const q = `accountId=${accountId}`;
  const get = (p: string) => ok(sb.request('GET', p, { headers }));
  const lists = ['merchants', 'transactions', 'webhooks', 'webhooks/faults', 'webhooks/sends', 'rules', 'pix-keys', 'faults'];
  const out: unknown[] = await Promise.all(
    [`/_sandbox/accounts/${accountId}`, ...lists.map((l) => `/_sandbox/${l}?${q}`), ...more].map(get),
  );
  const deliveries = (await get(`/_sandbox/webhooks/deliveries?${q}`)) as { id: string; eventId: string }[];
  const { now: _now, ...clock } = (await get(`/_sandbox/clock?${q}`)) as { now: string };
  return JSON.stringify([...out, deliveries.map(({ id, eventId }) => ({ id, eventId })), clock]);
}
