// The dashboard's Snapshots tab in a real browser (docs/dashboard.md): the tenant picked in the top
// bar scopes it (its snapshots, and what Save saves; "All": every snapshot and the whole sandbox);
// Save, Restore, Export (a downloaded fixtures file) and Delete reach the API; another client's save
// shows up without a reload (the change stream's "snapshots" topic).
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, VIEWPORT } from '../helpers/browser.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the Snapshots tab', { timeout: 60_000 }, () => {
  let sb: TestSandbox;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const announced = (text: string) => until(`“${text}”`, async () => (await page.locator('#announce').textContent())?.includes(text));
  const names = async () => (await page.locator('#snapshot-rows th').allTextContents()).sort();

  beforeAll(async () => {
    [sb, browser] = await Promise.all([startTestSandbox({ tick: true }), launchBrowser()]);
    page = await browser.newPage({ viewport: VIEWPORT, acceptDownloads: true });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${sb.url}/_sandbox/ui`);
  });
  afterAll(async () => {
    await browser?.close();
    await sb?.stop();
  });

  it('saves the picked tenant, restores it, exports it as a file and deletes it; All shows every snapshot', async () => {
    const other = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Other tenant' } });
    expect(other.status).toBe(201);
    await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'whole-from-api' } });
    await page.getByRole('tab', { name: 'Snapshots' }).click();
    await until('the whole-sandbox snapshot listed', async () => (await names()).includes('whole-from-api'));

    await page.getByLabel('Tenant whose clock is shown').selectOption(DEFAULT_ACCOUNT_ID);
    await until('the scope said', async () => (await page.locator('#snapshot-scope').textContent())?.includes('Sandbox default account'));
    await until('only the tenant’s snapshots', async () => (await names()).length === 0);
    await page.getByLabel('Name', { exact: true }).fill('from-page');
    await page.getByRole('button', { name: 'Save snapshot' }).click();
    await announced('Saved Sandbox default account as from-page');
    expect((await sb.request('GET', '/_sandbox/snapshots/from-page')).body.accountId).toBe(DEFAULT_ACCOUNT_ID);
    await until('the saved snapshot listed', async () => (await names()).includes('from-page'));

    // another client saves one of this tenant: it shows without a reload
    await sb.request('POST', '/_sandbox/snapshots', { body: { name: 'from-api', accountId: DEFAULT_ACCOUNT_ID } });
    await until('the other client’s snapshot listed', async () => (await names()).includes('from-api'));

    await sb.request('POST', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}/credit`, { body: { amount: 4_200 } });
    const before = (await sb.request('GET', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`)).body.balance as number;
    await page.getByRole('button', { name: 'Restore snapshot from-page' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await announced('is back as it was');
    expect((await sb.request('GET', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`)).body.balance).toBe(before - 4_200);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export snapshot from-page' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('from-page.fixtures.json');
    const doc = JSON.parse(await readFile(await download.path(), 'utf8'));
    expect(doc.accounts[0].id).toBe(DEFAULT_ACCOUNT_ID);

    await page.getByRole('button', { name: 'Delete snapshot from-api' }).click();
    await announced('Snapshot from-api deleted');
    await until('the deleted one gone', async () => !(await names()).includes('from-api'));
    expect((await sb.request('GET', '/_sandbox/snapshots/from-api')).status).toBe(404);

    await page.getByLabel('Tenant whose clock is shown').selectOption('');
    await until('every snapshot under All', async () => JSON.stringify(await names()) === JSON.stringify(['from-page', 'whole-from-api']));
    expect(pageErrors).toEqual([]);
  });
});
