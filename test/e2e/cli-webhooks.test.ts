// `pix-sandbox webhooks fault …` and `webhooks send` (docs/cli.md), the shipped command against an
// in-process sandbox and a real receiver on 127.0.0.1. The same operations over HTTP and through
// ControlClient are test/integration/webhooks-send-any.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/verify.js';
import { cli as run } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { register } from '../helpers/webhook-steps.js';

let sb: TestSandbox;
let rx: Receiver;
let ep: { id: string; secret: string };

beforeAll(async () => {
  rx = await startReceiver();
  sb = await startTestSandbox();
  ep = await register(sb, { url: rx.url });
  rx.behave((_n, r) =>
    verifySignature({ payload: r.raw, header: r.headers['x-sandbox-signature'] as string, secret: ep.secret })
      ? { status: 202 }
      : { status: 401 },
  );
});
afterAll(async () => {
  await sb.stop();
  await rx.close();
});

const cli = (...args: string[]) => run([...args, '--base-url', sb.url], { timeoutMs: 30_000 });

describe('pix-sandbox webhooks, from the shell', () => {
  it('pix-sandbox webhooks fault add | list | remove, and webhooks send', async () => {
    const added = await cli('webhooks', 'fault', 'add', 'stale-signature', '--endpoint-id', ep.id, '--times', '3');
    expect(added.code).toBe(0);
    const fault = JSON.parse(added.stdout);
    expect(fault).toMatchObject({ action: 'stale-signature', times: 3, remaining: 3, endpointId: ep.id });
    expect(JSON.parse((await cli('webhooks', 'fault', 'list')).stdout).map((x: any) => x.id)).toEqual([fault.id]);
    expect((await cli('webhooks', 'fault', 'remove', fault.id)).code).toBe(0);
    const bad = await cli('webhooks', 'fault', 'add', 'drop', '--seconds', '5', '--times', '-1');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/\/seconds: is only for action delay/);
    expect(bad.stderr).toMatch(/\/times: /);

    const sent = await cli('webhooks', 'send', ep.id, '--body', '{"id":"evt_cli","type":"cashout.failed"}', '--signature', 'bad');
    expect(sent.code).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ statusCode: 401, error: null });
    expect(rx.received.at(-1)!.raw).toBe('{"id":"evt_cli","type":"cashout.failed"}');
    expect((await cli('webhooks', 'send', ep.id, '--body', '{not json')).code).toBe(2);
  });
});
