// Shared steps of the webhook tests: transactions through the public API, transitions through
// the control API (test/helpers/control.ts), the sandbox clock, and the delivery log.
import { randomUUID } from 'node:crypto';
import type { TestSandbox } from './sandbox.js';

export const CPF_A = '52998224725';
const CPF_B = '11144477735';

export async function cashIn(sb: TestSandbox, token: string, amount = 1500): Promise<string> {
  const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
    token,
    body: { amount, description: 'webhook test', customer: { name: 'Maria Silva', document: CPF_A }, externalId: `ext-${amount}` },
  });
  if (r.status !== 201) throw new Error(`cash-in failed: ${r.status} ${r.text}`);
  return r.body.transactionId as string;
}

export async function cashOut(sb: TestSandbox, token: string, details: Record<string, string> = {}): Promise<string> {
  const r = await sb.request('POST', '/v1/banking/cash-out/pix', {
    token,
    headers: { 'x-idempotency-key': randomUUID() },
    body: {
      type: 'pix_key',
      description: 'webhook test',
      amount: '700',
      details: { name: 'João Souza', key: CPF_B, keyType: 'CPF', ...details },
    },
  });
  if (r.status !== 201) throw new Error(`cash-out failed: ${r.status} ${r.text}`);
  return r.body.transactionId as string;
}

export { advance, cancel, complete, expire, fail, pay } from './control.js';

export async function register(
  sb: TestSandbox,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const r = await sb.request('POST', '/_sandbox/webhooks', { body });
  if (r.status !== 201) throw new Error(`register failed: ${r.status} ${r.text}`);
  return r.body;
}

export async function deliveries(sb: TestSandbox, query = ''): Promise<any[]> {
  const r = await sb.request('GET', `/_sandbox/webhooks/deliveries${query ? `?${query}` : ''}`);
  if (r.status !== 200) throw new Error(`deliveries failed: ${r.status} ${r.text}`);
  return r.body;
}

/** Polls the delivery log until `check` holds (attempts are recorded just after the receiver answers). */
export async function until<T>(probe: () => Promise<T>, check: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (check(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(v).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
