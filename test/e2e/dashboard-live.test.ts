// The dashboard is pushed, not polled (issue 21), in a real browser against a sandbox holding many
// transactions: while nothing happens the page sends no request at all (its one change stream stays
// open), and a charge paid through the API shows up in the open view within a second.
// Knobs: PIX_DASHBOARD_TRANSACTIONS (stored transactions, default 10,000; the figure is
// 100,000: about 25 s more to write and load here), PIX_DASHBOARD_IDLE_SECONDS (the quiet window,
// default 30), PIX_DASHBOARD_PUSH_MS (how soon a payment must show, default 1000).
// The store is written as the bench writes it (bench/lib/seed-db.mjs, from the built dist/: npm run build).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { launchBrowser, VIEWPORT } from '../helpers/browser.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const SIZE = Number(process.env.PIX_DASHBOARD_TRANSACTIONS ?? 10_000);
const IDLE_MS = Number(process.env.PIX_DASHBOARD_IDLE_SECONDS ?? 30) * 1000;
const PUSH_MS = Number(process.env.PIX_DASHBOARD_PUSH_MS ?? 1000);
const STREAM = '/_sandbox/changes';

interface SeedDb {
  defaultSecretHash(): Promise<string>;
  writeSeededDb(dir: string, n: number, opts: Record<string, unknown>, sample?: number): Promise<{ file: string }>;
}

describe(`the dashboard with ${SIZE} transactions stored`, { timeout: 120_000 + IDLE_MS }, () => {
  let dataDir: string;
  let sb: TestSandbox;
  let browser: Browser;
  let page: Page;
  let token: string;
  /** every request the page made, and the streams that ended */
  const requests: string[] = [];
  const streamsEnded: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(packagePath('dist/src/store/snapshot.js')))
      throw new Error('dist/ is missing: npm run build (the store is seeded with it)');
    const seedDb = (await import(packagePath('bench/lib/seed-db.mjs'))) as SeedDb;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-dashboard-live-'));
    // spread over the last 0.9 days up to 10 min ago: nothing falls due (no expiry, no settlement) while the test runs
    await seedDb.writeSeededDb(dataDir, SIZE, { secretHash: await seedDb.defaultSecretHash(), days: 0.9, nowMs: Date.now() - 600_000 }, 1);
    [sb, browser] = await Promise.all([startTestSandbox({ file: true, dataDir, tick: true }), launchBrowser()]);
    expect(sb.running.ctx.store.transactions.size).toBe(SIZE);
    token = await sb.token();
    page = await browser.newPage({ viewport: VIEWPORT });
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const ended = (r: { url(): string }) => r.url().includes(STREAM) && streamsEnded.push(r.url());
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${sb.url}/_sandbox/ui`);
  });

  afterAll(async () => {
    await browser?.close();
    await sb?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const row = (text: string) => page.locator('#tx-rows tr', { hasText: text });

  it('says it is loading until its first data, then shows the newest page', async () => {
    // the lists not shown yet still say so (an empty table would read as "no data")
    expect(await page.locator('#webhook-fault-rows tr.placeholder').textContent()).toBe('Loading…');
    await page.locator('#tx-count', { hasText: 'Showing the newest 200 transactions.' }).waitFor();
    expect(await page.locator('#tx-rows tr').count()).toBe(200);
    expect(await page.locator('#tx-rows tr.placeholder').count()).toBe(0);
    await page.locator('#conn', { hasText: 'live' }).waitFor();
  });

  it(`makes no request for ${IDLE_MS / 1000} s while nothing happens, its one change stream open all along`, async () => {
    const before = requests.length;
    expect(requests.filter((p) => p === STREAM)).toHaveLength(1);
    expect(sb.running.ctx.changeFeed?.size).toBe(1);
    const clock = await page.locator('#clock-now').textContent();
    await page.waitForTimeout(IDLE_MS); // the window being measured: the page alone, the sandbox ticking
    expect(requests.slice(before)).toEqual([]);
    expect(streamsEnded).toEqual([]);
    expect(sb.running.ctx.changeFeed?.size).toBe(1);
    // the clock kept running in the page without asking
    expect(await page.locator('#clock-now').textContent()).not.toBe(clock);
  });

  it(`shows a charge paid through the API in the open view within ${PUSH_MS} ms`, async () => {
    const created = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount: 4321, description: 'Live charge', customer: { name: 'Maria Silva', document: '52998224725' } },
    });
    expect(created.status).toBe(201);
    const id = created.body.transactionId as string;
    await row('Live charge').waitFor();
    await row('Live charge')
      .getByRole('button', { name: /^Details/ })
      .click();
    await page.locator('#tx-detail', { hasText: 'WAITING_PAYMENT' }).waitFor();

    const paid = await sb.request('POST', `/_sandbox/charges/${id}/pay`, { body: {} });
    expect(paid.status).toBe(200);
    const answeredAt = Date.now();
    await page.waitForFunction(
      (short) => {
        const tr = [...document.querySelectorAll('#tx-rows tr')].find((r) => r.textContent?.includes(short));
        return tr?.textContent?.includes('PAID') && document.querySelector('#tx-detail .tx-head')?.textContent?.includes('PAID');
      },
      id.slice(0, 8),
      { timeout: PUSH_MS, polling: 10 },
    );
    const delay = Date.now() - answeredAt;
    console.log(`dashboard-live: ${SIZE} transactions stored; the paid charge showed ${delay} ms after the API answered`);
    expect(delay).toBeLessThanOrEqual(PUSH_MS);
    expect(requests.filter((p) => p === STREAM)).toHaveLength(1); // still the first stream
    expect(pageErrors).toEqual([]);
  });

  it('lets go of its stream while hidden, and listens and reads again when shown', async () => {
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { value: h, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    const until = async (what: string, fn: () => boolean) => {
      for (const end = Date.now() + 5000; !fn(); await new Promise((r) => setTimeout(r, 20)))
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    };
    await until('the server to let go of the stream', () => sb.running.ctx.changeFeed?.size === 0);
    const before = requests.length;
    await setHidden(false);
    await until('a new stream', () => sb.running.ctx.changeFeed?.size === 1);
    await page.locator('#conn', { hasText: 'live' }).waitFor();
    expect(requests.slice(before)).toContain(STREAM);
    expect(requests.slice(before)).toContain('/_sandbox/transactions'); // the view read again
    expect(pageErrors).toEqual([]);
  });
});
