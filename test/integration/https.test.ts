// HTTPS (docs/decisions.md#d41-http-and-https): the generated certificate, trusting it, --require-https, a given pair.
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { TlsConfigError } from '../../src/http/tls.js';
import { packagePath } from '../../src/paths.js';
import { DEFAULT_CLIENT, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

interface HttpsAnswer {
  status: number;
  body: any;
  fingerprint256: string;
}

function httpsPost(url: string, p: string, body: unknown, ca?: string): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url + p,
      { method: 'POST', headers: { 'content-type': 'application/json' }, ...(ca ? { ca } : {}) },
      (res) => {
        const fingerprint256 = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, fingerprint256 });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const tokenBody = { grant_type: 'client_credentials', ...DEFAULT_CLIENT };

/** The shipped command (dist/bin), run as a child process with a clean PIX_SANDBOX_* environment. */
function runCommand(args: string[], extraEnv: Record<string, string> = {}) {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_'))), ...extraEnv };
  const proc = spawn(process.execPath, [packagePath('dist', 'bin', 'pix-sandbox.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return {
    proc,
    exited,
    out: () => out,
    /** until the output matches (or the process ends, or 15 s pass) */
    async waitFor(re: RegExp) {
      const deadline = Date.now() + 15_000;
      while (!re.test(out) && proc.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    kill: () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    },
  };
}
const httpsUrl = (sb: TestSandbox) => sb.running.listeners.find((l) => l.url.startsWith('https:'))!.url;

let open: TestSandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.stop()));
  open = [];
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function start(overrides: Parameters<typeof startTestSandbox>[0]): Promise<TestSandbox> {
  const sb = await startTestSandbox(overrides);
  open.push(sb);
  return sb;
}

describe('HTTPS', () => {
  it('generates a certificate into the data folder, prints its path, and serves the API to a client that trusts it', async () => {
    const sb = await start({ file: true, httpsPort: 0 });
    const certPath = path.join(sb.dataDir!, 'cert.pem');
    expect(sb.running.notes?.some((n) => n.startsWith(`certificate: ${certPath}`))).toBe(true);
    expect(httpsUrl(sb)).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const cert = await readFile(certPath, 'utf8');
    const x = new X509Certificate(cert);
    expect(x.checkHost('localhost')).toBe('localhost');
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1');

    const res = await httpsPost(httpsUrl(sb), '/v1/oauth/token', tokenBody, cert);
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('bearer');
    expect(res.fingerprint256).toBe(x.fingerprint256);
  });

  it('fails with a certificate error when the client does not trust the certificate', async () => {
    const sb = await start({ file: true, httpsPort: 0 });
    await expect(httpsPost(httpsUrl(sb), '/v1/oauth/token', tokenBody)).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  });

  it('reuses the generated certificate on the next start with the same data folder', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-tls-test-'));
    dirs.push(dataDir);
    const first = await startTestSandbox({ file: true, dataDir, httpsPort: 0 });
    const pem = await readFile(path.join(dataDir, 'cert.pem'), 'utf8');
    await first.stop();
    const second = await start({ file: true, dataDir, httpsPort: 0 });
    expect(await readFile(path.join(dataDir, 'cert.pem'), 'utf8')).toBe(pem);
    expect(second.running.notes).toContain(`certificate: ${path.join(dataDir, 'cert.pem')}`); // no "(generated)": reused
    expect((await httpsPost(httpsUrl(second), '/v1/oauth/token', tokenBody, pem)).status).toBe(200);
  });

  it('an in-memory sandbox writes its certificate to a temp folder and removes it on stop', async () => {
    const sb = await startTestSandbox({ httpsPort: 0 });
    const note = sb.running.notes!.find((n) => n.startsWith('certificate: '))!;
    const certPath = note.slice('certificate: '.length).split(' ')[0]!;
    expect(certPath.startsWith(os.tmpdir())).toBe(true);
    expect((await httpsPost(httpsUrl(sb), '/v1/oauth/token', tokenBody, await readFile(certPath, 'utf8'))).status).toBe(200);
    await sb.stop();
    expect(existsSync(certPath)).toBe(false);
  });

  it('with requireHttps, plain HTTP API calls answer 403 HTTPS_REQUIRED while HTTPS works and health stays reachable', async () => {
    const sb = await start({ file: true, httpsPort: 0, requireHttps: true });
    const plain = await sb.request('POST', '/v1/oauth/token', { body: tokenBody });
    expect(plain.status).toBe(403);
    expect(plain.body).toMatchObject({ statusCode: 403, error: { code: 'HTTPS_REQUIRED', details: [] } });
    expect(plain.body.message).toContain(httpsUrl(sb));
    expect((await sb.request('GET', '/v1/banking/balance')).body.error.code).toBe('HTTPS_REQUIRED');
    expect((await sb.request('GET', '/_sandbox/health')).status).toBe(200);
    const cert = await readFile(path.join(sb.dataDir!, 'cert.pem'), 'utf8');
    expect((await httpsPost(httpsUrl(sb), '/v1/oauth/token', tokenBody, cert)).status).toBe(200);
  });

  it('uses a given certificate and key, and refuses a key that does not match', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-given-'));
    dirs.push(dir);
    const attrs = [{ name: 'commonName', value: 'given.example' }];
    const ext = [{ name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }] }];
    const a = await generate(attrs, { algorithm: 'sha256', extensions: ext });
    const b = await generate(attrs, { algorithm: 'sha256', extensions: ext });
    await writeFile(path.join(dir, 'cert.pem'), a.cert);
    await writeFile(path.join(dir, 'key.pem'), a.private);
    await writeFile(path.join(dir, 'other-key.pem'), b.private);
    const tlsCert = path.join(dir, 'cert.pem');

    const sb = await start({ httpsPort: 0, tlsCert, tlsKey: path.join(dir, 'key.pem') });
    expect(sb.running.notes).toContain(`certificate: ${tlsCert}`);
    const res = await httpsPost(httpsUrl(sb), '/v1/oauth/token', tokenBody, a.cert);
    expect(res.status).toBe(200);
    expect(res.fingerprint256).toBe(new X509Certificate(a.cert).fingerprint256);

    await expect(startTestSandbox({ httpsPort: 0, tlsCert, tlsKey: path.join(dir, 'other-key.pem') })).rejects.toBeInstanceOf(
      TlsConfigError,
    );
    await expect(startTestSandbox({ httpsPort: 0, tlsCert })).rejects.toThrow(/together/);
  });

  it('the shipped command (the bundle) starts in memory with a generated ECDSA certificate that a trusting client accepts', async () => {
    const cmd = runCommand(['serve', '--memory', '--port', '0', '--https-port', '0']);
    try {
      await cmd.waitFor(/certificate: (\S+)/);
      const url = /listening on (https:\/\/\S+)/.exec(cmd.out())?.[1];
      const certPath = /certificate: (\S+)/.exec(cmd.out())?.[1];
      expect(url, cmd.out()).toBeDefined();
      const cert = await readFile(certPath!, 'utf8');
      const x = new X509Certificate(cert);
      expect(x.publicKey.asymmetricKeyType).toBe('ec');
      expect(x.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
      const res = await httpsPost(url!, '/v1/oauth/token', tokenBody, cert);
      expect(res.status).toBe(200);
      expect(res.fingerprint256).toBe(x.fingerprint256);
      cmd.proc.kill('SIGTERM');
      expect(await cmd.exited).toBe(0);
      expect(existsSync(certPath!)).toBe(false); // an in-memory run leaves nothing behind
    } finally {
      cmd.kill();
    }
  });

  it('the shipped command delivers webhooks to an https:// receiver it trusts (NODE_EXTRA_CA_CERTS)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-rx-'));
    dirs.push(dir);
    const pair = await generate([{ name: 'commonName', value: 'receiver' }], {
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName' as const, altNames: [{ type: 7 as const, ip: '127.0.0.1' }] }],
    });
    const caFile = path.join(dir, 'receiver.pem');
    await writeFile(caFile, pair.cert);
    const received: { type: string; data: { transactionId: string } }[] = [];
    const rx = https.createServer({ cert: pair.cert, key: pair.private }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.end('ok');
      });
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', () => r()));
    const rxUrl = `https://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;
    const cmd = runCommand(['serve', '--memory', '--port', '0', '--https-port', 'off', '--webhook-url', rxUrl], {
      NODE_EXTRA_CA_CERTS: caFile,
    });
    try {
      await cmd.waitFor(/listening on (http:\/\/\S+)/);
      const url = /listening on (http:\/\/\S+)/.exec(cmd.out())![1]!;
      const token = (await (
        await fetch(`${url}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(tokenBody),
        })
      ).json()) as { access_token: string };
      const charge = await fetch(`${url}/v1/banking/cash-in/pix`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({ amount: 1234, description: 'https webhook', customer: { name: 'Maria Silva', document: '52998224725' } }),
      });
      expect(charge.status).toBe(201);
      const { transactionId } = (await charge.json()) as { transactionId: string };
      const deadline = Date.now() + 15_000;
      while (!received.some((e) => e.data.transactionId === transactionId) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(received.find((e) => e.data.transactionId === transactionId)?.type, cmd.out()).toBe('cashin.created');
    } finally {
      cmd.kill();
      await new Promise<void>((r) => rx.close(() => r()));
    }
  });
});
