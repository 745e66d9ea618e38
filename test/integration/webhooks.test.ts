// Webhooks end to end (docs/webhooks.md): a real receiver on 127.0.0.1 gets every event type, in
// order per transaction, signed with the endpoint's secret, with exactly the documented body.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox, DEFAULT_ACCOUNT_ID } from '../helpers/sandbox.js';
import { startReceiver, type Receiver, type Received } from '../helpers/webhook-receiver.js';
import {
  advance,
  cancel,
  cashIn,
  cashOut,
  complete,
  CPF_A,
  deliveries,
  expire,
  fail,
  pay,
  register,
  until,
} from '../helpers/webhook-steps.js';
import { verifySignature } from '../../src/webhooks/verify.js';

let sb: TestSandbox;
let rx: Receiver;
let token: string;

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startTestSandbox();
  token = await sb.token();
});

afterAll(async () => {
  await sb?.stop();
  await rx?.close();
});

beforeEach(async () => {
  await sb.request('DELETE', '/_sandbox/webhooks');
  rx.received.length = 0;
  rx.behave(() => undefined);
});

const ofTx = (id: string) => (r: Received) => r.body?.data?.transactionId === id;
const types = (rs: Received[]) => rs.map((r) => r.body.type);

describe('webhook events', () => {
  it('sends every event type of the contract, in order per transaction, signed, with exactly the documented body', async () => {
    const ep = await register(sb, { url: rx.url });
    expect(ep).toMatchObject({ url: rx.url, events: null, accountId: DEFAULT_ACCOUNT_ID, source: 'api' });
    expect(ep.secret).toMatch(/^whsec_/);
    // the receiver is slow to accept creation events: a later event must still not overtake them
    rx.behave((_n, r) => (String(r.body?.type).endsWith('.created') ? { delayMs: 60 } : undefined));

    const paid = await cashIn(sb, token, 1001);
    await pay(sb, paid);
    const expired = await cashIn(sb, token, 1002);
    await expire(sb, expired);
    const cancelled = await cashIn(sb, token, 1003);
    await cancel(sb, cancelled);
    const completed = await cashOut(sb, token);
    await complete(sb, completed);
    const failed = await cashOut(sb, token);
    await fail(sb, failed, 'BANK_REJECTED');

    await rx.waitFor(10);
    expect(types(rx.received.filter(ofTx(paid)))).toEqual(['cashin.created', 'cashin.paid']);
    expect(types(rx.received.filter(ofTx(expired)))).toEqual(['cashin.created', 'cashin.expired']);
    expect(types(rx.received.filter(ofTx(cancelled)))).toEqual(['cashin.created', 'cashin.cancelled']);
    expect(types(rx.received.filter(ofTx(completed)))).toEqual(['cashout.created', 'cashout.completed']);
    expect(types(rx.received.filter(ofTx(failed)))).toEqual(['cashout.created', 'cashout.failed']);
    // event N+1 of a transaction leaves only after the receiver has answered event N
    for (const id of [paid, expired, cancelled, completed, failed]) {
      const [first, second] = rx.received.filter(ofTx(id));
      expect(second!.at).toBeGreaterThanOrEqual(first!.answeredAt!);
    }
    expect(new Set(types(rx.received))).toEqual(
      new Set([
        'cashin.created',
        'cashin.paid',
        'cashin.expired',
        'cashin.cancelled',
        'cashout.created',
        'cashout.completed',
        'cashout.failed',
      ]),
    );

    const status: Record<string, string> = {
      'cashin.created': 'WAITING_PAYMENT',
      'cashin.paid': 'PAID',
      'cashin.expired': 'EXPIRED',
      'cashin.cancelled': 'CANCELLED',
      'cashout.created': 'PROCESSING',
      'cashout.completed': 'COMPLETED',
      'cashout.failed': 'FAILED',
    };
    for (const r of rx.received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-sandbox-event-id']).toBe(r.body.id);
      const header = r.headers['x-sandbox-signature'] as string;
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature({ payload: r.raw, header, secret: ep.secret })).toBe(true);
      expect(verifySignature({ payload: Buffer.from(r.raw), header, secret: ep.secret })).toBe(true);
      expect(verifySignature({ payload: r.raw, header, secret: 'whsec_another_secret' })).toBe(false);
      expect(verifySignature({ payload: r.raw.replace('"amount":', '"amount": '), header, secret: ep.secret })).toBe(false);

      expect(Object.keys(r.body).sort()).toEqual(['createdAt', 'data', 'id', 'type']);
      expect(r.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const d = r.body.data;
      expect(d.status).toBe(status[r.body.type]);
      expect(d.type).toBe(r.body.type.startsWith('cashin.') ? 'CASH_IN' : 'CASH_OUT');
      expect(typeof d.amount).toBe('number');
      const allowed = ['transactionId', 'type', 'status', 'amount', 'externalId', 'end_to_end_id', 'payer', 'receiver', 'error'];
      expect(Object.keys(d).filter((k) => !allowed.includes(k))).toEqual([]);
    }
    const paidBody = rx.received.find((r) => r.body.type === 'cashin.paid')!.body.data;
    expect(paidBody).toMatchObject({ transactionId: paid, amount: 1001, externalId: 'ext-1001' });
    expect(paidBody.end_to_end_id).toMatch(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/);
    expect(Object.keys(paidBody.payer).sort()).toEqual(['account_number', 'account_type', 'document', 'ispb', 'name']);
    const doneBody = rx.received.find((r) => r.body.type === 'cashout.completed')!.body.data;
    expect(doneBody.receiver).toMatchObject({ key: '11144477735', keyType: 'CPF' });
    expect(rx.received.find((r) => r.body.type === 'cashout.failed')!.body.data.error).toEqual({
      code: 'BANK_REJECTED',
      message: 'rejected by the test',
    });
    expect(rx.received.find((r) => r.body.type === 'cashin.expired')!.body.data.error?.code).toBe('CHARGE_EXPIRED');

    const log = await until(
      () => deliveries(sb, `endpointId=${ep.id}`),
      (ds) => ds.length === 10 && ds.every((d) => d.status === 'DELIVERED'),
    );
    for (const d of log) {
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0]).toMatchObject({ statusCode: 200, error: null });
      expect(d.nextAttemptAt).toBeNull();
    }
  });

  it('a transfer failing on document mismatch at settlement sends cashout.failed whose data.status is FAILED', async () => {
    const ep = await register(sb, { url: rx.url });
    // a CPF key outside the directory is owned by that CPF; another document does not match it
    const id = await cashOut(sb, token, { key: CPF_A, document: '11144477735' });
    await advance(sb, 3); // past settleAfterSeconds (2): settlement, then webhooks, before it answers
    const events = await rx.waitFor(2, ofTx(id));
    expect(types(events)).toEqual(['cashout.created', 'cashout.failed']);
    const failed = events[1]!.body;
    expect(failed.data).toMatchObject({ transactionId: id, type: 'CASH_OUT', status: 'FAILED', amount: 700 });
    expect(failed.data.error.code).toBe('DOCUMENT_MISMATCH');
    expect(
      verifySignature({ payload: events[1]!.raw, header: events[1]!.headers['x-sandbox-signature'] as string, secret: ep.secret }),
    ).toBe(true);
  });

  it('an event filter limits what an endpoint receives; the account decides which endpoints hear of a transaction', async () => {
    await register(sb, { url: `${rx.url}/paid-only`, events: ['cashin.paid'] });
    await register(sb, { url: `${rx.url}/all` });
    const id = await cashIn(sb, token, 1100);
    await pay(sb, id);
    const all = await rx.waitFor(2, (r) => r.path.endsWith('/all'));
    const only = await rx.waitFor(1, (r) => r.path.endsWith('/paid-only'));
    expect(types(all)).toEqual(['cashin.created', 'cashin.paid']);
    expect(types(only)).toEqual(['cashin.paid']);
    await new Promise((r) => setTimeout(r, 100));
    expect(rx.received.filter((r) => r.path.endsWith('/paid-only'))).toHaveLength(1);
    expect(await deliveries(sb, `transactionId=${id}&eventType=cashin.created`)).toHaveLength(1);

    // an endpoint of another account hears of that account's transactions only
    const other = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Other tenant', client_secret: 'other-secret-1' } });
    expect(other.status).toBe(201);
    await register(sb, { url: `${rx.url}/other`, accountId: other.body.id });
    const otherToken = await sb.token({ client_id: other.body.client_id, client_secret: 'other-secret-1' });
    const theirs = await cashIn(sb, otherToken, 1101);
    const ours = await cashIn(sb, token, 1102);
    const [got] = await rx.waitFor(1, (r) => r.path.endsWith('/other'));
    await rx.waitFor(1, (r) => r.path.endsWith('/all') && r.body.data.transactionId === ours);
    expect(got!.body.data.transactionId).toBe(theirs);
    expect(rx.received.filter((r) => r.path.endsWith('/all') && r.body.data.transactionId === theirs)).toEqual([]);
    expect(rx.received.filter((r) => r.path.endsWith('/other'))).toHaveLength(1);
  });

  it('fires an event on demand and redelivers a delivered event with the same event id', async () => {
    const ep = await register(sb, { url: rx.url });
    const id = await cashIn(sb, token, 1200);
    await pay(sb, id);
    await rx.waitFor(2, ofTx(id));

    const fired = await sb.request('POST', '/_sandbox/webhooks/fire', { body: { transactionId: id } });
    expect(fired.status).toBe(201);
    expect(fired.body.event).toMatchObject({ type: 'cashin.paid', data: { transactionId: id, status: 'PAID' } });
    expect(fired.body.deliveries).toHaveLength(1);
    expect(fired.body.deliveries[0]).toMatchObject({ endpointId: ep.id, status: 'PENDING', eventId: fired.body.event.id });
    const third = (await rx.waitFor(3, ofTx(id)))[2]!;
    expect(third.body.id).toBe(fired.body.event.id);
    expect(third.body.type).toBe('cashin.paid');

    // a given type is sent with the transaction's own status
    const typed = await sb.request('POST', '/_sandbox/webhooks/fire', { body: { transactionId: id, type: 'cashin.created' } });
    expect(typed.status).toBe(201);
    const fourth = (await rx.waitFor(4, ofTx(id)))[3]!;
    expect(fourth.body).toMatchObject({ type: 'cashin.created', data: { status: 'PAID' } });

    const wrong = await sb.request('POST', '/_sandbox/webhooks/fire', { body: { transactionId: id, type: 'cashout.failed' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('VALIDATION_ERROR');
    const unknown = await sb.request('POST', '/_sandbox/webhooks/fire', {
      body: { transactionId: '5b0f8a38-4c4a-4f5e-9d1e-6f1f1f1f1f1f' },
    });
    expect(unknown.status).toBe(404);

    const created = (await deliveries(sb, `transactionId=${id}&eventType=cashin.paid`)).find((d) => d.eventId !== fired.body.event.id);
    await until(
      () => deliveries(sb, `transactionId=${id}`),
      (ds) => ds.every((d) => d.status === 'DELIVERED'),
    );
    const again = await sb.request('POST', `/_sandbox/webhooks/deliveries/${created.id}/redeliver`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ eventId: created.eventId, endpointId: ep.id, status: 'PENDING', attempts: [] });
    expect(again.body.id).not.toBe(created.id);
    const fifth = (await rx.waitFor(5, ofTx(id)))[4]!;
    expect(fifth.headers['x-sandbox-event-id']).toBe(created.eventId);
    const both = await until(
      () => deliveries(sb, `eventId=${created.eventId}`),
      (ds) => ds.length === 2 && ds.every((d) => d.status === 'DELIVERED'),
    );
    expect(both[0].id).toBe(again.body.id); // newest first
    const detail = await sb.request('GET', `/_sandbox/webhooks/deliveries/${again.body.id}`);
    expect(detail.body.event).toEqual(JSON.parse(fifth.raw));
  });
});

describe('the request that emits an event', () => {
  it('is not slowed by a receiver that hangs', async () => {
    await register(sb, { url: rx.url });
    // baseline: same request with a receiver that answers at once
    let t0 = performance.now();
    await cashIn(sb, token, 1300);
    const baseline = performance.now() - t0;
    await rx.waitFor(1);

    rx.behave(() => ({ delayMs: 3000 }));
    t0 = performance.now();
    const id = await cashIn(sb, token, 1301);
    const hung = performance.now() - t0;
    await rx.waitFor(1, ofTx(id)); // the webhook did go out, and its receiver is still sitting on it
    const [d] = await deliveries(sb, `transactionId=${id}`);
    expect(d.status).toBe('PENDING');
    expect(d.attempts).toHaveLength(0);
    expect(hung).toBeLessThan(1000); // a third of the receiver's delay
    expect(hung).toBeLessThan(baseline * 5 + 200);
  });
});

describe('the control API of webhooks', () => {
  it('validates registrations, lists, shows and deletes endpoints', async () => {
    const bad = await sb.request('POST', '/_sandbox/webhooks', { body: { url: 'ftp://example.com/x', events: ['cashin.nope'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(['/url', '/events/0']));
    const noAccount = await sb.request('POST', '/_sandbox/webhooks', {
      body: { url: rx.url, accountId: '5b0f8a38-4c4a-4f5e-9d1e-6f1f1f1f1f1f' },
    });
    expect(noAccount.status).toBe(404);

    const ep = await register(sb, { url: rx.url, secret: 'my-own-secret-123', events: ['cashout.failed'] });
    expect(ep).toMatchObject({ secret: 'my-own-secret-123', events: ['cashout.failed'] });
    expect((await sb.request('GET', `/_sandbox/webhooks/${ep.id}`)).body).toEqual(ep);
    expect((await sb.request('GET', '/_sandbox/webhooks')).body).toEqual([ep]);
    expect((await sb.request('GET', `/_sandbox/webhooks?accountId=${DEFAULT_ACCOUNT_ID}`)).body).toEqual([ep]);
    expect((await sb.request('GET', '/_sandbox/webhooks/not-a-uuid')).status).toBe(400);
    const fireGet = await sb.request('GET', '/_sandbox/webhooks/fire');
    expect(fireGet.status).toBe(405);
    expect(fireGet.headers.get('allow')).toBe('POST');
    // every literal beside {id} is one (the operation table's literal siblings), not only the first ones
    const sendGet = await sb.request('GET', '/_sandbox/webhooks/send');
    expect([sendGet.status, sendGet.headers.get('allow')]).toEqual([405, 'POST']);
    const sendsDelete = await sb.request('DELETE', '/_sandbox/webhooks/sends');
    expect([sendsDelete.status, sendsDelete.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await sb.request('GET', '/_sandbox/webhooks/deliveries?status=LOST')).status).toBe(400);
    expect((await sb.request('GET', '/_sandbox/webhooks/deliveries?limit=0')).status).toBe(400);

    const del = await sb.request('DELETE', `/_sandbox/webhooks/${ep.id}`);
    expect(del.status).toBe(204);
    expect((await sb.request('DELETE', `/_sandbox/webhooks/${ep.id}`)).status).toBe(404);
    expect((await sb.request('GET', '/_sandbox/webhooks')).body).toEqual([]);
  });

  it('closes the waiting deliveries of a deleted endpoint as DEAD and answers the log newest first, limited', async () => {
    rx.behave(() => ({ status: 503 }));
    const ep = await register(sb, { url: rx.url });
    const a = await cashIn(sb, token, 1401);
    const b = await cashIn(sb, token, 1402);
    await until(
      () => deliveries(sb, `endpointId=${ep.id}`),
      (ds) => ds.length === 2 && ds.every((d) => d.attempts.length === 1),
    );
    const log = await deliveries(sb, `endpointId=${ep.id}`);
    expect(log.map((d) => d.transactionId)).toEqual([b, a]);
    expect(log[0]).toMatchObject({ status: 'PENDING', url: rx.url, attempts: [{ statusCode: 503, error: null }] });
    expect(Date.parse(log[0].nextAttemptAt) - Date.parse(log[0].attempts[0].at)).toBeGreaterThanOrEqual(10_000);
    expect(await deliveries(sb, `endpointId=${ep.id}&limit=1`)).toHaveLength(1);
    expect(await deliveries(sb, `transactionId=${a}&status=DELIVERED`)).toEqual([]);

    await sb.request('DELETE', '/_sandbox/webhooks');
    const closed = await deliveries(sb, `endpointId=${ep.id}`);
    expect(closed.map((d) => [d.status, d.nextAttemptAt])).toEqual([
      ['DEAD', null],
      ['DEAD', null],
    ]);
    const redeliver = await sb.request('POST', `/_sandbox/webhooks/deliveries/${closed[0].id}/redeliver`);
    expect(redeliver.status).toBe(409);
    expect(redeliver.body.error.code).toBe('INVALID_STATE');
  });
});
