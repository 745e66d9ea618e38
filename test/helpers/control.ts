// Helpers for the integration tests: public API calls the tests repeat, and the control calls that
// set a test's state up the way a user would (docs/control-api.md), never by writing the store.
import { randomUUID } from 'node:crypto';
import type { HttpResult, TestSandbox } from './sandbox.js';

/** A control call that sets a test up: it must succeed (else it throws with the answer); answers its body. */
export async function control<T = any>(sb: TestSandbox, method: string, p: string, body?: unknown): Promise<T> {
  const r = await sb.request<T>(method, p, body === undefined ? {} : { body });
  if (r.status >= 300) throw new Error(`${method} ${p} failed: ${r.status} ${r.text}`);
  return r.body;
}

// transitions the real service makes on its own, forced now (docs/control-api.md#charges-and-transfers)
export const pay = (sb: TestSandbox, id: string, payer?: Record<string, string>) =>
  control(sb, 'POST', `/_sandbox/charges/${id}/pay`, payer === undefined ? undefined : { payer });
export const expire = (sb: TestSandbox, id: string) => control(sb, 'POST', `/_sandbox/charges/${id}/expire`);
export const cancel = (sb: TestSandbox, id: string) => control(sb, 'POST', `/_sandbox/charges/${id}/cancel`);
export const complete = (sb: TestSandbox, id: string) => control(sb, 'POST', `/_sandbox/transfers/${id}/complete`);
export const fail = (sb: TestSandbox, id: string, code = 'BANK_REJECTED', message = 'rejected by the test') =>
  control(sb, 'POST', `/_sandbox/transfers/${id}/fail`, { code, message });

// money and merchants (docs/control-api.md#accounts, #merchants-and-wallets): a credit of a negative amount moves money out
export const creditAccount = (sb: TestSandbox, accountId: string, amount: number) =>
  control(sb, 'POST', `/_sandbox/accounts/${accountId}/credit`, { amount });
export const creditWallet = (sb: TestSandbox, walletId: string, amount: number) =>
  control(sb, 'POST', `/_sandbox/wallets/${walletId}/credit`, { amount });
export const setMerchantStatus = (sb: TestSandbox, id: string, status: 'ACTIVE' | 'INACTIVE' | 'SUSPENDED') =>
  control(sb, 'PATCH', `/_sandbox/merchants/${id}`, { status });

// the key directory and outcome rules (docs/control-api.md#pix-key-directory, #outcome-rules)
export const addPixKey = (sb: TestSandbox, entry: Record<string, unknown>) => control(sb, 'POST', '/_sandbox/pix-keys', entry);
export const addRule = (sb: TestSandbox, rule: Record<string, unknown>) => control(sb, 'POST', '/_sandbox/rules', rule);
export const removeRule = (sb: TestSandbox, id: string) => control(sb, 'DELETE', `/_sandbox/rules/${id}`);

/** The newest transaction's id (of every account, or as `query` filters), null when none: a refused request leaves it as it was. */
export async function newestTransaction(sb: TestSandbox, query = ''): Promise<string | null> {
  const list = await control<{ id: string }[]>(sb, 'GET', `/_sandbox/transactions?limit=1${query ? `&${query}` : ''}`);
  return list[0]?.id ?? null;
}

/** POST /_sandbox/reset (docs/control-api.md#reset): the configured fixtures, or the set given. */
export const reset = (sb: TestSandbox, fixtures?: unknown) =>
  control(sb, 'POST', '/_sandbox/reset', fixtures === undefined ? undefined : { fixtures });

const CUSTOMER = { name: 'Cliente Teste', document: '12345678909' };

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

/** Advances the sandbox clock; the answer comes after the due work, webhook attempts included. */
export const advance = (sb: TestSandbox, seconds: number) =>
  control<{ now: string; offsetSeconds: number }>(sb, 'POST', '/_sandbox/clock/advance', { seconds });

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
