// `pix-sandbox report` (docs/cli.md#report), the shipped command against an in-process sandbox: an app that
// fetches a token per call and a receiver that takes anything. The JUnit file is read with a JUnit-shaped
// XML reading (fast-xml-parser), one test case per check as a CI job shows them; the HTML page opens in
// Chromium with nothing fetched from anywhere, and its screenshot goes to test-output/.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CHECKS } from '../../src/domain/vocabulary.js';
import { packagePath } from '../../src/paths.js';
import { launchBrowser, VIEWPORT } from '../helpers/browser.js';
import { cli as run } from '../helpers/cli.js';
import { control } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let sb: TestSandbox;
let rx: Receiver;
let dir: string;
let accountId: string;

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startTestSandbox();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-report-'));
  const account = await control(sb, 'POST', '/_sandbox/accounts', { name: 'Loja & Cia', balance: 100_000 });
  accountId = account.id;
  const creds = { client_id: account.client_id, client_secret: account.client_secret };
  await control(sb, 'POST', '/_sandbox/webhooks', { url: rx.url, accountId });
  // a token per call: five tokens within a minute
  const call = async (method: string, p: string, body?: unknown) =>
    sb.request(method, p, { token: await sb.token(creds), ...(body ? { body } : {}) });
  const charge = await call('POST', '/v1/banking/cash-in/pix', {
    amount: 990,
    description: 'cli',
    customer: { name: 'Ana', document: '52998224725' },
  });
  await control(sb, 'POST', `/_sandbox/charges/${charge.body.transactionId}/pay`);
  await rx.waitFor(2);
  for (let i = 0; i < 3; i++) await call('GET', '/v1/banking/balance');
}, 60_000);
afterAll(async () => {
  await sb?.stop();
  await rx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => run([...args, '--base-url', sb.url], { timeoutMs: 60_000 });

describe('pix-sandbox report', { timeout: 120_000 }, () => {
  it('writes JUnit XML a CI job reads: one test case per check, fail as failure, warn with system-out, not-exercised skipped; exit 1', async () => {
    const out = path.join(dir, 'report.xml');
    const r = await cli('report', '--account', accountId, '--probe', '--format', 'junit', '--out', out);
    expect(r.code, r.stderr).toBe(1);
    const xml = await readFile(out, 'utf8');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', isArray: (name) => name === 'testcase' }).parse(xml);
    const suite = parsed.testsuites.testsuite;
    const cases: any[] = suite.testcase;
    expect(cases.map((c) => String(c['@name']).split(':')[0])).toEqual([...REPORT_CHECKS]);
    const of = (id: string) => cases.find((c) => String(c['@name']).startsWith(`${id}:`));
    // the app: a token per call; the receiver: anything goes
    expect(of('token-reuse').failure['@type']).toBe('token-reuse');
    expect(of('token-reuse').failure['#text']).toMatch(/evidence: \d+, \d+/);
    expect(of('webhook-signature').failure).toBeDefined();
    expect(of('plain-http').skipped).toBeDefined();
    expect(of('failure-coverage')['system-out']).toMatch(/^warn: \d+\/11 met; not met: /);
    expect(of('webhook-ack').failure ?? of('webhook-ack').skipped).toBeUndefined();
    const failures = cases.filter((c) => c.failure).length;
    const skipped = cases.filter((c) => c.skipped !== undefined).length;
    expect([Number(suite['@tests']), Number(suite['@failures']), Number(suite['@skipped'])]).toEqual([11, failures, skipped]);
  });

  it('writes one self-contained HTML page that opens in Chromium', async () => {
    const out = path.join(dir, 'report.html');
    expect((await cli('report', '--account', accountId, '--format', 'html', '--out', out)).code).toBe(1);
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: VIEWPORT });
      const fetched: string[] = [];
      page.on('request', (req) => fetched.push(req.url()));
      await page.goto(pathToFileURL(out).href);
      expect(fetched).toEqual([pathToFileURL(out).href]);
      await expect(page.locator('tbody tr').count()).resolves.toBe(REPORT_CHECKS.length);
      await expect(page.locator('tr.fail').count()).resolves.toBeGreaterThanOrEqual(2);
      expect(await page.locator('tr.fail').first().textContent()).toMatch(/token-reuse/);
      await mkdir(packagePath('test-output'), { recursive: true });
      await page.screenshot({ path: packagePath('test-output', 'integration-report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it('prints text and JSON, and names bad usage', async () => {
    const text = await cli('report', '--account', accountId);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^FAIL +token-reuse +Access tokens are reused/m);
    const json = await cli('report', '--account', accountId, '--format', 'json');
    expect(JSON.parse(json.stdout).checks.map((c: any) => c.id)).toEqual([...REPORT_CHECKS]);
    expect((await cli('report', '--format', 'pdf')).code).toBe(2);
    const missing = await cli('report', '--account', '00000000-0000-4000-8000-00000000abcd');
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/HTTP 404 NOT_FOUND/)]);
  });
});
