// The change stream the dashboard listens to (GET /_sandbox/changes, docs/control-api.md#the-change-stream),
// read as server-sent events over real HTTP: a stream hears the topics it asked for and no other, of
// one tenant when it names one; the journal, the clock and a reset are heard too; it is a control
// call like the others (the admin token, validation, the OpenAPI document); stop() ends it cleanly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponse } from '../helpers/openapi-check.js';
import { DEFAULT_ACCOUNT_ID, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

interface Sse {
  event: string;
  data: any;
}

/** Opens the stream and reads its events one at a time. */
async function listen(sb: TestSandbox, query = '', headers: Record<string, string> = {}) {
  const res = await fetch(`${sb.url}/_sandbox/changes${query}`, { headers });
  // documented like every answer an integration test sees (status, headers, media type)
  expect(
    checkResponse({ method: 'GET', url: `/_sandbox/changes${query}`, status: res.status, headers: res.headers, body: '', text: '' }),
  ).toBe(null);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    res,
    /** the next event (comments skipped), or null once the stream has ended */
    async next(timeoutMs = 10_000): Promise<Sse | null> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) return { event, data: JSON.parse(data) };
          continue;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no event within ${timeoutMs} ms (got: ${JSON.stringify(buffer)})`);
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms`)), left))),
        ]).finally(() => clearTimeout(timer));
        if (chunk.done) return null;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}

async function until(what: string, fn: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('GET /_sandbox/changes', { timeout: 30_000 }, () => {
  let sb: TestSandbox;
  let token: string;
  const charge = async (tok: string, description: string) => {
    const r = await sb.request('POST', '/v1/banking/cash-in/pix', {
      token: tok,
      body: { amount: 1000, description, customer: { name: 'Maria Silva', document: '52998224725' } },
    });
    expect(r.status).toBe(201);
    return r.body.transactionId as string;
  };

  beforeAll(async () => {
    sb = await startTestSandbox();
    token = await sb.token();
  });
  afterAll(() => sb?.stop());

  it('starts with `ready`, naming what it hears; with no topics it hears every topic', async () => {
    const all = await listen(sb);
    expect(all.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(all.res.headers.get('cache-control')).toBe('no-store');
    const ready = await all.next();
    expect(ready?.event).toBe('ready');
    expect(ready?.data.accountId).toBeNull();
    expect(ready?.data.topics).toContain('transactions');
    expect(ready?.data.topics).toContain('requests');
    await all.close();
  });

  it('hears the topics it asked for and no other', async () => {
    const s = await listen(sb, '?topics=rules,faults');
    expect((await s.next())?.data).toEqual({ topics: ['rules', 'faults'], accountId: null });
    // a key (not heard), then a rule: the first event is the rule's alone
    expect(
      (
        await sb.request('POST', '/_sandbox/pix-keys', {
          body: { key: 'stream@example.com', keyType: 'EMAIL', owner: { name: 'S', document: '52998224725' } },
        })
      ).status,
    ).toBe(201);
    expect(
      (await sb.request('POST', '/_sandbox/rules', { body: { match: { type: 'CASH_IN', amount: 4242 }, outcome: { action: 'wait' } } }))
        .status,
    ).toBe(201);
    expect(await s.next()).toEqual({ event: 'change', data: { topics: ['rules'], transactionIds: [], reset: false } });
    await s.close();
  });

  it("of one tenant, hears that tenant's changes alone, naming the transactions", async () => {
    const other = await sb.request('POST', '/_sandbox/accounts', { body: { name: 'Stream tenant', client_secret: 'stream-secret-1' } });
    expect(other.status).toBe(201);
    const otherToken = await sb.token({ client_id: other.body.client_id, client_secret: 'stream-secret-1' });
    const s = await listen(sb, `?topics=transactions&accountId=${DEFAULT_ACCOUNT_ID}`);
    expect((await s.next())?.data.accountId).toBe(DEFAULT_ACCOUNT_ID);
    // the other tenant's charge first: had it been heard, its event would come first, without our id
    await charge(otherToken, 'other tenant');
    const ours = await charge(token, 'our tenant');
    const event = await s.next();
    expect(event?.data.topics).toEqual(['transactions']);
    expect(event?.data.transactionIds).toContain(ours);
    await s.close();
  });

  it('hears the request journal, the clock and a reset', async () => {
    const s = await listen(sb, '?topics=requests,clock,accounts');
    await s.next();
    expect((await sb.request('GET', '/v1/banking/balance', { token })).status).toBe(200);
    expect((await s.next())?.data.topics).toEqual(['requests']);
    expect((await sb.request('POST', '/_sandbox/clock/advance', { body: { seconds: 60 } })).status).toBe(200);
    expect((await s.next())?.data.topics).toContain('clock');
    expect((await sb.request('POST', '/_sandbox/reset', { body: {} })).status).toBe(200);
    let event = await s.next();
    while (event && !event.data.reset) event = await s.next(); // the walk's own changes may come first
    expect(event?.data).toEqual({ topics: ['requests', 'clock', 'accounts'], transactionIds: null, reset: true });
    await s.close();
    token = await sb.token();
  });

  it('tells every open stream with one event per batch, and forgets a stream that closed', async () => {
    const streams = await Promise.all([1, 2, 3].map(() => listen(sb, '?topics=transactions')));
    for (const s of streams) await s.next();
    expect(sb.running.ctx.changeFeed?.size).toBe(3);
    const id = await charge(token, 'three listeners');
    for (const s of streams) expect((await s.next())?.data.transactionIds).toContain(id);
    await streams[0]!.close();
    await until('the closed stream to leave the feed', () => sb.running.ctx.changeFeed?.size === 2);
    for (const s of streams.slice(1)) await s.close();
    await until('every stream to leave the feed', () => sb.running.ctx.changeFeed?.size === 0);
  });

  it('refuses unknown topics and accounts, naming the problem', async () => {
    const bad = await sb.request('GET', '/_sandbox/changes?topics=transactions,nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: '/query/topics', message: expect.stringContaining('accounts, clock, transactions') }]);
    // a HEAD has no body: it is answered at once, not held open
    const head = await sb.request('HEAD', '/_sandbox/changes');
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const notUuid = await sb.request('GET', '/_sandbox/changes?accountId=nope');
    expect(notUuid.status).toBe(400);
    const unknown = await sb.request('GET', `/_sandbox/changes?accountId=${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });
});

describe('GET /_sandbox/changes with an admin token, and at stop', { timeout: 30_000 }, () => {
  it('needs the token in its header, like every control call, and ends cleanly when the sandbox stops', async () => {
    const sb = await startTestSandbox({ adminToken: 'stream-admin-token' });
    try {
      const refused = await sb.request('GET', '/_sandbox/changes');
      expect(refused.status).toBe(401);
      const s = await listen(sb, '', { 'x-sandbox-admin-token': 'stream-admin-token' });
      expect(s.res.status).toBe(200);
      expect((await s.next())?.event).toBe('ready');
      // stop() ends the stream (a clean end of the body, not a connection cut by the 3 s force timer)
      const stopping = sb.stop();
      expect(await s.next()).toBeNull();
      await stopping;
    } finally {
      await sb.stop();
    }
  });
});
