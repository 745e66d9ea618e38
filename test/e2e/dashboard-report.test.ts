// The dashboard's Report tab (docs/dashboard.md) in Chromium: the integration report of the tenant picked
// in the top bar, each check with its outcome, detail, advice and evidence; it follows the pick, reads
// again when the tenant's requests change, and "Probe webhooks" runs the probe.
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CHECKS } from '../../src/domain/vocabulary.js';
import { packagePath } from '../../src/paths.js';
import { launchBrowser, VIEWPORT } from '../helpers/browser.js';
import { control } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

describe('the Report tab of the dashboard', { timeout: 60_000 }, () => {
  let sb: TestSandbox;
  let rx: Receiver;
  let browser: Browser;
  let page: Page;
  let account: { id: string; name: string; client_id: string; client_secret: string };
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [sb, browser, rx] = await Promise.all([startTestSandbox(), launchBrowser(), startReceiver()]);
    account = await control(sb, 'POST', '/_sandbox/accounts', { name: 'Report Loja', balance: 100_000 });
    await control(sb, 'POST', '/_sandbox/webhooks', { url: rx.url, accountId: account.id });
    const creds = { client_id: account.client_id, client_secret: account.client_secret };
    // a token per call
    const charge = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token: await sb.token(creds),
      body: { amount: 500, description: 'report tab', customer: { name: 'Ana', document: '52998224725' } },
    });
    await control(sb, 'POST', `/_sandbox/charges/${charge.body.transactionId}/pay`);
    await rx.waitFor(2);
    for (let i = 0; i < 3; i++) await sb.request('GET', '/v1/banking/balance', { token: await sb.token(creds) });
    page = await browser.newPage({ viewport: VIEWPORT });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${sb.url}/_sandbox/ui`);
  });
  afterAll(async () => {
    await browser?.close();
    await rx?.close();
    await sb?.stop();
  });

  const row = (id: string) => page.locator(`#report-rows tr[data-check="${id}"]`);

  it('asks for a tenant, then shows its checks; follows new requests; probes its receivers', async () => {
    await page.getByRole('tab', { name: 'Report' }).click();
    await expect.poll(() => page.locator('#report-summary').textContent()).toMatch(/^Pick a tenant/);
    await page.locator('#clock-account').selectOption(account.id);
    await row('token-reuse').waitFor();
    expect(await page.locator('#report-rows tr').count()).toBe(REPORT_CHECKS.length);
    expect(await row('token-reuse').getAttribute('data-outcome')).toBe('fail');
    expect(await row('token-reuse').textContent()).toMatch(/more than 3 tokens within 300 s.*Cache the access token/);
    expect(await row('webhook-signature').getAttribute('data-outcome')).toBe('not-exercised');
    expect(await page.locator('#report-summary').textContent()).toMatch(/^\d+ requests judged, .*: 1 fail, /);

    // a request with a body the API refuses: the tab hears of it (requests) and reads the report again
    await sb.request('POST', '/v1/banking/cash-in/pix', {
      token: await sb.token({ client_id: account.client_id, client_secret: account.client_secret }),
      body: { amount: -1 },
    });
    await expect.poll(() => row('validation-errors').getAttribute('data-outcome')).toBe('warn');

    await page.getByRole('button', { name: 'Probe webhooks' }).click();
    await expect.poll(() => row('webhook-signature').getAttribute('data-outcome')).toBe('fail');
    expect(rx.received.length).toBeGreaterThanOrEqual(5);
    await mkdir(packagePath('test-output'), { recursive: true });
    await page.screenshot({ path: packagePath('test-output', 'dashboard-report.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});
