// Every finding of the hardening audit (issue 22), driven through the real server and shown fixed: a
// webhook URL that spun the dispatcher, web pages that drove the control API (a form post, a no-cors
// fetch in Chromium, a DNS-rebinding Host), webhook targets as a port scanner, an empty admin token,
// immortal and revived tokens, clocks past year 9999, `limit=1e400`, image bombs and unbounded decoding.
// Each refusal is checked to change nothing. Memory figures are printed, not asserted beyond a bound
// far above what a bounded sandbox takes (the bench measures).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/index.js';
import { Store } from '../../src/store/store.js';
import { launchBrowser } from '../helpers/browser.js';
import { balance, createCharge, createTransfer, errorShape } from '../helpers/control.js';
import { greyPng, pngDataUrl, qrInPng } from '../helpers/images.js';
import { DEFAULT_ACCOUNT_ID, DEFAULT_CLIENT, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { BIN, ensureBuilt, ROOT, spawnSandbox } from '../helpers/torture.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const until = async <T>(
  what: string,
  fn: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 20_000,
): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** One request with the exact headers given (Host included): what a browser or a rebinding page sends. */
function rawRequest(
  url: string,
  method: string,
  p: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: p, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs the built command to its end: exit code and everything it printed. */
function runToExit(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_')));
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** CPU seconds a process has used (user + system), from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks (USER_HZ, 100 on Linux)
}

const MB = 1024 * 1024;
const rssMb = () => Math.round(process.memoryUsage().rss / MB);

describe('hostile findings, fixed', { timeout: 120_000 }, () => {
  beforeAll(() => ensureBuilt());

  describe('a webhook URL no endpoint may have', () => {
    let sb: TestSandbox;
    beforeAll(async () => {
      sb = await startTestSandbox();
    });
    afterAll(() => sb.stop());

    it('is refused by every way an endpoint is made, naming the field, and changes nothing', async () => {
      const before = (await sb.request('GET', '/_sandbox/webhooks')).body;
      for (const url of ['ftp://127.0.0.1/hook', 'file:///etc/passwd', 'http://127.0.0.1:0/hook', 'gopher://127.0.0.1:70/x']) {
        const r = await sb.request('POST', '/_sandbox/webhooks', { body: { url } });
        expect([r.status, errorShape(r).error.details.map((d) => d.path)], url).toEqual([400, ['/url']]);
      }
      // inline fixtures: the same rule, pointed into the set
      const fixtures = {
        accounts: [{ id: DEFAULT_ACCOUNT_ID, name: 'A', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }],
        webhooks: [{ url: 'http://127.0.0.1:9/ok' }, { url: 'ftp://127.0.0.1/hook' }],
      };
      const reset = await sb.request('POST', '/_sandbox/reset', { body: { fixtures } });
      expect(reset.status).toBe(400);
      expect(errorShape(reset).error.details).toContainEqual({ path: '/fixtures/webhooks/1/url', message: expect.stringMatching(/http/) });
      expect((await sb.request('GET', '/_sandbox/webhooks')).body).toEqual(before);
    });

    it('is refused at start-up from --webhook-url or its variable, and from a fixture file: exit 2 naming it', async () => {
      const flag = await runToExit(['serve', '--memory', '--port', '0', '--https-port', 'off', '--webhook-url', 'ftp://127.0.0.1/hook']);
      expect(flag.code).toBe(2);
      expect(flag.out).toMatch(/--webhook-url \(PIX_SANDBOX_WEBHOOK_URL\) must be an http:\/\/ or https:\/\/ URL/);
      const env = await runToExit(['serve', '--memory', '--port', '0', '--https-port', 'off'], {
        PIX_SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:99999/',
      });
      expect(env.code).toBe(2);
      expect(env.out).toMatch(/--webhook-url \(PIX_SANDBOX_WEBHOOK_URL\) must be an absolute http/);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'pix-hostile-fixtures-'));
      try {
        const file = path.join(dir, 'fixtures.json');
        const { writeFile } = await import('node:fs/promises');
        await writeFile(
          file,
          JSON.stringify({
            accounts: [{ id: DEFAULT_ACCOUNT_ID, name: 'A', client_id: 'a', client_secret: 'sandbox-secret' }],
            webhooks: [{ url: 'javascript:alert(1)' }],
          }),
        );
        const fixtureFile = await runToExit(['serve', '--memory', '--port', '0', '--https-port', 'off', '--fixtures', file]);
        expect(fixtureFile.code).toBe(2);
        expect(fixtureFile.out).toMatch(/fixtures file .*webhooks\.0\.url must be an http:\/\/ or https:\/\/ URL/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('an endpoint an older version let in ends in recorded failed attempts on the retry schedule, the log and the CPU idle after', async () => {
      // the data file of an earlier version whose inline fixtures took any scheme: the endpoint is in it
      const dir = await mkdtemp(path.join(os.tmpdir(), 'pix-hostile-scheme-'));
      const child = await (async () => {
        const seeded = await startSandbox({ dataDir: dir, tick: false });
        await seeded.stop();
        const store = await Store.open({ file: path.join(dir, 'db.json'), fsync: false, now: () => new Date().toISOString() });
        await store.commit((tx) =>
          tx.put('webhookEndpoints', {
            id: '11111111-1111-4111-8111-111111111111',
            accountId: DEFAULT_ACCOUNT_ID,
            url: 'ftp://127.0.0.1/hook',
            events: null,
            secret: 'whsec_old_version_secret',
            source: 'api',
            createdAt: new Date().toISOString(),
          }),
        );
        await store.close();
        return spawnSandbox(['--port', '0', '--https-port', 'off', '--data-dir', dir, '--webhook-retry', '1,1,1']);
      })();
      try {
        const token = await fetch(`${child.url}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(DEFAULT_CLIENT),
        }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
        const created = await fetch(`${child.url}/v1/banking/cash-in/pix`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ amount: 100, description: 'loop', customer: { name: 'Ana', document: '52998224725' } }),
        });
        expect(created.status).toBe(201);
        const deliveries = async () =>
          (await (await fetch(`${child.url}/_sandbox/webhooks/deliveries?endpointId=11111111-1111-4111-8111-111111111111`)).json()) as {
            status: string;
            attempts: { statusCode: number | null; error: string | null }[];
          }[];
        const [dead] = await until('the delivery to die', async () => {
          const list = await deliveries();
          return list.length === 1 && list[0]!.status === 'DEAD' ? list : null;
        });
        // the first attempt and one per entry of the schedule, each recorded as failed
        expect(dead!.attempts).toHaveLength(4);
        for (const a of dead!.attempts) expect(a).toMatchObject({ statusCode: null, error: expect.stringMatching(/^invalid URL: /) });
        const logBytes = child.output().length;
        const cpuBefore = await cpuSeconds(child.child.pid!);
        await new Promise((r) => setTimeout(r, 3000));
        const cpuAfter = await cpuSeconds(child.child.pid!);
        expect((await deliveries())[0]!.attempts).toHaveLength(4); // nothing more
        // the hot loop wrote ~11 MB/s of log and spun a core; now three idle seconds add nothing to either
        expect(child.output().length - logBytes).toBe(0);
        expect(child.output().length).toBeLessThan(4096);
        expect(cpuAfter - cpuBefore).toBeLessThan(1);
        console.log(
          `scheme loop: 4 failed attempts then DEAD; ${child.output().length} bytes of log; ${(cpuAfter - cpuBefore).toFixed(2)} s CPU over 3 idle s`,
        );
      } finally {
        child.child.kill('SIGTERM');
        await child.exited;
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
  describe('web pages and foreign hosts', () => {
    let sb: TestSandbox;
    let port: number;
    let browser: Browser;
    let attacker: http.Server;
    let attackerUrl: string;
    /** what the control API shows: a refused request must leave all of it as it was */
    const state = async () => ({
      accounts: (await sb.request('GET', '/_sandbox/accounts')).body,
      clocks: (await sb.request('GET', `/_sandbox/clock?accountId=${DEFAULT_ACCOUNT_ID}`)).body.frozen,
      transactions: (await sb.request('GET', '/_sandbox/transactions')).body.length,
      endpoints: (await sb.request('GET', '/_sandbox/webhooks')).body.length,
    });

    beforeAll(async () => {
      sb = await startTestSandbox({ allowedHosts: ['sandbox.ci.example', '*.corp.example'] });
      port = Number(new URL(sb.url).port);
      await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Kept tenant' } });
      await sb.request('POST', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.1:9/hook' } });
      await createCharge(sb, await sb.token(), 700);
      // another site: its page is served from localhost (another origin, another site than 127.0.0.1)
      attacker = http.createServer((req, res) => {
        const target = `http://127.0.0.1:${port}`;
        const pages: Record<string, string> = {
          '/fetch': `<script>
            const go = (p, init) => fetch('${target}' + p, { mode: 'no-cors', method: 'POST', ...init }).catch(() => null);
            Promise.all([
              go('/_sandbox/reset'),
              go('/_sandbox/clock/freeze'),
              go('/_sandbox/accounts', { headers: { 'content-type': 'text/plain' }, body: '{"name":"evil"}' }),
              fetch('${target}/_sandbox/webhooks').then((r) => r.text()).catch((e) => 'blocked: ' + e),
            ]).then((r) => { document.title = 'done'; window.leaked = r[3]; });
          </script>`,
          '/form': `<form id="f" method="POST" action="${target}/_sandbox/reset"><input name="fixtures" value="minimal"></form>
            <script>document.getElementById('f').submit();</script>`,
          '/text-form': `<form id="f" method="POST" enctype="text/plain" action="${target}/_sandbox/clock/freeze"><input name='{"a":"' value='"}'></form>
            <script>document.getElementById('f').submit();</script>`,
        };
        res.writeHead(200, { 'content-type': 'text/html' }).end(pages[req.url ?? ''] ?? 'nothing');
      });
      await new Promise<void>((r) => attacker.listen(0, '127.0.0.1', r));
      attackerUrl = `http://localhost:${(attacker.address() as AddressInfo).port}`;
      browser = await launchBrowser([`--host-resolver-rules=MAP rebind.example 127.0.0.1`]);
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise<void>((r) => attacker?.close(() => r()));
      await sb?.stop();
    });

    it('a cross-site form post, bare or with every header a browser adds, is refused and changes nothing', async () => {
      const before = await state();
      const form = 'fixtures=minimal';
      const cases: [Record<string, string>, number][] = [
        [{ host: `127.0.0.1:${port}`, 'content-type': 'application/x-www-form-urlencoded' }, 415],
        [{ host: `127.0.0.1:${port}`, 'content-type': 'text/plain' }, 415],
        [{ host: `127.0.0.1:${port}`, 'content-type': 'multipart/form-data; boundary=x' }, 415],
        [{ host: `127.0.0.1:${port}`, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, 403],
        [{ host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, 403],
        [{ host: `127.0.0.1:${port}`, origin: 'null', 'content-type': 'application/json' }, 403],
        [{ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port + 1}` }, 403],
      ];
      for (const [headers, status] of cases) {
        for (const p of [
          '/_sandbox/reset',
          '/_sandbox/clock/freeze',
          `/_sandbox/charges/${'0'.repeat(8)}-0000-4000-8000-000000000000/pay`,
        ]) {
          const withBody = headers['content-type'] && !headers['content-type'].includes('json') ? form : undefined;
          const r = await rawRequest(sb.url, 'POST', p, headers, withBody);
          expect([r.status, errorShape(r).error.code], `${p} ${JSON.stringify(headers)}`).toEqual([
            status,
            status === 403 ? 'FORBIDDEN' : 'UNSUPPORTED_MEDIA_TYPE',
          ]);
        }
      }
      // an empty body under a form's type is refused too: what a page can send without asking first
      const empty = await rawRequest(sb.url, 'POST', '/_sandbox/clock/freeze', {
        host: `127.0.0.1:${port}`,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '0',
      });
      expect(empty.status).toBe(415);
      expect(await state()).toEqual(before);
    });

    it('a request with neither body nor content type still works, and the sandbox’s own origin and JSON pass', async () => {
      const plain = await rawRequest(sb.url, 'POST', '/_sandbox/clock/freeze', { host: `127.0.0.1:${port}` });
      expect(plain.status).toBe(200);
      const own = await rawRequest(
        sb.url,
        'POST',
        '/_sandbox/clock/unfreeze',
        {
          host: `localhost:${port}`,
          origin: `http://localhost:${port}`,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/json',
        },
        '{}',
      );
      expect(own.status).toBe(200);
      // behind a proxy that ends TLS the page's origin is https: the proxy says so, a page cannot
      const proxied = { host: 'sandbox.ci.example', origin: 'https://sandbox.ci.example', 'content-type': 'application/json' };
      expect((await rawRequest(sb.url, 'POST', '/_sandbox/clock/unfreeze', proxied, '{}')).status).toBe(403);
      expect(
        (await rawRequest(sb.url, 'POST', '/_sandbox/clock/unfreeze', { ...proxied, 'x-forwarded-proto': 'https' }, '{}')).status,
      ).toBe(200);
      expect((await sb.request('GET', '/_sandbox/clock')).status).toBe(200);
    });

    it('a foreign Host (a DNS-rebinding page) is refused on reads and writes; IPs, localhost, one-label names and --allowed-hosts are answered', async () => {
      const before = await state();
      for (const host of ['evil.example', `rebind.attacker.example:${port}`, 'sandbox.ci.example.evil.example', 'corp.example']) {
        for (const [method, p] of [
          ['GET', '/_sandbox/webhooks'],
          ['GET', '/_sandbox/ui'],
          ['POST', '/_sandbox/reset'],
        ] as const) {
          const r = await sb.request(method, p, { headers: { host } });
          expect([r.status, errorShape(r).error.code], `${method} ${p} Host: ${host}`).toEqual([403, 'FORBIDDEN']);
          expect(r.text).not.toMatch(/whsec_/);
        }
      }
      expect(await state()).toEqual(before);
      for (const host of [
        `127.0.0.1:${port}`,
        `[::1]:${port}`,
        `localhost:${port}`,
        `app.localhost:${port}`,
        `pix-sandbox:${port}`,
        'pix_sandbox',
        'sandbox.ci.example',
        'a.b.corp.example',
      ]) {
        const r = await sb.request('GET', '/_sandbox/accounts', { headers: { host } });
        expect(r.status, host).toBe(200);
      }
      // health (probes) and the public API are not the control API's: any Host
      expect((await sb.request('GET', '/_sandbox/health', { headers: { host: 'evil.example' } })).status).toBe(200);
      expect((await sb.request('GET', '/v1/banking/balance', { headers: { host: 'evil.example' }, token: await sb.token() })).status).toBe(
        200,
      );
    });

    it('in Chromium, no-cors fetches and form posts from a page of another site are refused (403) and change nothing', async () => {
      const before = await state();
      const page = await browser.newPage();
      try {
        const seen: { url: string; status: number }[] = [];
        page.on('response', (r) => {
          if (r.url().startsWith(`http://127.0.0.1:${port}/`)) seen.push({ url: new URL(r.url()).pathname, status: r.status() });
        });
        await page.goto(`${attackerUrl}/fetch`);
        await page.waitForFunction(() => document.title === 'done');
        // the page could not read the list (no CORS), and the sandbox refused to answer it anyway
        expect(await page.evaluate(() => (window as unknown as { leaked: string }).leaked)).toMatch(/^blocked/);
        await until('three answers', () => seen.length >= 3 && seen);
        for (const p of ['/_sandbox/reset', '/_sandbox/clock/freeze', '/_sandbox/accounts'])
          expect(seen.find((s) => s.url === p)?.status, p).toBe(403);
        for (const form of ['/form', '/text-form']) {
          const answer = page.waitForResponse((r) => r.url().startsWith(`http://127.0.0.1:${port}/_sandbox/`));
          await page.goto(`${attackerUrl}${form}`);
          expect((await answer).status(), form).toBe(403);
        }
      } finally {
        await page.close();
      }
      expect(await state()).toEqual(before);
    });

    it('in Chromium, a DNS-rebinding name that leads to the sandbox gets 403 for the dashboard and the data, and the real address works', async () => {
      const page = await browser.newPage();
      try {
        const rebound = await page.goto(`http://rebind.example:${port}/_sandbox/ui`);
        expect(rebound?.status()).toBe(403);
        const read = await page.evaluate(async () => {
          const r = await fetch('/_sandbox/webhooks');
          return { status: r.status, text: await r.text() };
        });
        expect(read.status).toBe(403);
        expect(read.text).not.toMatch(/whsec_/);
        const own = await page.goto(`http://127.0.0.1:${port}/_sandbox/ui`);
        expect(own?.status()).toBe(200);
        // the dashboard's own calls (same origin, JSON) are answered
        const list = await page.evaluate(async () => (await fetch('/_sandbox/accounts')).status);
        expect(list).toBe(200);
      } finally {
        await page.close();
      }
    });
  });
  describe('webhook targets', () => {
    it('--webhook-hosts refuses a target as an unreachable one is refused: a failed attempt, no status, nothing sent', async () => {
      const rx = await startReceiver('/hook');
      const sb = await startTestSandbox({ webhookHosts: ['127.0.0.9', 'receivers.example'], webhookRetrySchedule: [30] });
      try {
        const target = (await sb.request('POST', '/_sandbox/webhooks', { body: { url: rx.url } })).body;
        const unreachable = (await sb.request('POST', '/_sandbox/webhooks', { body: { url: 'http://127.0.0.9:9/hook' } })).body;
        const named = (await sb.request('POST', '/_sandbox/webhooks', { body: { url: `http://localhost:${rx.port}/hook` } })).body;
        for (const ep of [target, named]) {
          const sent = await sb.request('POST', '/_sandbox/webhooks/send', { body: { endpointId: ep.id, body: { id: 'probe' } } });
          // the same answer an unreachable target gets: 200, no status, an error; never the target's own status
          expect(sent.status).toBe(200);
          expect(sent.body).toMatchObject({ statusCode: null, error: expect.stringMatching(/^unreachable: .* \(--webhook-hosts\)$/) });
        }
        // an allowed address where nothing listens: the same shape (the policy decides before any connection)
        const blackhole = await sb.request('POST', '/_sandbox/webhooks/send', {
          body: { endpointId: unreachable.id, body: { id: 'probe' } },
        });
        expect(blackhole.status).toBe(200);
        expect(Object.keys(blackhole.body).sort()).toEqual(['durationMs', 'error', 'statusCode']);
        expect(blackhole.body.statusCode).toBeNull();
        // deliveries: a failed attempt, on the retry schedule
        await createCharge(sb, await sb.token(), 300);
        const deliveries = await until('attempts of the refused endpoints', async () => {
          const list = (await sb.request('GET', '/_sandbox/webhooks/deliveries')).body as any[];
          const mine = list.filter((d) => d.endpointId === target.id || d.endpointId === named.id);
          return mine.length === 2 && mine.every((d) => d.attempts.length === 1) && mine;
        });
        for (const d of deliveries) {
          expect(d).toMatchObject({ status: 'PENDING', nextAttemptAt: expect.any(String) });
          expect(d.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/not among the hosts webhooks may reach/) });
        }
        expect(rx.received).toEqual([]);
      } finally {
        await sb.stop();
        await rx.close();
      }
    });

    it('a name is reached at the listed addresses it resolves to: localhost under 127.0.0.0/8', async () => {
      const rx = await startReceiver('/hook');
      const sb = await startTestSandbox({ webhookHosts: ['127.0.0.0/8'] });
      try {
        const ep = (await sb.request('POST', '/_sandbox/webhooks', { body: { url: `http://localhost:${rx.port}/hook` } })).body;
        const sent = await sb.request('POST', '/_sandbox/webhooks/send', { body: { endpointId: ep.id, body: { id: 'hello' } } });
        expect(sent.body).toMatchObject({ statusCode: 200, error: null });
        expect(rx.received).toHaveLength(1);
      } finally {
        await sb.stop();
        await rx.close();
      }
    });

    it('an unreadable --webhook-hosts or --allowed-hosts entry stops start-up, naming the setting and the entry', async () => {
      const hosts = await runToExit([
        'serve',
        '--memory',
        '--port',
        '0',
        '--https-port',
        'off',
        '--webhook-hosts',
        '10.0.0.0/33,ok.example',
      ]);
      expect(hosts.code).toBe(2);
      expect(hosts.out).toMatch(/--webhook-hosts \(PIX_SANDBOX_WEBHOOK_HOSTS\) cannot read "10\.0\.0\.0\/33"/);
      const allowed = await runToExit(['serve', '--memory', '--port', '0', '--https-port', 'off'], { PIX_SANDBOX_ALLOWED_HOSTS: 'a b,*' });
      expect(allowed.code).toBe(2);
      expect(allowed.out).toMatch(/--allowed-hosts \(PIX_SANDBOX_ALLOWED_HOSTS\) cannot read "a b", "\*"/);
    });
  });

  describe('the admin token', () => {
    it('an empty one refuses to start, from the flag or the variable (exit 2, naming it), and from startSandbox()', async () => {
      const flag = await runToExit(['serve', '--memory', '--port', '0', '--https-port', 'off', '--admin-token', '']);
      expect(flag.code).toBe(2);
      expect(flag.out).toMatch(/--admin-token \(PIX_SANDBOX_ADMIN_TOKEN\) is empty/);
      const env = await runToExit(['serve', '--memory', '--port', '0', '--https-port', 'off'], { PIX_SANDBOX_ADMIN_TOKEN: '' });
      expect(env.code).toBe(2);
      expect(env.out).toMatch(/--admin-token \(PIX_SANDBOX_ADMIN_TOKEN\) is empty/);
      expect(env.out).not.toMatch(/listening on/);
      await expect(startSandbox({ adminToken: '  ' })).rejects.toThrow(/--admin-token \(PIX_SANDBOX_ADMIN_TOKEN\) is empty/);
    });
  });

  describe('tokens', () => {
    let sb: TestSandbox;
    beforeAll(async () => {
      sb = await startTestSandbox();
    });
    afterAll(() => sb.stop());

    /** A token signed with the sandbox's own key (as one who read the data file could), with any claims. */
    const forged = (claims: Record<string, unknown>) => {
      const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'sandbox-client', acc: DEFAULT_ACCOUNT_ID, jti: 'x', ...claims })}`;
      return `${body}.${createHmac('sha256', sb.running.ctx.store.meta.signingSecret).update(body).digest('base64url')}`;
    };

    it('one signed with the key but without exp, living longer than 300 s, or issued in the future is INVALID_TOKEN', async () => {
      const real = jwt.decode(await sb.token()) as { iat: number; gen: number };
      const now = real.iat;
      for (const [what, claims] of [
        ['no exp', { iat: now, gen: real.gen }],
        ['exp a string', { iat: now, exp: String(now + 300), gen: real.gen }],
        ['a year long', { iat: now, exp: now + 365 * 86400, gen: real.gen }],
        ['301 s', { iat: now, exp: now + 301, gen: real.gen }],
        ['no iat', { exp: now + 300, gen: real.gen }],
        ['issued in a year', { iat: now + 365 * 86400, exp: now + 365 * 86400 + 300, gen: real.gen }],
        ['no generation', { iat: now, exp: now + 300 }],
      ] as const) {
        const r = await sb.request('GET', '/v1/banking/balance', { token: forged(claims) });
        expect([r.status, errorShape(r).error.code], what).toEqual([401, 'INVALID_TOKEN']);
      }
      // the same claims as the sandbox signs pass: the refusals above are the rule, not the forging
      const ok = await sb.request('GET', '/v1/banking/balance', { token: forged({ iat: now, exp: now + 300, gen: real.gen }) });
      expect(ok.status).toBe(200);
    });

    it("a revived id's old token is refused: a reset makes the same accounts and merchants again, with new generations", async () => {
      const token = await sb.token();
      const merchant = await sb.request('POST', '/v1/merchants', {
        token,
        body: { name: 'Loja', document: '52998224725', document_type: 'CPF', email: 'l@example.com', phone: '11987654321' },
      });
      const creds = merchant.body.data.credentials;
      const merchantToken = await sb.token(creds);
      // an inline set that makes the same account id and the same merchant id again
      const m = merchant.body.data.merchant;
      const fixtures = {
        accounts: [
          {
            id: DEFAULT_ACCOUNT_ID,
            name: 'Same id',
            client_id: 'sandbox-client',
            client_secret: 'sandbox-secret',
            merchants: [
              {
                id: m.id,
                walletId: merchant.body.data.wallet_id,
                name: 'Loja',
                document: '52998224725',
                document_type: 'CPF',
                email: 'l@example.com',
                phone: '11987654321',
                client_id: creds.client_id,
                client_secret: creds.client_secret,
              },
            ],
          },
        ],
      };
      expect((await sb.request('POST', '/_sandbox/reset', { body: { fixtures } })).status).toBe(200);
      for (const old of [token, merchantToken]) {
        const path = old === token ? '/v1/banking/balance' : '/v1/merchants/balance';
        const r = await sb.request('GET', path, { token: old });
        expect([r.status, errorShape(r).error.code]).toEqual([401, 'INVALID_TOKEN']);
        expect(r.body.message).toMatch(/issued before its client was made again/);
      }
      expect((await sb.request('GET', '/v1/merchants/balance', { token: await sb.token(creds) })).status).toBe(200);
      expect(await balance(sb, await sb.token())).toBe(0);
    });
  });
  describe('clocks near the end of time', () => {
    let sb: TestSandbox;
    beforeAll(async () => {
      sb = await startTestSandbox();
    });
    afterAll(() => sb.stop());

    it('a clock at or past 9999-01-01 is refused with 400 naming the field, by every way a clock is set or moved, changing nothing', async () => {
      const before = (await sb.request('GET', '/_sandbox/accounts')).body.length;
      for (const at of ['9999-12-31T00:00:00.000Z', '9999-01-01T00:00:00Z', '10000-01-01T00:00:00Z']) {
        const r = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Far', clock: { at, frozen: true } } });
        expect([r.status, errorShape(r).error.details.map((d) => d.path)], at).toEqual([400, ['/clock/at']]);
      }
      const reset = await sb.request('POST', '/_sandbox/reset', {
        body: {
          fixtures: {
            accounts: [
              { id: DEFAULT_ACCOUNT_ID, name: 'A', client_id: 'a', client_secret: 'sandbox-secret', clock: { at: '9999-06-01T00:00:00Z' } },
            ],
          },
        },
      });
      expect([reset.status, errorShape(reset).error.details.map((d) => d.path)]).toEqual([400, ['/fixtures/accounts/0/clock/at']]);
      expect((await sb.request('GET', '/_sandbox/accounts')).body).toHaveLength(before);

      const edge = await sb.request('POST', '/_sandbox/accounts', {
        body: { name: 'Edge', balance: 10_000, clock: { at: '9998-12-31T00:00:00.000Z', frozen: true } },
      });
      expect(edge.status).toBe(201);
      const id = edge.body.id as string;
      for (const [body, field] of [
        [{ accountId: id, seconds: 86_400 }, '/seconds'],
        [{ accountId: id, to: '9999-01-01T00:00:01.000Z' }, '/to'],
        [{ seconds: 86_400 }, '/seconds'], // every tenant: the one at the edge included
      ] as const) {
        const r = await sb.request('POST', '/_sandbox/clock/advance', { body });
        expect([r.status, errorShape(r).error.details.map((d) => d.path)], JSON.stringify(body)).toEqual([400, [field]]);
      }
      expect((await sb.request('GET', `/_sandbox/clock?accountId=${id}`)).body.now).toBe('9998-12-31T00:00:00.000Z');
      expect((await sb.request('GET', '/_sandbox/clock')).body.offsetSeconds).toBeLessThan(5);

      // just before the bound everything works: a 30-day charge paid, a transfer completed, their events
      const token = await sb.token({ client_id: edge.body.client_id, client_secret: edge.body.client_secret });
      const charge = await createCharge(sb, token, 500, { expiration: 2_592_000 });
      expect((await sb.request('POST', `/_sandbox/charges/${charge.transactionId}/pay`, { body: {} })).status).toBe(200);
      const transfer = await createTransfer(sb, token, 100);
      expect((await sb.request('POST', `/_sandbox/transfers/${transfer.transactionId}/complete`)).status).toBe(200);
      const advanced = await sb.request('POST', '/_sandbox/clock/advance', { body: { accountId: id, seconds: 86_000 } });
      expect(advanced.status).toBe(200);
      const events = (await sb.request('GET', `/_sandbox/transactions/${transfer.transactionId}`)).body;
      expect(events.status).toBe('COMPLETED');
    });
  });

  describe('query integers', () => {
    let sb: TestSandbox;
    beforeAll(async () => {
      sb = await startTestSandbox();
    });
    afterAll(() => sb.stop());

    it('1e400, Infinity, 1.0, +5, " 5", 0x10 are refused with 400 naming the parameter, on public and control lists alike', async () => {
      const token = await sb.token();
      const lists: [string, string][] = [
        ['/v1/merchants?limit=', 'limit'],
        ['/v1/merchants?page=', 'page'],
        ['/_sandbox/transactions?limit=', 'limit'],
        ['/_sandbox/accounts?after=', 'after'],
        ['/_sandbox/webhooks/deliveries?limit=', 'limit'],
        ['/_sandbox/requests?limit=', 'limit'],
      ];
      for (const [list, name] of lists)
        for (const value of ['1e400', 'Infinity', '1.0', '+5', '%205', '0x10', '-1', '1e2']) {
          // the public lists with the app's token, the control lists as the operator (a tenant's token may not list accounts)
          const r = await sb.request('GET', list + value, list.startsWith('/v1/') ? { token } : {});
          expect([r.status, errorShape(r).error.details.map((d) => d.path)], list + value).toEqual([400, [`/query/${name}`]]);
        }
      // digits are read as ever, leading zeros included
      expect((await sb.request('GET', '/v1/merchants?limit=005', { token })).body.meta ?? 'ok').toBeTruthy();
      expect((await sb.request('GET', '/_sandbox/transactions?limit=5')).status).toBe(200);
      // several problems at once, each named
      const both = await sb.request('GET', '/v1/merchants?limit=Infinity&page=1e400', { token });
      expect(
        errorShape(both)
          .error.details.map((d) => d.path)
          .sort(),
      ).toEqual(['/query/limit', '/query/page']);
    });
  });

  describe('images', () => {
    let sb: TestSandbox;
    let token: string;
    beforeAll(async () => {
      sb = await startTestSandbox();
      token = await sb.token();
    });
    afterAll(() => sb.stop());

    it('a 36-megapixel image (a PNG under 100 KB) is refused from its header before decoding: 400 naming the limit, no memory spent', async () => {
      const charge = await createCharge(sb, token, 900);
      const bomb = greyPng(6000, 6000);
      expect(bomb.length).toBeLessThan(100_000);
      global.gc?.();
      const before = rssMb();
      const r = await sb.request('POST', '/_sandbox/pix/pay', { body: { qrImage: pngDataUrl(bomb) } });
      const after = rssMb();
      expect([r.status, errorShape(r).error.code]).toEqual([400, 'VALIDATION_ERROR']);
      expect(r.body.message).toMatch(
        /6000×6000 pixels; images of at most 16 million pixels are read \(the limit is checked from the image's header, before decoding\)/,
      );
      expect(r.body.error.details).toEqual([{ path: '/qrImage', message: 'must have at most 16000000 pixels (16 million)' }]);
      // decoding it took +255 MB; refused from its header it takes nothing measurable
      expect(after - before).toBeLessThan(64);
      expect((await sb.request('GET', `/_sandbox/transactions/${charge.transactionId}`)).body.status).toBe('WAITING_PAYMENT');
      console.log(`36-megapixel PNG (${bomb.length} bytes) refused: RSS ${before} → ${after} MB`);
    });

    it('20 image payments at once: at most 2 decoded and 8 waiting, the rest 503 BUSY with Retry-After; sent again, all are paid; memory bounded', async () => {
      const charges = await Promise.all(Array.from({ length: 20 }, (_, i) => createCharge(sb, token, 1000 + i)));
      const images: string[] = [];
      for (const c of charges) {
        images.push(pngDataUrl(qrInPng(c.pixCode, 2400, 6)));
        await new Promise((r) => setImmediate(r)); // the sandbox shares this thread: let it close idle connections as due
      }
      global.gc?.();
      const base = rssMb();
      let peak = base;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 20);
      const statuses: number[] = [];
      try {
        const pay = async (qrImage: string): Promise<void> => {
          for (;;) {
            const r = await sb.request('POST', '/_sandbox/pix/pay', { body: { qrImage } });
            statuses.push(r.status);
            if (r.status !== 503) {
              expect(r.status, r.text).toBe(200);
              return;
            }
            expect(errorShape(r).error.code).toBe('BUSY');
            expect(r.headers.get('retry-after')).toBe('1');
            await new Promise((res) => setTimeout(res, Number(r.headers.get('retry-after')) * 1000));
          }
        };
        await Promise.all(images.map(pay));
      } finally {
        clearInterval(sampler);
      }
      const busy = statuses.filter((s) => s === 503).length;
      // 20 at once: 2 decoding and 8 waiting take 10 of them; the other 10 are told to come back
      expect(busy).toBeGreaterThanOrEqual(10);
      for (const c of charges) expect((await sb.request('GET', `/_sandbox/transactions/${c.transactionId}`)).body.status).toBe('PAID');
      console.log(
        `20 concurrent image payments (${images[0]!.length} bytes of data URL, 2400×2400 px each): ${statuses.length} requests, ${busy} answered 503; RSS ${base} MB before, ${peak} MB at peak (+${peak - base} MB)`,
      );
      // one decode of this size takes about 40 MB: 20 at once would be 800 MB; two at a time stay far below
      expect(peak - base).toBeLessThan(400);
    });
  });
});
