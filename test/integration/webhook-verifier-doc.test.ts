// The standalone verifier that docs/webhooks.md tells apps to keep: the exact code block of that page,
// run against real signed deliveries from a running sandbox to a real receiver on 127.0.0.1.
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifySignature } from '../../src/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Received, type Receiver } from '../helpers/webhook-receiver.js';

type Verify = (rawBody: string | Buffer, header: string | undefined, secret: string, toleranceSeconds?: number) => boolean;

const SECRET = 'whsec_doc-verifier-test-secret';

/** The ```js block of the "Verifying the signature" section that defines the verifier. */
async function verifierBlock(): Promise<string> {
  const page = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const start = page.indexOf('\n## Verifying the signature');
  expect(start, 'docs/webhooks.md has a "Verifying the signature" section').toBeGreaterThan(0);
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const block = blocks.find((b) => b.includes('export function verifyWebhookSignature'));
  expect(block, 'a ```js block exporting verifyWebhookSignature').toBeDefined();
  return block!;
}

let sandbox: TestSandbox;
let receiver: Receiver;
let verify: Verify;
let source: string;
let delivery: Received;
let tmp: string;

beforeAll(async () => {
  source = await verifierBlock();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pix-verifier-'));
  const file = path.join(tmp, 'webhook-signature.mjs');
  await writeFile(file, source);
  verify = ((await import(pathToFileURL(file).href)) as { verifyWebhookSignature: Verify }).verifyWebhookSignature;

  sandbox = await startTestSandbox();
  receiver = await startReceiver('/pix/webhook');
  const endpoint = await sandbox.request('POST', '/_sandbox/webhooks', { body: { url: receiver.url, secret: SECRET } });
  expect(endpoint.status).toBe(201);
  const token = await sandbox.token();
  const charge = await sandbox.request('POST', '/v1/banking/cash-in/pix', {
    token,
    body: { amount: 1050, description: 'Order 42', customer: { name: 'Maria Silva', document: '52998224725' } },
  });
  expect(charge.status).toBe(201);
  const [first] = await receiver.waitFor(1, (r) => r.body?.data?.transactionId === charge.body.transactionId, 10_000);
  delivery = first!;
});

afterAll(async () => {
  await receiver?.close();
  await sandbox?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

afterEach(() => {
  vi.useRealTimers();
});

const header = (r: Received) => r.headers['x-sandbox-signature'] as string;
const signedAt = (r: Received) => Number(/t=(\d+)/.exec(header(r))![1]);
const resign = (body: string, t: number) => `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}`;

describe('the verifier of docs/webhooks.md', () => {
  it('is a dozen lines that need nothing but node:crypto', () => {
    const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports).toEqual(['node:crypto']);
    expect(source).not.toMatch(/pix-sandbox|require\(/);
    expect(source.trim().split('\n').length).toBeLessThanOrEqual(15);
  });

  it('accepts a real signed delivery, as text and as the raw bytes', () => {
    expect(delivery.body.type).toBe('cashin.created');
    expect(verify(delivery.raw, header(delivery), SECRET)).toBe(true);
    expect(verify(Buffer.from(delivery.raw, 'utf8'), header(delivery), SECRET)).toBe(true);
    // the package's own check agrees
    expect(verifySignature({ payload: delivery.raw, header: header(delivery), secret: SECRET })).toBe(true);
  });

  it('rejects a tampered body, another secret, and a missing or garbled header', () => {
    const tampered = delivery.raw.replace('"amount":1050', '"amount":1051');
    expect(tampered).not.toBe(delivery.raw);
    expect(verify(tampered, header(delivery), SECRET)).toBe(false);
    expect(verify(delivery.raw, header(delivery), 'whsec_another-secret')).toBe(false);
    expect(verify(delivery.raw, undefined, SECRET)).toBe(false);
    expect(verify(delivery.raw, 't=abc,v1=zz', SECRET)).toBe(false);
    expect(verify(delivery.raw, header(delivery).replace(/v1=[0-9a-f]{4}/, 'v1=0000'), SECRET)).toBe(false);
  });

  it('rejects the real delivery once its timestamp is more than 300 s old, and accepts it just before', () => {
    const t = signedAt(delivery);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((t + 299) * 1000);
    expect(verify(delivery.raw, header(delivery), SECRET)).toBe(true);
    vi.setSystemTime((t + 301) * 1000);
    expect(verify(delivery.raw, header(delivery), SECRET)).toBe(false);
    expect(verify(delivery.raw, header(delivery), SECRET, 600)).toBe(true);
  });

  it('rejects a correct HMAC over a stale timestamp (the time check, not the HMAC, refuses it)', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verify(delivery.raw, resign(delivery.raw, now - 10), SECRET)).toBe(true);
    expect(verify(delivery.raw, resign(delivery.raw, now - 301), SECRET)).toBe(false);
    expect(verify(delivery.raw, resign(delivery.raw, now + 301), SECRET)).toBe(false);
  });
});
