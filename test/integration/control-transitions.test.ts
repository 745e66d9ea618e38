// Forced transitions, paying by copy-and-paste code, and the transaction list, each seen through
// the public lookup and balances; illegal transitions answer 409 and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { balance, createCharge, createTransfer, errorShape, lookup } from '../helpers/control.js';

let sb: TestSandbox;
let token: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  token = await sb.token();
});
afterAll(() => sb.stop());

const PAYER = { name: 'Ana Pagadora', document: '52998224725', ispb: '60746948', account_number: '777-1', account_type: 'SVGS' };

/** The parts of the store a refused transition must leave alone. */
async function snapshot(id: string) {
  const detail = await sb.request('GET', `/_sandbox/transactions/${id}`);
  return { record: { ...detail.body, qrCode: undefined }, balance: await balance(sb, token) };
}

describe('charges', () => {
  it('pay (with payer data) completes the charge, credits the balance and shows the payer on lookup', async () => {
    const before = await balance(sb, token);
    const c = await createCharge(sb, token, 1234);
    const r = await sb.request('POST', `/_sandbox/charges/${c.transactionId}/pay`, { body: { payer: PAYER } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: c.transactionId, type: 'CASH_IN', status: 'PAID', payer: PAYER });
    const l = await lookup(sb, token, c.transactionId);
    expect(l.body.data).toMatchObject({ id: c.transactionId, status: 'COMPLETED', payer: PAYER });
    expect(l.body.data.end_to_end_id).toMatch(/^E60746948\d{12}[A-Za-z0-9]{11}$/);
    expect(await balance(sb, token)).toBe(before + 1234);
  });

  it('pay without a body generates a payer', async () => {
    const c = await createCharge(sb, token, 99);
    const r = await sb.request('POST', `/_sandbox/charges/${c.transactionId}/pay`);
    expect(r.status).toBe(200);
    const l = await lookup(sb, token, c.transactionId);
    expect(l.body.data.status).toBe('COMPLETED');
    expect(Object.keys(l.body.data.payer).sort()).toEqual(['account_number', 'account_type', 'document', 'ispb', 'name']);
  });

  it('expire and cancel end the charge FAILED with CHARGE_EXPIRED / CHARGE_CANCELLED, moving no money', async () => {
    const before = await balance(sb, token);
    const e = await createCharge(sb, token, 500);
    const c = await createCharge(sb, token, 600);
    expect((await sb.request('POST', `/_sandbox/charges/${e.transactionId}/expire`)).body.status).toBe('EXPIRED');
    expect((await sb.request('POST', `/_sandbox/charges/${c.transactionId}/cancel`)).body.status).toBe('CANCELLED');
    expect((await lookup(sb, token, e.transactionId)).body.data).toMatchObject({ status: 'FAILED', error: { code: 'CHARGE_EXPIRED' } });
    expect((await lookup(sb, token, c.transactionId)).body.data).toMatchObject({ status: 'FAILED', error: { code: 'CHARGE_CANCELLED' } });
    expect(await balance(sb, token)).toBe(before);
  });

  it('refuses every illegal charge transition with 409 INVALID_STATE and changes nothing', async () => {
    const c = await createCharge(sb, token, 700);
    await sb.request('POST', `/_sandbox/charges/${c.transactionId}/pay`);
    const before = await snapshot(c.transactionId);
    for (const action of ['pay', 'expire', 'cancel']) {
      const r = await sb.request('POST', `/_sandbox/charges/${c.transactionId}/${action}`);
      expect(r.status).toBe(409);
      expect(errorShape(r).error.code).toBe('INVALID_STATE');
    }
    const byCode = await sb.request('POST', '/_sandbox/pix/pay', { body: { pixCode: c.pixCode } });
    expect(byCode.status).toBe(409);
    expect(await snapshot(c.transactionId)).toEqual(before);

    const x = await createCharge(sb, token, 701);
    await sb.request('POST', `/_sandbox/charges/${x.transactionId}/cancel`);
    const cancelled = await snapshot(x.transactionId);
    expect((await sb.request('POST', `/_sandbox/charges/${x.transactionId}/pay`)).status).toBe(409);
    expect(await snapshot(x.transactionId)).toEqual(cancelled);
  });

  it('a transfer id is not a charge (404), an unknown id is 404, a malformed one 400', async () => {
    const t = await createTransfer(sb, token, 100);
    expect(errorShape(await sb.request('POST', `/_sandbox/charges/${t.transactionId}/pay`)).error.code).toBe('NOT_FOUND');
    expect((await sb.request('POST', '/_sandbox/charges/1f1e1d1c-0000-4000-8000-000000000000/expire')).status).toBe(404);
    expect((await sb.request('POST', '/_sandbox/charges/xyz/cancel')).status).toBe(400);
  });
});

describe('paying a copy-and-paste code', () => {
  it('pays the charge its pixCode belongs to, as a payer’s bank would', async () => {
    const before = await balance(sb, token);
    const c = await createCharge(sb, token, 4242);
    const r = await sb.request('POST', '/_sandbox/pix/pay', { body: { pixCode: c.pixCode, payer: { name: 'Pagador Por Codigo' } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: c.transactionId, status: 'PAID', payer: { name: 'Pagador Por Codigo' } });
    expect((await lookup(sb, token, c.transactionId)).body.data.status).toBe('COMPLETED');
    expect(await balance(sb, token)).toBe(before + 4242);
  });

  it('refuses a code that does not parse, a static code, and a location that leads nowhere', async () => {
    const c = await createCharge(sb, token, 10);
    const broken = c.pixCode.slice(0, -4) + (c.pixCode.endsWith('0000') ? '1111' : '0000');
    const r1 = await sb.request('POST', '/_sandbox/pix/pay', { body: { pixCode: broken } });
    expect(r1.status).toBe(400);
    expect(errorShape(r1).error.details[0]).toMatchObject({ path: '/pixCode' });
    expect(r1.body.message).toMatch(/CRC/);
    const staticCode =
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
    const r2 = await sb.request('POST', '/_sandbox/pix/pay', { body: { pixCode: staticCode } });
    expect(r2.status).toBe(400);
    expect(r2.body.message).toMatch(/static/);
    const missing = await sb.request('POST', '/_sandbox/pix/pay', { body: {} });
    expect(errorShape(missing).error.details).toEqual([{ path: '/', message: 'needs pixCode or qrImage' }]);
  });
});

describe('transfers', () => {
  it('complete forces COMPLETED with a receiver, even to a key that would fail', async () => {
    const t = await createTransfer(sb, token, 300, { key: 'naoexiste@pix-sandbox.test', keyType: 'EMAIL' });
    const r = await sb.request('POST', `/_sandbox/transfers/${t.transactionId}/complete`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('COMPLETED');
    const l = await lookup(sb, token, t.transactionId);
    expect(l.body.data).toMatchObject({ status: 'COMPLETED', receiver: { key: 'naoexiste@pix-sandbox.test', keyType: 'EMAIL' } });
    expect(typeof l.body.data.end_to_end_id).toBe('string');
  });

  it('fail ends FAILED with the given code and message and gives the money back', async () => {
    const before = await balance(sb, token);
    const t = await createTransfer(sb, token, 2500);
    expect(await balance(sb, token)).toBe(before - 2500);
    const r = await sb.request('POST', `/_sandbox/transfers/${t.transactionId}/fail`, {
      body: { code: 'BANK_OFFLINE', message: 'the receiving bank is offline' },
    });
    expect(r.status).toBe(200);
    expect((await lookup(sb, token, t.transactionId)).body.data).toEqual({
      id: t.transactionId,
      status: 'FAILED',
      error: { code: 'BANK_OFFLINE', message: 'the receiving bank is offline' },
    });
    expect(await balance(sb, token)).toBe(before);
  });

  it('refuses to settle a transfer twice (409) and changes nothing; fail validates its body', async () => {
    const t = await createTransfer(sb, token, 50);
    await sb.request('POST', `/_sandbox/transfers/${t.transactionId}/complete`);
    const before = await snapshot(t.transactionId);
    const again = await sb.request('POST', `/_sandbox/transfers/${t.transactionId}/fail`, { body: { code: 'LATE' } });
    expect(again.status).toBe(409);
    expect(errorShape(again).error.code).toBe('INVALID_STATE');
    expect((await sb.request('POST', `/_sandbox/transfers/${t.transactionId}/complete`)).status).toBe(409);
    expect(await snapshot(t.transactionId)).toEqual(before);

    const u = await createTransfer(sb, token, 51);
    const bad = await sb.request('POST', `/_sandbox/transfers/${u.transactionId}/fail`, { body: { code: 'lower case', message: '' } });
    expect(bad.status).toBe(400);
    expect(
      errorShape(bad)
        .error.details.map((d) => d.path)
        .sort(),
    ).toEqual(['/code', '/message']);
    expect((await lookup(sb, token, u.transactionId)).body.data.status).toBe('PROCESSING');
    const c = await createCharge(sb, token, 10);
    expect((await sb.request('POST', `/_sandbox/transfers/${c.transactionId}/complete`)).status).toBe(404);
  });
});

describe('transaction list and detail', () => {
  it('filters by account, type, status and externalId, newest first, bounded by limit', async () => {
    const other = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'List tenant', balance: 1000 } });
    const otherToken = await sb.token({ client_id: other.body.client_id, client_secret: other.body.client_secret });
    const a = await createCharge(sb, otherToken, 11, { externalId: 'order-1' });
    const b = await createCharge(sb, otherToken, 12, { externalId: 'order-2' });
    const t = await createTransfer(sb, otherToken, 13);
    await sb.request('POST', `/_sandbox/charges/${b.transactionId}/pay`);

    const mine = await sb.request('GET', `/_sandbox/transactions?accountId=${other.body.id}`);
    expect(mine.body.map((x: any) => x.id)).toEqual([t.transactionId, b.transactionId, a.transactionId]);
    const charges = await sb.request('GET', `/_sandbox/transactions?accountId=${other.body.id}&type=CASH_IN`);
    expect(charges.body.map((x: any) => x.id)).toEqual([b.transactionId, a.transactionId]);
    const paid = await sb.request('GET', `/_sandbox/transactions?accountId=${other.body.id}&status=PAID`);
    expect(paid.body.map((x: any) => x.id)).toEqual([b.transactionId]);
    const ext = await sb.request('GET', '/_sandbox/transactions?externalId=order-1');
    expect(ext.body.map((x: any) => x.id)).toEqual([a.transactionId]);
    expect(ext.body[0]).toMatchObject({ accountId: other.body.id, amount: 11, status: 'WAITING_PAYMENT', externalId: 'order-1' });
    const limited = await sb.request('GET', `/_sandbox/transactions?accountId=${other.body.id}&limit=1`);
    expect(limited.body.map((x: any) => x.id)).toEqual([t.transactionId]);
    const defaults = await sb.request('GET', `/_sandbox/transactions?accountId=${DEFAULT_ACCOUNT_ID}`);
    expect(defaults.body.every((x: any) => x.accountId === DEFAULT_ACCOUNT_ID)).toBe(true);
    const bad = await sb.request('GET', '/_sandbox/transactions?type=REFUND&limit=0');
    expect(
      errorShape(bad)
        .error.details.map((d) => d.path)
        .sort(),
    ).toEqual(['/query/limit', '/query/type']);
  });

  it('shows one transaction in full: pixCode, its QR image, ledger entries', async () => {
    const c = await createCharge(sb, token, 321);
    await sb.request('POST', `/_sandbox/charges/${c.transactionId}/pay`);
    const d = await sb.request('GET', `/_sandbox/transactions/${c.transactionId}`);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ id: c.transactionId, pixCode: c.pixCode, status: 'PAID' });
    expect(d.body.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(d.body.ledger).toEqual([
      expect.objectContaining({ transactionId: c.transactionId, amount: 321, kind: 'CASH_IN', to: `account:${DEFAULT_ACCOUNT_ID}` }),
    ]);
    expect(Array.isArray(d.body.events)).toBe(true);
    expect((await sb.request('GET', '/_sandbox/transactions/2a2a2a2a-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
