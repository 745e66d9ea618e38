// Control lists a page at a time (docs/store.md): every filter of GET /_sandbox/transactions and of
// the delivery log, followed page by page through x-sandbox-next-cursor (and the Link header),
// gives exactly the whole list, newest first by creation, without a repeat; a page stays the same
// while newer records arrive; a bad cursor is a VALIDATION_ERROR naming it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type HttpResult, type TestSandbox } from '../helpers/sandbox.js';
import { cpf, prng } from '../helpers/torture.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let sb: TestSandbox;
let receiver: Receiver;
let second: string;
/** every transaction this file made, oldest first */
const made: { id: string; accountId: string }[] = [];

const all = async (path: string) => {
  const r = await sb.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`);
  expect(r.status, path).toBe(200);
  expect(r.headers.get('x-sandbox-next-cursor'), `${path}: one page holds it all`).toBeNull();
  return r.body as { id: string }[];
};

/** Follows the pages of `path` (limit `limit`) to the end, checking the headers of each. */
async function pages(path: string, limit: number): Promise<{ id: string }[][]> {
  const out: { id: string }[][] = [];
  let next: string | null = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`;
  while (next) {
    const r: HttpResult = await sb.request('GET', next);
    expect(r.status, next).toBe(200);
    const items = r.body as { id: string }[];
    out.push(items);
    const cursor = r.headers.get('x-sandbox-next-cursor');
    const link: string | null = r.headers.get('link');
    if (cursor === null) {
      expect(link, `${next}: no Link on the last page`).toBeNull();
      next = null;
    } else {
      expect(items.length, `${next}: a full page before a cursor`).toBe(limit);
      const url: string | undefined = /^<([^>]+)>; rel="next"$/.exec(link ?? '')?.[1];
      expect(url, `${next}: the Link header names the next page`).toBeDefined();
      expect(new URL(url!, 'http://x').searchParams.get('after')).toBe(cursor);
      next = url!;
    }
    expect(out.length, 'pages end').toBeLessThan(100);
  }
  return out;
}

beforeAll(async () => {
  [sb, receiver] = await Promise.all([startTestSandbox(), startReceiver()]);
  const acc = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Second tenant', balance: 10_000_000 } });
  expect(acc.status).toBe(201);
  second = acc.body.id;
  const tokens = {
    [DEFAULT_ACCOUNT_ID]: await sb.token(),
    [second]: await sb.token({ client_id: acc.body.client_id, client_secret: acc.body.client_secret }),
  };
  // the default account's events go to a receiver: deliveries to page through
  expect((await sb.request('POST', '/_sandbox/webhooks', { body: { url: receiver.url } })).status).toBe(201);
  const rand = prng(41);
  for (let i = 0; i < 40; i++) {
    const accountId = i % 3 === 0 ? second : DEFAULT_ACCOUNT_ID;
    const token = tokens[accountId];
    const r =
      i % 2 === 0
        ? await sb.request('POST', '/v1/banking/cash-in/pix', {
            token,
            body: {
              amount: 100 + i,
              description: `paging ${i}`,
              externalId: i % 4 === 0 ? 'shared-order' : `order-${i}`,
              customer: { name: 'Ana', document: cpf(rand) },
            },
          })
        : await sb.request('POST', '/v1/banking/cash-out/pix', {
            token,
            headers: { 'x-idempotency-key': randomUUID() },
            body: { type: 'pix_key', description: `paging ${i}`, amount: '10', details: { name: 'Bia', key: cpf(rand), keyType: 'CPF' } },
          });
    expect(r.status, `transaction ${i}`).toBe(201);
    made.push({ id: r.body.transactionId as string, accountId });
    // some charges paid, some cancelled: every status has members
    if (i % 2 === 0 && i % 6 === 2)
      expect((await sb.request('POST', `/_sandbox/charges/${made.at(-1)!.id}/pay`, { body: {} })).status).toBe(200);
    if (i % 10 === 4 && i % 6 !== 2) expect((await sb.request('POST', `/_sandbox/charges/${made.at(-1)!.id}/cancel`)).status).toBe(200);
    if (i % 4 === 3) expect((await sb.request('POST', `/_sandbox/transfers/${made.at(-1)!.id}/complete`)).status).toBe(200);
  }
});

afterAll(async () => {
  await sb?.stop();
  await receiver?.close();
});

describe('control lists, a page at a time', () => {
  it('lists transactions newest first by creation, and every filter pages to exactly its whole list', async () => {
    const everything = await all('/_sandbox/transactions');
    expect(everything.map((t) => t.id)).toEqual([...made].reverse().map((t) => t.id));
    const filters = [
      '',
      `accountId=${second}`,
      `accountId=${DEFAULT_ACCOUNT_ID.toUpperCase()}`,
      'type=CASH_IN',
      'type=CASH_OUT',
      'status=WAITING_PAYMENT',
      'status=PAID',
      'status=COMPLETED',
      `accountId=${DEFAULT_ACCOUNT_ID}&type=CASH_OUT`,
      `accountId=${second}&status=PROCESSING`,
      'type=CASH_IN&status=CANCELLED',
      'type=CASH_OUT&status=PAID', // a status of the other type: nothing
      'externalId=shared-order',
      `externalId=shared-order&accountId=${second}`,
    ];
    for (const f of filters) {
      const path = `/_sandbox/transactions${f ? `?${f}` : ''}`;
      const whole = await all(path);
      const paged = await pages(path, 3);
      const ids = paged.flat().map((t) => t.id);
      expect(ids, path).toEqual(whole.map((t) => t.id));
      expect(new Set(ids).size, `${path}: no repeats`).toBe(ids.length);
    }
    // the filters select what they say (checked against the records themselves)
    const byAccount = (await all(`/_sandbox/transactions?accountId=${second}`)).map((t) => t.id);
    expect(byAccount).toEqual(
      made
        .filter((t) => t.accountId === second)
        .map((t) => t.id)
        .reverse(),
    );
    const shared = await all('/_sandbox/transactions?externalId=shared-order');
    expect(shared.length).toBe(10);
    expect(await all('/_sandbox/transactions?type=CASH_OUT&status=PAID')).toEqual([]);
  });

  it('keeps a page the same while newer transactions arrive, and refuses a cursor that is not one', async () => {
    const first = await sb.request('GET', '/_sandbox/transactions?limit=5');
    const cursor = first.headers.get('x-sandbox-next-cursor')!;
    const before = (await sb.request('GET', `/_sandbox/transactions?limit=5&after=${cursor}`)).body as { id: string }[];
    const token = await sb.token();
    for (let i = 0; i < 3; i++)
      await sb.request('POST', '/v1/banking/cash-in/pix', {
        token,
        body: { amount: 500, description: 'late', customer: { name: 'Ana', document: cpf(prng(i)) } },
      });
    const after = (await sb.request('GET', `/_sandbox/transactions?limit=5&after=${cursor}`)).body as { id: string }[];
    expect(after.map((t) => t.id)).toEqual(before.map((t) => t.id));
    for (const bad of ['-1', 'abc', '1.5', '99999999999']) {
      const r = await sb.request('GET', `/_sandbox/transactions?after=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain('/query/after');
    }
  });

  it('pages the delivery log, and the other lists that grow, the same way', async () => {
    await receiver.waitFor(20);
    for (const f of [
      '',
      'status=DELIVERED',
      `transactionId=${made[1]!.id}`,
      `accountId=${DEFAULT_ACCOUNT_ID}`,
      'eventType=cashin.created',
    ]) {
      const path = `/_sandbox/webhooks/deliveries${f ? `?${f}` : ''}`;
      const whole = await all(path);
      expect(whole.length, path).toBeGreaterThan(0);
      expect(
        (await pages(path, 4)).flat().map((d) => d.id),
        path,
      ).toEqual(whole.map((d) => d.id));
    }
    for (const path of ['/_sandbox/accounts', '/_sandbox/merchants', '/_sandbox/pix-keys', '/_sandbox/webhooks']) {
      const whole = await all(path);
      const paged = (await pages(path, 1)).flat();
      expect(
        paged.map((x) => JSON.stringify(x)),
        path,
      ).toEqual(whole.map((x) => JSON.stringify(x)));
    }
    expect((await all('/_sandbox/accounts')).map((a) => a.id)).toEqual([DEFAULT_ACCOUNT_ID, second]);
  });
});
