// POST /_sandbox/pix/pay {qrImage}: a screenshot of the dashboard's charge view, taken by a real
// browser (Debian's chromium driven by playwright-core), pays the charge it shows, exactly as its
// copy-and-paste code does; every image that cannot be paid is refused and changes nothing.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDynamicBrCode } from '../../src/domain/brcode.js';
import { SandboxApiError, startSandbox } from '../../src/index.js';
import { renderQrPng } from '../../src/format/qr.js';
import { launchBrowser, VIEWPORT } from '../helpers/browser.js';
import { balance, createCharge, errorShape, lookup } from '../helpers/control.js';
import { DEFAULT_ACCOUNT_ID, DEFAULT_CLIENT, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { BIN, ensureBuilt, spawnSandbox, type ChildSandbox } from '../helpers/torture.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const MIB = 1024 * 1024;

const pngDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** A PNG of uniform noise (stored, not compressed) of about `bytes` bytes. */
function noisePng(bytes: number): Buffer {
  const side = Math.ceil(Math.sqrt(bytes / 4));
  return PNG.sync.write({ width: side, height: side, data: randomBytes(side * side * 4) } as PNG, { deflateLevel: 0 });
}

function blankPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(255);
  return PNG.sync.write(png);
}

/** A PNG whose header claims `width` × `height` pixels, with one tiny scanline of data. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    return out; // CRCs of zero: the size check reads the header before anything checks them
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(2))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('paying the QR code in an image', { timeout: 60_000 }, () => {
  let sb: TestSandbox;
  let browser: Browser;
  let page: Page;
  let token: string;
  let hooks: Receiver;

  beforeAll(async () => {
    [sb, browser, hooks] = await Promise.all([startTestSandbox(), launchBrowser(), startReceiver()]);
    token = await sb.token();
    const ep = await sb.request('POST', '/_sandbox/webhooks', { body: { url: hooks.url, accountId: DEFAULT_ACCOUNT_ID } });
    expect(ep.status).toBe(201);
    page = await browser.newPage({ viewport: VIEWPORT });
    page.setDefaultTimeout(15_000);
    await page.goto(`${sb.url}/_sandbox/ui`);
  });

  afterAll(async () => {
    await browser?.close();
    await hooks?.close();
    await sb?.stop();
  });

  /** Opens the charge's view in the dashboard (the page finds new charges by itself). */
  async function showCharge(description: string): Promise<void> {
    const tr = page.locator('#tx-rows tr', { hasText: description });
    await tr.waitFor();
    await tr.getByRole('button', { name: /^Details/ }).click();
    await page.locator('#tx-detail img.qr').waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('#tx-detail img.qr');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
  }

  /** Everything a refused payment must leave as it was. */
  async function state() {
    const [list, bal, deliveries] = await Promise.all([
      sb.request('GET', '/_sandbox/transactions?limit=1000'),
      balance(sb, token),
      sb.request('GET', '/_sandbox/webhooks/deliveries'),
    ]);
    return { transactions: list.body, balance: bal, deliveries: (deliveries.body as { id: string }[]).map((d) => d.id).sort() };
  }

  async function refused(qrImage: string, extra: Record<string, unknown> = {}) {
    const before = await state();
    const r = await sb.request('POST', '/_sandbox/pix/pay', { body: { qrImage, ...extra } });
    const body = errorShape(r);
    expect(await state()).toEqual(before);
    return { status: r.status, ...body };
  }

  it('a full-page screenshot of the charge view pays that charge: lookup COMPLETED, the same events as a paid code', async () => {
    const charge = await createCharge(sb, token, 98_765, { description: 'Charge paid from a screenshot' });
    const before = await balance(sb, token);
    await showCharge('Charge paid from a screenshot');
    const screenshot = await page.screenshot({ fullPage: true, type: 'png' });

    const r = await sb.request('POST', '/_sandbox/pix/pay', {
      body: { qrImage: pngDataUrl(screenshot), payer: { name: 'Pagador Da Imagem' } },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: charge.transactionId, status: 'PAID', payer: { name: 'Pagador Da Imagem' } });
    const l = await lookup(sb, token, charge.transactionId);
    expect(l.body.data).toMatchObject({ status: 'COMPLETED', payer: { name: 'Pagador Da Imagem' } });
    expect(await balance(sb, token)).toBe(before + 98_765);

    // the same events, in the same order, as a charge paid by its copy-and-paste code
    const byCode = await createCharge(sb, token, 1_234, { description: 'Charge paid by its code' });
    expect((await sb.request('POST', '/_sandbox/pix/pay', { body: { pixCode: byCode.pixCode } })).status).toBe(200);
    const typesOf = async (id: string) =>
      (await hooks.waitFor(2, (h) => h.body?.data?.transactionId === id)).map((h) => h.body.type as string);
    expect(await typesOf(charge.transactionId)).toEqual(['cashin.created', 'cashin.paid']);
    expect(await typesOf(charge.transactionId)).toEqual(await typesOf(byCode.transactionId));

    // a second payment of the same image is the same 409 as a second payment of the code
    const again = await refused(pngDataUrl(screenshot));
    expect([again.status, again.error.code]).toEqual([409, 'INVALID_STATE']);
  });

  it('reads a JPEG screenshot sent as bare base64', async () => {
    const charge = await createCharge(sb, token, 5_555, { description: 'Charge paid from a JPEG' });
    await showCharge('Charge paid from a JPEG');
    const jpeg = await page.screenshot({ type: 'jpeg', quality: 80 });
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    const r = await sb.request('POST', '/_sandbox/pix/pay', { body: { qrImage: jpeg.toString('base64') } });
    expect(r.status).toBe(200);
    expect((await lookup(sb, token, charge.transactionId)).body.data.status).toBe('COMPLETED');
  });

  it('refuses an image without a QR code, and one whose QR code is not a PIX code (400), changing nothing', async () => {
    await createCharge(sb, token, 700, { description: 'Charge left waiting' });
    const blank = await refused(pngDataUrl(blankPng(800, 600)));
    expect([blank.status, blank.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(blank.message).toMatch(/no QR code was found/);
    expect(blank.error.details).toEqual([{ path: '/qrImage', message: 'must show a QR code' }]);

    const text = await refused(pngDataUrl(renderQrPng('https://example.com/not-a-charge')));
    expect(text.status).toBe(400);
    expect(text.message).toMatch(/^the QR code in qrImage is not a payable PIX code/);
    expect(text.error.details[0]).toMatchObject({ path: '/qrImage' });
  });

  it('refuses the QR code of a charge that is not of this sandbox with 404, changing nothing', async () => {
    const foreign = buildDynamicBrCode({
      location: `pix.example.com/qr/v2/${randomUUID()}`,
      amountCents: 1000,
      merchantName: 'Outra Loja',
      merchantCity: 'Recife',
    });
    const r = await refused(pngDataUrl(renderQrPng(foreign)));
    expect([r.status, r.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses an image over 5 MiB with 413, whether the body fits its 7 MiB limit or not, and one over 16 million pixels with 400, changing nothing', async () => {
    const over = noisePng(5.05 * MIB);
    expect(over.length).toBeGreaterThan(5 * MIB);
    expect(pngDataUrl(over).length).toBeLessThan(7 * MIB);
    const r1 = await refused(pngDataUrl(over));
    expect([r1.status, r1.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(r1.message).toMatch(/^qrImage is 5\.\d MiB; images of at most 5 MiB are read/);

    const r2 = await refused(noisePng(6 * MIB).toString('base64'));
    expect([r2.status, r2.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(r2.message).toBe('the request body is larger than 7 MiB');

    // a small file that would unpack to 50 million pixels is refused from its header: 400 naming the limit
    const r3 = await refused(pngDataUrl(pngClaiming(10_000, 5_000)));
    expect([r3.status, r3.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(r3.message).toMatch(/10000×5000 pixels; images of at most 16 million pixels are read/);
    expect(r3.error.details).toEqual([{ path: '/qrImage', message: 'must have at most 16000000 pixels (16 million)' }]);
  });

  it('refuses what is not a PNG or JPEG in base64, and a body with both or neither field, naming the problem', async () => {
    const c = await createCharge(sb, token, 900, { description: 'Charge of the bad bodies' });
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['not base64', { qrImage: 'this is not an image!' }, /neither a data URL nor base64/],
      ['a GIF data URL', { qrImage: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }, /data URL of image\/gif/],
      ['text in base64', { qrImage: Buffer.from('hello, world').toString('base64') }, /neither a PNG nor a JPEG/],
      [
        'a broken PNG',
        { qrImage: pngDataUrl(Buffer.concat([blankPng(40, 40).subarray(0, 60), randomBytes(200)])) },
        /could not be decoded/,
      ],
      ['both fields', { qrImage: pngDataUrl(blankPng(10, 10)), pixCode: c.pixCode }, /not both/],
    ];
    for (const [what, body, message] of cases) {
      const before = await state();
      const r = await sb.request('POST', '/_sandbox/pix/pay', { body });
      expect(r.status, what).toBe(400);
      expect(errorShape(r).message, what).toMatch(message);
      expect(await state(), what).toEqual(before);
    }
    const neither = await sb.request('POST', '/_sandbox/pix/pay', { body: { payer: { name: 'Ninguem' } } });
    expect(errorShape(neither).error.details).toEqual([{ path: '/', message: 'needs pixCode or qrImage' }]);
    expect((await lookup(sb, token, c.transactionId)).body.data.status).toBe('WAITING_PAYMENT');
  });
});

// The shipped command on both sides: `serve` from the bundle (whose decoder worker starts from
// there) and `pay --qr-image <file>` against it.
describe('pix-sandbox pay --qr-image', { timeout: 60_000 }, () => {
  let server: ChildSandbox;
  let dir: string;

  beforeAll(async () => {
    ensureBuilt();
    [server, dir] = await Promise.all([
      spawnSandbox(['--memory', '--port', '0', '--https-port', 'off']),
      mkdtemp(path.join(os.tmpdir(), 'pix-qr-image-')),
    ]);
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_')));
      execFile(process.execPath, [BIN, ...args, '--base-url', server.url], { env, timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
      );
    });

  it('pays the charge whose QR code is in the file; a blank image fails with the reason, a missing file is bad usage', async () => {
    const json = (r: Response) => r.json();
    const { access_token } = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEFAULT_CLIENT),
    }).then(json);
    const charge = await fetch(`${server.url}/v1/banking/cash-in/pix`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ amount: 2_500, description: 'CLI charge', customer: { name: 'Maria Silva', document: '52998224725' } }),
    }).then(json);
    // the image the API answered, as a checkout page would show it
    const file = path.join(dir, 'charge.png');
    await writeFile(file, Buffer.from(String(charge.qrCode).replace(/^data:image\/png;base64,/, ''), 'base64'));

    const paid = await cli(['pay', '--qr-image', file, '--payer-name', 'Pagador Da Linha']);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout)).toMatchObject({ id: charge.transactionId, status: 'PAID', payer: { name: 'Pagador Da Linha' } });

    const blank = path.join(dir, 'blank.png');
    await writeFile(blank, blankPng(300, 300));
    const refused = await cli(['pay', '--qr-image', blank]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('no QR code was found in qrImage');
    expect(refused.stderr).toContain('HTTP 400 VALIDATION_ERROR');

    const missing = await cli(['pay', '--qr-image', path.join(dir, 'nothing.png')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such image file');
    const both = await cli(['pay', charge.transactionId, '--qr-image', file]);
    expect(both.code).toBe(2);
  });
});

describe('the typed control client', () => {
  it('payByQrImage takes the image bytes (a page screenshot, or here the QR image the API answered)', async () => {
    const sb = await startSandbox({ tick: false });
    try {
      const charge = await sb.client.cashIn({ amount: 777, description: 'typed', customer: { name: 'Ana', document: '52998224725' } });
      const png = Buffer.from(charge.qrCode.replace(/^data:image\/png;base64,/, ''), 'base64');
      expect(await sb.control.payByQrImage(png)).toMatchObject({ id: charge.transactionId, status: 'PAID' });
      const err = await sb.control.payByQrImage(blankPng(50, 50)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxApiError);
      expect(err).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    } finally {
      await sb.stop();
    }
  });
});
