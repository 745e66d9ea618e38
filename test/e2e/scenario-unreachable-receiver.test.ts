// A scenario whose expected webhook never reaches the runner's receiver, through the real CLI: the
// sandbox is told a receiver URL it cannot use (nothing listens there; a server that never answers;
// a server that answers 404), and the step's failure says what the sandbox's attempts got, read from
// its delivery log, with the container hint (host.docker.internal, host.containers.internal) when the
// receiver could not be reached at all.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const BIN = path.resolve('dist/bin/pix-sandbox.js');

const SCENARIO = `name: A charge whose webhook goes nowhere
steps:
  - name: create a charge
    request:
      method: POST
      path: /v1/banking/cash-in/pix
      body: { amount: 1050, description: Order 1, customer: { name: Ana Lima, document: "52998224725" } }
    save: charge
  - name: the cashin.created webhook arrives
    expectWebhook: { type: cashin.created, within: WITHIN }
`;

function scenarioRun(file: string, baseUrl: string, receiverUrl: string): Promise<{ code: number; out: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'scenario', 'run', file, '--base-url', baseUrl, '--receiver-url', receiverUrl],
      { env: { ...env, NO_COLOR: '1' }, timeout: 60_000, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: stdout + stderr }),
    );
  });
}

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

let sandbox: TestSandbox;
let tmp: string;
/** accepts connections and never answers (a receiver that hangs) */
let silent: net.Server;
const held: net.Socket[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'pix-unreachable-'));
  silent = net.createServer((s) => held.push(s.on('error', () => undefined)));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
});

afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise((r) => silent?.close(r));
  await sandbox?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function run(name: string, within: number, receiverUrl: string) {
  const file = path.join(tmp, `${name}.yaml`);
  await writeFile(file, SCENARIO.replace('WITHIN', String(within)));
  return scenarioRun(file, sandbox.url, receiverUrl);
}

describe('an expectWebhook step whose receiver the sandbox cannot use', () => {
  it('connection refused: names the attempts and the receiver address for a sandbox in a container', async () => {
    const port = await closedPort();
    const r = await run('refused', 2, `http://127.0.0.1:${port}`);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/no cashin\.created event within 2 s \(received: nothing\)/);
    expect(r.out).toMatch(
      new RegExp(
        `the sandbox's deliveries to http://127\\.0\\.0\\.1:${port}/hooks/\\w+: cashin\\.created PENDING after 1 attempt: connection refused \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\); next attempt at `,
      ),
    );
    expect(r.out).toContain(`the sandbox could not reach the receiver at http://127.0.0.1:${port}/hooks/`);
    expect(r.out).toContain(`--receiver-host 0.0.0.0 --receiver-port ${port} --receiver-url http://host.docker.internal:${port}`);
    expect(r.out).toContain(`http://host.containers.internal:${port}`);
    expect(r.out).toContain('0 passed, 1 failed, 1 total');
  }, 90_000);

  it('a receiver that answers 404: names the status, and gives no container hint (the sandbox reached it)', async () => {
    const r = await run('status', 2, `${sandbox.url}/not-a-receiver`);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(
      /the sandbox's deliveries to http:\/\/127\.0\.0\.1:\d+\/not-a-receiver\/hooks\/\w+: cashin\.created PENDING after 1 attempt: answered 404/,
    );
    expect(r.out).not.toContain('host.docker.internal');
  }, 90_000);

  it('a receiver that never answers: names the timeout, and gives the container hint', async () => {
    const { port } = silent.address() as net.AddressInfo;
    // an attempt waits 5 s for an answer (docs/webhooks.md#delivery-and-retries)
    const r = await run('timeout', 7, `http://127.0.0.1:${port}`);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/cashin\.created PENDING after 1 attempt: timed out \(timeout: no answer within 5000 ms\)/);
    expect(r.out).toContain('host.containers.internal');
  }, 90_000);
});
