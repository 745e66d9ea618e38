// HTTPS from the shipped command (dist/bin) in a child process: its generated certificate, and
// webhooks to an https:// receiver it trusts. The in-process checks are test/integration/https.test.ts.
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { httpsPost, TOKEN_BODY as tokenBody } from '../helpers/https-client.js';

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
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('HTTPS from the shipped command', () => {
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
