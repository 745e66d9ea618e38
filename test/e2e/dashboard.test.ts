// The dashboard in a real browser (Debian's chromium driven by playwright-core) against a real
// sandbox whose clock ticks: what the API creates shows up, what the page does reaches the API,
// webhooks included, and the page can be driven with the keyboard alone.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, VIEWPORT } from '../helpers/browser.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const CPF_PAYER = '52998224725';
const CPF_RECEIVER = '11144477735';
/** Intl's pt-BR currency puts a no-break space after "R$"; compare with plain spaces. */
const plain = (s: string | null) => (s ?? '').replace(/\u00a0/g, ' ');

interface Hook {
  body: any;
  headers: http.IncomingHttpHeaders;
}

/** A webhook receiver on 127.0.0.1 that answers 200 and keeps what it got. */
async function startHookReceiver(): Promise<{ url: string; got: Hook[]; close: () => Promise<void> }> {
  const got: Hook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), headers: req.headers });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, got, close: () => new Promise((r) => server.close(() => r())) };
}

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 15_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// generous limits: `npm test` runs every file at once on 2 cores
describe('dashboard (GET /_sandbox/ui) in a real browser', { timeout: 60_000 }, () => {
  let sb: TestSandbox;
  let browser: Browser;
  let page: Page;
  let token: string;
  let hooks: Awaited<ReturnType<typeof startHookReceiver>>;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    [sb, browser, hooks] = await Promise.all([startTestSandbox({ tick: true }), launchBrowser(), startHookReceiver()]);
    token = await sb.token();
    page = await browser.newPage({ viewport: VIEWPORT });
    page.setDefaultTimeout(15_000); // fail with the locator's name, well before the test's own timeout
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${sb.url}/_sandbox/ui`);
  });

  afterAll(async () => {
    await browser?.close();
    await hooks?.close();
    await sb?.stop();
  });

  const createCharge = async (description: string, amount: number) => {
    const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount, description, customer: { name: 'Maria Silva', document: CPF_PAYER } },
    });
    expect(r.status).toBe(201);
    return r.body as { transactionId: string; pixCode: string };
  };
  const row = (text: string) => page.locator('#tx-rows tr', { hasText: text });

  it('serves the page and its assets with their content types, and nothing outside its folder', async () => {
    const html = await sb.request('GET', '/_sandbox/ui');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await sb.request('GET', '/_sandbox/ui/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await sb.request('GET', '/_sandbox/ui/styles.css')).headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const p of ['/_sandbox/ui/missing.js', '/_sandbox/ui/..%2Fpackage.json', '/_sandbox/ui/index.html']) {
      const r = await sb.request('GET', p);
      expect(r.status, p).toBe(404);
      expect(r.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('shows a charge created through the API with its QR code, and Pay makes the lookup answer COMPLETED', async () => {
    const charge = await createCharge('Dashboard charge to pay', 123456);
    const tr = row('Dashboard charge to pay');
    await tr.waitFor(); // the page hears of it by itself (the change stream)
    expect(plain(await tr.textContent())).toContain('R$ 1.234,56');
    expect(await tr.textContent()).toContain('WAITING_PAYMENT');

    await tr.getByRole('button', { name: /^Details/ }).click();
    const detail = page.locator('#tx-detail');
    await detail.locator('img.qr').waitFor();
    expect(await detail.locator('textarea.pix-code').inputValue()).toBe(charge.pixCode);
    expect(await detail.locator('img.qr').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await tr.getByRole('button', { name: /^Pay/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Payer name').fill('Ana Pagadora');
    await dialog.getByLabel('Payer document').fill(CPF_RECEIVER);
    await dialog.getByRole('button', { name: 'Pay charge' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const lookup = await sb.request('GET', `/v1/banking/transactions/${charge.transactionId}`, { token });
    expect(lookup.body.data.status).toBe('COMPLETED');
    expect(lookup.body.data.payer).toMatchObject({ name: 'Ana Pagadora', document: CPF_RECEIVER });
    await until('the row to show PAID', async () => (await tr.textContent())?.includes('PAID'));
    // the region is emptied, then filled 30 ms later (so screen readers repeat it): wait for the text
    await until('the announcement', async () => (await page.locator('#announce').textContent())?.includes('paid'));
  });

  it('keeps keyboard focus where it was while the list refreshes under it', async () => {
    await createCharge('Dashboard charge kept in focus', 1000);
    const details = row('Dashboard charge kept in focus').getByRole('button', { name: /^Details/ });
    await details.waitFor();
    await details.focus();
    await createCharge('Dashboard charge arriving later', 2000);
    await row('Dashboard charge arriving later').waitFor(); // a refresh inserted a row above
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { fk: el?.dataset.fk, row: el?.closest('tr')?.textContent ?? '' };
    });
    expect(focused.fk).toBe('details');
    expect(focused.row).toContain('Dashboard charge kept in focus');
  });

  it('fails a transfer with the keyboard alone: FAILED on the page and in the API, and its webhook delivery in the page', async () => {
    const ep = await sb.request('POST', '/_sandbox/webhooks', { body: { url: hooks.url, accountId: DEFAULT_ACCOUNT_ID } });
    expect(ep.status).toBe(201);
    // the clock must not settle the transfer before the page fails it
    expect((await sb.request('PATCH', `/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`, { body: { settleAfterSeconds: 3600 } })).status).toBe(
      200,
    );
    const created = await sb.request('POST', '/v1/banking/cash-out/pix', {
      token,
      headers: { 'x-idempotency-key': randomUUID() },
      body: {
        type: 'pix_key',
        description: 'Dashboard transfer to fail',
        amount: '2500',
        details: { name: 'João Recebedor', document: CPF_RECEIVER, key: CPF_RECEIVER, keyType: 'CPF' },
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.transactionId as string;
    const tr = row('Dashboard transfer to fail');
    await tr.waitFor();
    expect(await tr.textContent()).toContain(`${CPF_RECEIVER} CPF · João Recebedor`);

    // from the top of the page, Tab until the transfer's Fail button has focus
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const target = `Fail transfer ${id.slice(0, 8)}`;
    let presses = 0;
    while ((await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) !== target) {
      if (++presses > 80) throw new Error('the Fail button cannot be reached with Tab');
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // focus moved into the dialog, on its first field
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('code');
    await page.keyboard.type('ACCOUNT_CLOSED');
    await page.keyboard.press('Tab');
    await page.keyboard.type('the receiving account is closed');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await until('the row to show FAILED', async () => (await tr.textContent())?.includes('FAILED'));
    // the region is emptied, then filled 30 ms later (so screen readers repeat it): wait for the text
    await until('the announcement', async () => (await page.locator('#announce').textContent())?.includes('failed'));
    // focus came back to the transfer's row, not to <body>
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.textContent ?? '')).toContain('Dashboard transfer to fail');

    const lookup = await sb.request('GET', `/v1/banking/transactions/${id}`, { token });
    expect(lookup.body.data.status).toBe('FAILED');
    expect(lookup.body.data.error).toMatchObject({ code: 'ACCOUNT_CLOSED', message: 'the receiving account is closed' });
    const hook = await until('the cashout.failed webhook', () =>
      hooks.got.find((h) => h.body?.type === 'cashout.failed' && h.body.data.transactionId === id),
    );
    expect(hook.body.data).toMatchObject({ status: 'FAILED', error: { code: 'ACCOUNT_CLOSED' } });

    // the delivery, in the transaction's details and in the Webhooks tab
    await page.keyboard.press('Enter'); // focus is on the row's Details button
    const delivery = page.locator('#tx-detail .delivery', { hasText: 'cashout.failed' });
    await until(
      'the delivery to show DELIVERED in the details',
      async () => (await delivery.count()) > 0 && (await delivery.textContent())?.includes('DELIVERED'),
    );
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const logged = page.locator('#delivery-rows tr', { hasText: 'cashout.failed' });
    await logged.waitFor();
    expect(await logged.textContent()).toContain('DELIVERED');
    await logged.locator('.attempts summary').click();
    expect(await logged.locator('.attempt-list li').first().textContent()).toContain('200');
  });

  it('adds a delivery fault from a delivery row, lists it, and it applies to the next event of that type; Remove removes one', async () => {
    const url = `${hooks.url}/faults`;
    const ep = await sb.request('POST', '/_sandbox/webhooks', { body: { url, accountId: DEFAULT_ACCOUNT_ID } });
    expect(ep.status).toBe(201);
    await createCharge('Dashboard charge before the fault', 4321);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    const delivery = page.locator('#delivery-rows tr', { hasText: url }).filter({ hasText: 'cashin.created' }).first();
    await delivery.waitFor();
    await delivery.locator('summary', { hasText: 'Fault…' }).click();
    await delivery.getByRole('combobox', { name: /^Fault for the next cashin.created/ }).selectOption('duplicate');
    await delivery.getByRole('button', { name: 'Add fault' }).click();

    const listed = page.locator('#webhook-fault-rows tr', { hasText: 'duplicate' });
    await listed.waitFor();
    expect(await listed.textContent()).toContain(`cashin.created to ${url}`);
    expect(await listed.textContent()).toContain('1 of 1');
    const [fault] = (await sb.request('GET', '/_sandbox/webhooks/faults')).body;
    expect(fault).toMatchObject({ endpointId: ep.body.id, eventType: 'cashin.created', action: 'duplicate', remaining: 1 });

    const charge = await createCharge('Dashboard charge duplicated', 4322);
    const copies = await until('two deliveries of one event to the endpoint', async () => {
      const ds = (await sb.request('GET', `/_sandbox/webhooks/deliveries?transactionId=${charge.transactionId}&endpointId=${ep.body.id}`))
        .body;
      return ds.length === 2 && ds.every((d: any) => d.status === 'DELIVERED') ? ds : null;
    });
    expect(copies[0].eventId).toBe(copies[1].eventId);
    await until('the spent fault to leave the list', async () => (await page.locator('#webhook-fault-rows tr').count()) === 0);
    // each copy's status cell names the fault that made it
    const status = page.locator('#delivery-rows tr', { hasText: charge.transactionId.slice(0, 8) }).locator('td:nth-child(5)');
    await until(
      'both copies marked in the log',
      async () => (await status.allTextContents()).filter((t) => t.endsWith('duplicate')).length === 2,
    );

    const drop = await sb.request('POST', '/_sandbox/webhooks/faults', { body: { action: 'drop', eventType: 'cashout.failed' } });
    const dropRow = page.locator('#webhook-fault-rows tr', { hasText: 'drop' });
    await dropRow.waitFor();
    await dropRow.getByRole('button', { name: 'Remove the drop fault' }).click();
    await dropRow.waitFor({ state: 'detached' });
    expect((await sb.request('GET', '/_sandbox/webhooks/faults')).body.map((f: any) => f.id)).not.toContain(drop.body.id);
    await sb.request('DELETE', `/_sandbox/webhooks/${ep.body.id}`);
  });

  it('drives the rest of the control API: expire, clock, credit, settings, key directory, rules, faults, journal', async () => {
    const announced = async (text: string) =>
      until(`the announcement “${text}”`, async () => (await page.locator('#announce').textContent())?.includes(text));
    const control = async (p: string) => (await sb.request('GET', p)).body;

    await page.getByRole('tab', { name: 'Transactions' }).click();
    const charge = await createCharge('Dashboard charge to expire', 777);
    await row('Dashboard charge to expire')
      .getByRole('button', { name: /^Expire/ })
      .click();
    await announced('expired');
    expect((await control(`/_sandbox/transactions/${charge.transactionId}`)).status).toBe('EXPIRED');

    const before = await control('/_sandbox/clock');
    await page.getByLabel('Advance (s)').fill('120');
    await page.getByRole('button', { name: 'Advance' }).click();
    await announced("Every tenant's clock advanced by 120 s");
    expect((await control('/_sandbox/clock')).offsetSeconds - before.offsetSeconds).toBeGreaterThanOrEqual(120);

    // the selected tenant's clock: shown, moved alone, frozen and let flow again
    await page.getByLabel('Tenant whose clock is shown').selectOption(DEFAULT_ACCOUNT_ID);
    await page.getByLabel('Advance (s)').fill('60');
    await page.getByRole('button', { name: 'Advance' }).click();
    await announced("Sandbox default account's clock advanced by 60 s");
    const tenant = await control(`/_sandbox/clock?accountId=${DEFAULT_ACCOUNT_ID}`);
    const wide = await control('/_sandbox/clock');
    expect(tenant.offsetSeconds - wide.offsetSeconds).toBe(60);
    const s = Math.round(tenant.offsetSeconds);
    const shown = s >= 3600 ? `+${(s / 3600).toFixed(1)} h` : `+${Math.round(s / 60)} min`;
    await until(`the tenant's clock shown (${shown})`, async () => (await page.locator('#clock-offset').textContent())?.includes(shown));
    await page.getByRole('button', { name: 'Freeze' }).click();
    await announced("Sandbox default account's clock frozen");
    expect((await control(`/_sandbox/clock?accountId=${DEFAULT_ACCOUNT_ID}`)).frozen).toBe(true);
    await until('the frozen mark', () => page.locator('#clock-frozen').isVisible());
    await page.getByRole('button', { name: 'Unfreeze' }).click();
    await announced("Sandbox default account's clock flows again");
    expect((await control(`/_sandbox/clock?accountId=${DEFAULT_ACCOUNT_ID}`)).frozen).toBe(false);

    await page.getByRole('tab', { name: 'Accounts & merchants' }).click();
    const balance = (await control(`/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`)).balance as number;
    await page.getByRole('button', { name: 'Credit Sandbox default account' }).click();
    await page.getByRole('dialog').getByLabel('Amount (R$)').fill('1.500,25');
    await page.getByRole('dialog').getByRole('button', { name: 'Move money' }).click();
    await announced('Balance of Sandbox default account is now');
    expect((await control(`/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`)).balance).toBe(balance + 150025);
    await page.getByRole('button', { name: 'Settings Sandbox default account' }).click();
    await page.getByRole('dialog').getByLabel('Settle transfers after (seconds)').fill('7');
    await page.getByRole('dialog').getByRole('button', { name: 'Save settings' }).click();
    await announced('Settings of Sandbox default account saved');
    expect((await control(`/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}`)).settleAfterSeconds).toBe(7);

    await page.getByRole('tab', { name: 'Keys & rules' }).click();
    const keyForm = page.getByRole('form', { name: 'Add a PIX key' });
    await keyForm.getByLabel('Key', { exact: true }).fill('painel@example.com');
    await keyForm.getByLabel('Kind').selectOption('EMAIL');
    await keyForm.getByLabel('Owner name').fill('Painel Teste');
    await keyForm.getByLabel('Owner document').fill(CPF_PAYER);
    await keyForm.getByRole('button', { name: 'Add key' }).click();
    await announced('Key painel@example.com added');
    expect((await control('/_sandbox/pix-keys')).some((k: any) => k.key === 'painel@example.com' && k.owner.document === CPF_PAYER)).toBe(
      true,
    );
    await page.getByRole('button', { name: 'Delete key painel@example.com' }).click();
    await announced('Deleted key painel@example.com');
    expect((await control('/_sandbox/pix-keys')).some((k: any) => k.key === 'painel@example.com')).toBe(false);

    const ruleForm = page.getByRole('form', { name: 'Add an outcome rule' });
    await ruleForm.getByLabel('Type').selectOption('CASH_OUT');
    await ruleForm.getByLabel('Amount (R$)').fill('9,99');
    await ruleForm.getByLabel('Action').selectOption('fail');
    await ruleForm.getByLabel('Error code').fill('LIMIT_EXCEEDED');
    await ruleForm.getByLabel('Error message').fill('over the daily limit');
    await ruleForm.getByRole('button', { name: 'Add rule' }).click();
    await announced('Outcome rule added');
    const rule = (await control('/_sandbox/rules')).find((r: any) => r.match.amount === 999);
    expect(rule).toMatchObject({ match: { type: 'CASH_OUT', amount: 999 }, outcome: { action: 'fail', code: 'LIMIT_EXCEEDED' } });

    await page.getByRole('tab', { name: 'Faults' }).click();
    const faultForm = page.getByRole('form', { name: 'Inject a fault' });
    await faultForm.getByLabel('Path').fill('/v1/banking/balance');
    await faultForm.getByLabel('Status').fill('503');
    await faultForm.getByLabel('Times').fill('2');
    await faultForm.getByRole('button', { name: 'Inject fault' }).click();
    await announced('Fault injected on /v1/banking/balance');
    expect(await control('/_sandbox/faults')).toMatchObject([{ path: '/v1/banking/balance', status: 503, remaining: 2 }]);
    const clearFaults = page.getByRole('button', { name: 'Clear all faults' });
    await clearFaults.click();
    // the question opens on Cancel; Escape closes it, gives focus back, and clears nothing
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await clearFaults.evaluate((b) => b === document.activeElement)).toBe(true);
    expect(await control('/_sandbox/faults')).toHaveLength(1);
    await clearFaults.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear all faults' }).click();
    await announced('Clear all faults: done');
    expect(await control('/_sandbox/faults')).toEqual([]);

    await page.getByRole('tab', { name: 'Request journal' }).click();
    await page.locator('#request-rows tr', { hasText: 'POST /v1/banking/cash-in/pix' }).first().waitFor();
    await page.getByRole('button', { name: 'Clear the journal' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Clear the request journal' }).click();
    await announced('Clear the request journal: done');
    expect(await control('/_sandbox/requests')).toEqual([]);
  });

  it('writes a screenshot of the page for people to look at, without a script error', async () => {
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await row('Dashboard charge to pay')
      .getByRole('button', { name: /^Details/ })
      .click();
    await page.locator('#tx-detail img.qr').waitFor();
    await mkdir('test-output', { recursive: true });
    await page.screenshot({ path: 'test-output/dashboard.png' });
    expect(existsSync('test-output/dashboard.png')).toBe(true);
    expect(pageErrors).toEqual([]);
  });

  it('pages through more transactions than a page holds with Older / Newer, and stays on its page while new ones arrive', async () => {
    const marker = (i: number) => `Paged-${String(i).padStart(3, '0')}`;
    const transfer = (i: number) =>
      sb.request('POST', '/v1/banking/cash-out/pix', {
        token,
        headers: { 'x-idempotency-key': randomUUID() },
        body: { type: 'pix_key', description: marker(i), amount: '1', details: { name: 'Bia', key: CPF_RECEIVER, keyType: 'CPF' } },
      });
    for (let i = 0; i < 205; i += 15) {
      const batch = await Promise.all(Array.from({ length: Math.min(15, 205 - i) }, (_, k) => transfer(i + k)));
      expect(batch.map((r) => r.status)).toEqual(batch.map(() => 201));
    }
    await page.getByRole('tab', { name: 'Transactions' }).click();
    const pagerOf = page.locator('#tx-pager');
    await row(marker(204)).waitFor(); // the newest page: the 200 newest
    expect(await row(marker(4)).count()).toBe(0);
    await pagerOf.getByRole('button', { name: 'Older →' }).click();
    await row(marker(4)).waitFor();
    expect(await row(marker(204)).count()).toBe(0);
    expect(await page.locator('#tx-count').textContent()).toContain('Page 2');
    // a transfer made now belongs to the newest page, not to this one
    expect((await transfer(999)).status).toBe(201);
    const refreshes = async () => Number(await page.locator('#tx-count').getAttribute('data-refreshes'));
    const seen = await refreshes();
    await until('a refresh of the page shown', async () => (await refreshes()) > seen + 1);
    expect(await row(marker(999)).count()).toBe(0);
    await row(marker(0)).waitFor();
    await pagerOf.getByRole('button', { name: 'Newest' }).click();
    await row(marker(999)).waitFor();
    expect(await pagerOf.getByRole('button', { name: 'Newest' }).isDisabled()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});

describe('dashboard with an admin token', { timeout: 60_000 }, () => {
  it('asks for the token, then shows the data with it, for the rest of the browser tab', async () => {
    const [sb, browser] = await Promise.all([startTestSandbox({ adminToken: 'dash-admin-token' }), launchBrowser()]);
    try {
      const page = await browser.newPage({ viewport: VIEWPORT });
      // the change stream carries the token as every call does, in a header, never in its URL (logs keep URLs)
      const streams: { url: string; token: string | undefined }[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/_sandbox/changes') streams.push({ url: r.url(), token: r.headers()['x-sandbox-admin-token'] });
      });
      await page.goto(`${sb.url}/_sandbox/ui`);
      const banner = page.locator('#auth-banner');
      await banner.waitFor();
      expect(await banner.textContent()).toContain('needs an admin token');
      const accountFilter = page.locator('#tx-filters select[name=accountId] option');
      expect(await accountFilter.count()).toBe(1); // "All" only: nothing could be read

      await page.getByLabel('Admin token').fill('dash-admin-token');
      await page.getByRole('button', { name: 'Use token' }).click();
      await banner.waitFor({ state: 'hidden' });
      await until('the accounts to load', async () => (await accountFilter.count()) === 2);
      expect(await accountFilter.nth(1).textContent()).toBe('Sandbox default account');
      expect(streams.at(0)?.token).toBeUndefined(); // refused, then asked again once the token was given
      expect(streams.at(-1)?.token).toBe('dash-admin-token');
      expect(streams.filter((s) => s.url.includes('dash-admin-token'))).toEqual([]);

      await page.reload(); // kept in sessionStorage for this tab
      await until('the accounts to load after a reload', async () => (await accountFilter.count()) === 2);
      expect(await banner.isHidden()).toBe(true);
    } finally {
      await browser.close();
      await sb.stop();
    }
  });
});
