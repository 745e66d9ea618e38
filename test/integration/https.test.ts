// HTTPS (docs/decisions.md#d41-http-and-https): the generated certificate, trusting it, --require-https, a given pair.
// The shipped command's HTTPS, in a child process, is test/e2e/https-command.test.ts.
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { TlsConfigError } from '../../src/http/tls.js';
import { httpsPost, TOKEN_BODY as tokenBody } from '../helpers/https-client.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

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
});
