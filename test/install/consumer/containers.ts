// The Testcontainers module as an app's test suite uses it: the image, fixtures of its own, an admin
// token, webhooks to a server of the test run on 127.0.0.1. Type-checked with skipLibCheck: false,
// then run against the engine DOCKER_HOST names (podman's Docker-compatible API in CI).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { PixSandboxContainer, type StartedPixSandboxContainer } from 'pix-sandbox/testcontainers';

const image = process.env.PIX_SANDBOX_IMAGE;
if (!image) throw new Error('set PIX_SANDBOX_IMAGE to the image to test');

const received: { type: string; data: { transactionId: string } }[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    received.push(JSON.parse(body) as (typeof received)[number]);
    res.end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
const receiverPort = (receiver.address() as AddressInfo).port;

// the shipped default fixtures, with credentials of this app's own
const fixtures = JSON.parse(readFileSync('node_modules/pix-sandbox/fixtures/default.json', 'utf8')) as {
  accounts: { client_id: string; client_secret: string }[];
};
fixtures.accounts[0]!.client_id = 'install-client';
fixtures.accounts[0]!.client_secret = 'install-secret';

async function call(sb: StartedPixSandboxContainer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(sb.getBaseUrl() + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const started = Date.now();
const sandbox = await new PixSandboxContainer(image)
  // these VMs need explicit limits on every container (see docs/install.md)
  .withUlimits({ nofile: { soft: 1024, hard: 20000 }, nproc: { soft: 1024, hard: 1024 } })
  .withFixtures(fixtures)
  .withAdminToken('install-admin')
  .withWebhookUrl(`http://localhost:${receiverPort}/hooks`)
  .start();
const startMs = Date.now() - started;
try {
  const token = await call(sandbox, 'POST', '/v1/oauth/token', { grant_type: 'client_credentials', ...sandbox.getCredentials() });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${JSON.stringify(token.body)}`);
  const auth = { authorization: `Bearer ${String(token.body.access_token)}` };
  const charge = await call(
    sandbox,
    'POST',
    '/v1/banking/cash-in/pix',
    { amount: 1500, description: 'install test', customer: { name: 'Maria Silva', document: '52998224725' } },
    auth,
  );
  if (charge.status !== 201) throw new Error(`charge: ${charge.status} ${JSON.stringify(charge.body)}`);
  const transactionId = String(charge.body.transactionId);
  const deadline = Date.now() + 15_000;
  while (!received.some((e) => e.data.transactionId === transactionId) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  const webhook = received.find((e) => e.data.transactionId === transactionId)?.type ?? null;
  const controlWithout = (await call(sandbox, 'GET', '/_sandbox/clock')).status;
  const controlWith = (await call(sandbox, 'GET', '/_sandbox/clock', undefined, { 'x-sandbox-admin-token': sandbox.getAdminToken()! }))
    .status;
  const ca = await sandbox.getCertificate();
  const httpsStatus = await new Promise<number>((resolve, reject) =>
    https
      .get(`${sandbox.getHttpsUrl()}/_sandbox/health`, { ca }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject),
  );
  console.log(
    JSON.stringify({
      credentials: sandbox.getCredentials().client_id,
      webhookUrl: sandbox.getWebhookUrl(),
      webhook,
      controlWithout,
      controlWith,
      httpsStatus,
      startMs,
    }),
  );
} finally {
  await sandbox.stop();
  receiver.close();
}
