// Helpers for the money tests: merchants and extra accounts through the real APIs, the clock, and
// decoding of QR images.
import { randomUUID } from 'node:crypto';
import jsQRImport from 'jsqr';
import { PNG } from 'pngjs';
import { generateCnpj } from '../../src/domain/documents.js';
import type { TestSandbox } from './sandbox.js';

type JsQR = typeof jsQRImport.default;
// jsqr's types declare an ES default export, but its UMD bundle sets module.exports to the function.
const jsQR: JsQR = (jsQRImport as unknown as { default?: JsQR }).default ?? (jsQRImport as unknown as JsQR);

const cnpj = (): string => generateCnpj(Math.random);

/** The text of the QR code in a `data:image/png;base64,` URL, or null. */
export function decodeQrDataUrl(url: string): string | null {
  const png = PNG.sync.read(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64'));
  const rgba = new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length);
  return jsQR(rgba, png.width, png.height)?.data ?? null;
}

export interface TestMerchant {
  id: string;
  walletId: string;
  token: string;
}

export async function createMerchant(sb: TestSandbox, accountToken: string, name = 'Loja Teste'): Promise<TestMerchant> {
  const r = await sb.request('POST', '/v1/merchants', {
    token: accountToken,
    body: { name, document: cnpj(), document_type: 'CNPJ', email: 'loja@example.com', phone: '11987654321' },
  });
  if (r.status !== 201) throw new Error(`merchant creation failed: ${r.status} ${r.text}`);
  const { merchant, wallet_id, credentials } = r.body.data;
  return { id: merchant.id, walletId: wallet_id, token: await sb.token(credentials) };
}

/** A second tenant, created through the control API (POST /_sandbox/accounts); answers a token for it. */
export async function createAccount(
  sb: TestSandbox,
  opts: { balance?: number; splitEnabled?: boolean; autoPayAfterSeconds?: number | null; settleAfterSeconds?: number } = {},
): Promise<{ id: string; token: string }> {
  const r = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Second account', ...opts } });
  if (r.status !== 201) throw new Error(`account creation failed: ${r.status} ${r.text}`);
  return { id: r.body.id, token: await sb.token({ client_id: r.body.client_id, client_secret: r.body.client_secret }) };
}

/** Moves the sandbox clock forward through the control API, which runs what fell due before answering. */
export async function advance(sb: TestSandbox, seconds: number): Promise<void> {
  const r = await sb.request('POST', '/_sandbox/clock/advance', { body: { seconds } });
  if (r.status !== 200) throw new Error(`clock advance failed: ${r.status} ${r.text}`);
}

export async function balanceOf(sb: TestSandbox, token: string): Promise<number> {
  const r = await sb.request('GET', '/v1/banking/balance', { token });
  if (r.status !== 200) throw new Error(`balance failed: ${r.status} ${r.text}`);
  return r.body.data.balance as number;
}

export const cashInBody = (over: Record<string, unknown> = {}) => ({
  amount: 1_050,
  description: 'Pedido 42',
  customer: { name: 'Maria Silva', document: '52998224725', email: 'maria@example.com', phone: '11987654321' },
  ...over,
});

export const cashOutBody = (over: Record<string, unknown> = {}, details: Record<string, unknown> = {}) => ({
  type: 'pix_key',
  description: 'Pagamento fornecedor',
  amount: '1500',
  details: { name: 'Fornecedor', key: '52998224725', keyType: 'CPF', ...details },
  ...over,
});

export function cashOut(sb: TestSandbox, token: string, body: unknown, key: string | null = randomUUID()) {
  return sb.request('POST', '/v1/banking/cash-out/pix', { token, body, headers: key === null ? {} : { 'x-idempotency-key': key } });
}

export function lookup(sb: TestSandbox, token: string, id: string) {
  return sb.request('GET', `/v1/banking/transactions/${id}`, { token });
}
