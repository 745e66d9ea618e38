// The default magic values (fixtures/default.json, docs/control-api.md "Magic values"): each reaches its outcome
// with no control call but advancing the clock, as an app that cannot call the control API sees it.
// Also the rules and key directory endpoints that edit them.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { advance, balance, createCharge, createTransfer, errorShape, lookup } from '../helpers/control.js';

let sb: TestSandbox;

// the clock jumps far in these tests, so every call takes a fresh token (they last 300 s)
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

const status = async (id: string) => (await lookup(sb, await sb.token(), id)).body.data;

describe('default magic values', () => {
  it('R$ 100.01 is paid after 3 s with the fixture payer; R$ 100.02 expires and R$ 100.03 is cancelled after 5 s', async () => {
    const before = await balance(sb, await sb.token());
    const paid = await createCharge(sb, await sb.token(), 10001);
    const expired = await createCharge(sb, await sb.token(), 10002);
    const cancelled = await createCharge(sb, await sb.token(), 10003);
    const waits = await createCharge(sb, await sb.token(), 10004);
    await advance(sb, 2);
    expect((await status(paid.transactionId)).status).toBe('WAITING_PAYMENT');
    await advance(sb, 1);
    expect(await status(paid.transactionId)).toMatchObject({
      status: 'COMPLETED',
      payer: { name: 'Pagador Sandbox', document: '52998224725' },
    });
    expect((await status(expired.transactionId)).status).toBe('WAITING_PAYMENT');
    await advance(sb, 2);
    expect(await status(expired.transactionId)).toMatchObject({ status: 'FAILED', error: { code: 'CHARGE_EXPIRED' } });
    expect(await status(cancelled.transactionId)).toMatchObject({ status: 'FAILED', error: { code: 'CHARGE_CANCELLED' } });
    expect(await balance(sb, await sb.token())).toBe(before + 10001);
    await advance(sb, 3600);
    expect((await status(waits.transactionId)).status).toBe('WAITING_PAYMENT');
  });

  it('R$ 100.04 waits even when the account pays automatically', async () => {
    const t = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'autopay', autoPayAfterSeconds: 1 } });
    const tToken = await sb.token({ client_id: t.body.client_id, client_secret: t.body.client_secret });
    const normal = await createCharge(sb, tToken, 500);
    const waits = await createCharge(sb, tToken, 10004);
    await advance(sb, 5);
    expect((await lookup(sb, tToken, normal.transactionId)).body.data.status).toBe('COMPLETED');
    expect((await lookup(sb, tToken, waits.transactionId)).body.data.status).toBe('WAITING_PAYMENT');
  });

  it('R$ 200.01 fails with INSUFFICIENT_FUNDS_AT_DESTINATION and R$ 200.02 with ACCOUNT_CLOSED, money back', async () => {
    const before = await balance(sb, await sb.token());
    const a = await createTransfer(sb, await sb.token(), 20001);
    const b = await createTransfer(sb, await sb.token(), 20002);
    expect((await status(a.transactionId)).status).toBe('PROCESSING');
    await advance(sb, 2);
    expect(await status(a.transactionId)).toEqual({
      id: a.transactionId,
      status: 'FAILED',
      error: {
        code: 'INSUFFICIENT_FUNDS_AT_DESTINATION',
        message: 'the receiving institution refused the credit: insufficient funds at destination',
      },
    });
    expect(await status(b.transactionId)).toMatchObject({ status: 'FAILED', error: { code: 'ACCOUNT_CLOSED' } });
    expect(await balance(sb, await sb.token())).toBe(before);
  });

  it('R$ 200.03 stays PROCESSING; R$ 200.04 completes only after 60 s', async () => {
    const stays = await createTransfer(sb, await sb.token(), 20003);
    const slow = await createTransfer(sb, await sb.token(), 20004);
    await advance(sb, 59);
    expect((await status(slow.transactionId)).status).toBe('PROCESSING');
    await advance(sb, 1);
    expect((await status(slow.transactionId)).status).toBe('COMPLETED');
    await advance(sb, 86_400);
    expect((await status(stays.transactionId)).status).toBe('PROCESSING');
  });

  it('a key marked unknown fails with KEY_NOT_FOUND; a key of another document with DOCUMENT_MISMATCH', async () => {
    const before = await balance(sb, await sb.token());
    const unknown = await createTransfer(sb, await sb.token(), 1500, { key: 'naoexiste@pix-sandbox.test', keyType: 'EMAIL' });
    const unknownEvp = await createTransfer(sb, await sb.token(), 1501, { key: '00000000-0000-4000-8000-000000000404', keyType: 'RANDOM' });
    const mismatch = await createTransfer(sb, await sb.token(), 1600, {
      key: 'maria@pix-sandbox.test',
      keyType: 'EMAIL',
      document: '11144477735',
    });
    const matches = await createTransfer(sb, await sb.token(), 1700, {
      key: 'maria@pix-sandbox.test',
      keyType: 'EMAIL',
      document: '12345678909',
    });
    await advance(sb, 2);
    expect(await status(unknown.transactionId)).toMatchObject({ status: 'FAILED', error: { code: 'KEY_NOT_FOUND' } });
    expect(await status(unknownEvp.transactionId)).toMatchObject({ status: 'FAILED', error: { code: 'KEY_NOT_FOUND' } });
    expect(await status(mismatch.transactionId)).toMatchObject({ status: 'FAILED', error: { code: 'DOCUMENT_MISMATCH' } });
    expect(await status(matches.transactionId)).toMatchObject({
      status: 'COMPLETED',
      receiver: {
        name: 'Maria Souza',
        document: '12345678909',
        ispb: '00000000',
        account_number: '12345-6',
        account_type: 'CACC',
        key: 'maria@pix-sandbox.test',
        keyType: 'EMAIL',
      },
    });
    expect(await balance(sb, await sb.token())).toBe(before - 1700);
  });

  it('the magic-values table of docs/control-api.md lists exactly the default rules and keys', () => {
    const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8'));
    const page = readFileSync(new URL('../../docs/control-api.md', import.meta.url), 'utf8');
    const start = page.indexOf('### Magic values');
    expect(start, 'docs/control-api.md has a "Magic values" section').toBeGreaterThan(0);
    const section = page.slice(start, page.indexOf('\n## ', start));
    for (const r of fixtures.rules) {
      const amount = (r.match.amount / 100).toFixed(2);
      expect(section, r.id).toContain(amount);
      if (r.outcome.code) expect(section, r.id).toContain(r.outcome.code);
    }
    for (const k of fixtures.pixKeys) expect(section, k.key).toContain(k.key);
  });
});

describe('rules and key directory through the control API', () => {
  it('a new rule decides new transactions; first match wins; delete restores the default', async () => {
    const r = await sb.request('POST', '/_sandbox/rules', {
      body: {
        id: 'test-fail-by-description',
        match: { type: 'CASH_OUT', descriptionContains: 'BOOM' },
        outcome: { action: 'fail', code: 'BOOM', message: 'it exploded' },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: 'test-fail-by-description', outcome: { action: 'fail', code: 'BOOM' } });
    const list = await sb.request('GET', '/_sandbox/rules');
    expect(list.body.at(-1).id).toBe('test-fail-by-description');
    expect(list.body[0].id).toBe('magic-charge-paid');

    const boom = await sb.request('POST', '/v1/banking/cash-out/pix', {
      token: await sb.token(),
      headers: { 'x-idempotency-key': crypto.randomUUID() },
      body: { type: 'pix_key', description: 'please BOOM', amount: '100', details: { name: 'X', key: '11144477735', keyType: 'CPF' } },
    });
    await advance(sb, 0 + 1);
    expect(await status(boom.body.transactionId)).toMatchObject({ status: 'FAILED', error: { code: 'BOOM', message: 'it exploded' } });

    // replacing keeps the position; removing brings back the defaults of §7
    const replaced = await sb.request('POST', '/_sandbox/rules', {
      body: { id: 'test-fail-by-description', match: { type: 'CASH_OUT', descriptionContains: 'BOOM' }, outcome: { action: 'complete' } },
    });
    expect(replaced.status).toBe(200);
    expect((await sb.request('DELETE', '/_sandbox/rules/test-fail-by-description')).status).toBe(204);
    expect((await sb.request('DELETE', '/_sandbox/rules/test-fail-by-description')).status).toBe(404);
    expect((await sb.request('GET', '/_sandbox/rules')).body.some((x: any) => x.id === 'test-fail-by-description')).toBe(false);
  });

  it('DELETE /_sandbox/rules clears every rule: magic amounts behave like any other', async () => {
    expect((await sb.request('DELETE', '/_sandbox/rules')).status).toBe(204);
    expect((await sb.request('GET', '/_sandbox/rules')).body).toEqual([]);
    const c = await createCharge(sb, await sb.token(), 10001);
    await advance(sb, 10);
    expect((await status(c.transactionId)).status).toBe('WAITING_PAYMENT');
    await sb.request('POST', '/_sandbox/reset');
  });

  it('keys can be added, replaced, read, removed and cleared; they decide settlement', async () => {
    const owner = { name: 'Carlos Dono', document: '11144477735' };
    const add = await sb.request('POST', '/_sandbox/pix-keys', { body: { key: 'Carlos@Example.com', keyType: 'e-mail', owner } });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ key: 'carlos@example.com', keyType: 'EMAIL', owner, unknown: false });
    const get = await sb.request('GET', `/_sandbox/pix-keys/${encodeURIComponent('CARLOS@example.com')}`);
    expect(get.body.key).toBe('carlos@example.com');

    const t1 = await createTransfer(sb, await sb.token(), 100, { key: 'carlos@example.com', keyType: 'EMAIL', document: '12345678909' });
    const replace = await sb.request('POST', '/_sandbox/pix-keys', {
      body: { key: 'carlos@example.com', keyType: 'EMAIL', owner, unknown: true },
    });
    expect(replace.status).toBe(200);
    const t2 = await createTransfer(sb, await sb.token(), 100, { key: 'carlos@example.com', keyType: 'EMAIL' });
    await advance(sb, 2);
    expect((await status(t1.transactionId)).error.code).toBe('KEY_NOT_FOUND'); // the directory at settlement decides
    expect((await status(t2.transactionId)).error.code).toBe('KEY_NOT_FOUND');

    expect((await sb.request('DELETE', '/_sandbox/pix-keys/carlos@example.com')).status).toBe(204);
    expect((await sb.request('GET', '/_sandbox/pix-keys/carlos@example.com')).status).toBe(404);
    const t3 = await createTransfer(sb, await sb.token(), 100, { key: 'carlos@example.com', keyType: 'EMAIL', document: '12345678909' });
    await advance(sb, 2);
    expect(await status(t3.transactionId)).toMatchObject({ status: 'COMPLETED', receiver: { document: '12345678909' } });

    const badKey = await sb.request('POST', '/_sandbox/pix-keys', { body: { key: '123', keyType: 'CPF', owner } });
    expect(errorShape(badKey).error.details[0]?.path).toBe('/key');
    expect((await sb.request('DELETE', '/_sandbox/pix-keys')).status).toBe(204);
    expect((await sb.request('GET', '/_sandbox/pix-keys')).body).toEqual([]);
    await sb.request('POST', '/_sandbox/reset');
    expect((await sb.request('GET', '/_sandbox/pix-keys')).body.length).toBe(5);
  });
});
