// `pix-sandbox wait` and side-by-side starts, through the shipped command: a CI step that starts the
// sandbox in the background, waits for it to be ready, and runs its tests; two jobs on one machine.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { cleanEnv, launch, listenedPorts, type Launched } from '../helpers/process.js';

const BIN = packagePath('dist', 'bin', 'pix-sandbox.js');
const run = promisify(execFile);
const launched: Launched[] = [];
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(launched.splice(0).map((l) => l.stopGroup()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function serve(args: string[]): Launched {
  const l = launch(BIN, ['serve', '--memory', ...args], { cwd: packagePath() });
  launched.push(l);
  return l;
}

/** `pix-sandbox wait …`: its exit code and output (execFile rejects on a non-zero exit). */
async function waitCmd(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run(BIN, ['wait', ...args], { env: cleanEnv(), timeout: 60_000 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('pix-sandbox wait', () => {
  it('waits through "connection refused" while the sandbox starts, then exits 0 once it is ready', async () => {
    const port = await freePort();
    const waiting = waitCmd(['--base-url', `http://127.0.0.1:${port}`, '--timeout', '60']);
    await new Promise((r) => setTimeout(r, 300)); // wait is already polling when the sandbox starts
    serve(['--port', String(port), '--https-port', 'off']);
    const r = await waiting;
    expect(r, r.out).toMatchObject({ code: 0 });
    expect(r.out).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port} is ready \\(pix-sandbox \\d+\\.\\d+\\.\\d+, after \\d+ ms\\)$`, 'm'));
    const health = (await (await fetch(`http://127.0.0.1:${port}/_sandbox/health`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: 'ok', ready: true, checks: { listening: true, storeOpen: true, fixturesLoaded: true } });
  });

  it('exits 1 after --timeout, saying the connection was refused when nothing listens', async () => {
    const port = await freePort();
    const r = await waitCmd(['--base-url', `http://127.0.0.1:${port}`, '--timeout', '1']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/was not ready after 1 s \(\d+ attempts\); last seen: connection refused/);
  });

  it('exits 1 after --timeout, saying what answered when something else listens there', async () => {
    const other = http.createServer((_req, res) => res.writeHead(404).end('not here'));
    servers.push(other);
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const r = await waitCmd(['--base-url', `http://127.0.0.1:${(other.address() as AddressInfo).port}`, '--timeout', '1']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/last seen: HTTP 404 without a pix-sandbox health answer/);
  });

  it('reads PIX_SANDBOX_URL, and a timeout that is not a positive number is bad usage (exit 2)', async () => {
    const bad = await waitCmd(['--timeout', '0']);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--timeout must be a positive number of seconds');
    const port = await freePort();
    try {
      await run(BIN, ['wait', '--timeout', '0.5'], { env: cleanEnv({ PIX_SANDBOX_URL: `http://127.0.0.1:${port}` }) });
      expect.unreachable('nothing listens there');
    } catch (e) {
      expect((e as { stderr: string }).stderr).toContain(`http://127.0.0.1:${port} was not ready`);
    }
  });
});

describe('--port 0', () => {
  it('two sandboxes started with the same flags run side by side, each on free HTTP and HTTPS ports, both ready', async () => {
    const [a, b] = [serve(['--port', '0']), serve(['--port', '0'])];
    await Promise.all([a.waitFor(/^data file: /m), b.waitFor(/^data file: /m)]);
    const ports = [...listenedPorts(a.out()), ...listenedPorts(b.out())];
    expect(ports).toHaveLength(4);
    expect(new Set(ports).size).toBe(4);
    expect(ports).not.toContain(8443);
    for (const l of [a, b]) {
      const url = /listening on (http:\/\/\S+)/.exec(l.out())![1]!;
      const r = await waitCmd(['--base-url', url, '--timeout', '10']);
      expect(r.code, r.out).toBe(0);
    }
  });

  it('the start-up lines name every URL: API, HTTPS, dashboard, OpenAPI document, control API', async () => {
    const l = serve(['--port', '0']);
    await l.waitFor(/^data file: /m);
    const http = /listening on (http:\/\/\S+)/.exec(l.out())![1]!;
    const https = /listening on (https:\/\/\S+)/.exec(l.out())![1]!;
    expect(l.out()).toContain(`API:          ${http}/v1\n`);
    expect(l.out()).toContain(`HTTPS:        ${https}/v1\n`);
    expect(l.out()).toContain(`dashboard:    ${http}/_sandbox/ui\n`);
    expect(l.out()).toContain(`OpenAPI:      ${http}/openapi.json\n`);
    expect(l.out()).toContain(`control API:  ${http}/_sandbox (readiness: ${http}/_sandbox/health)\n`);
    // each named URL answers
    for (const p of ['/_sandbox/ui', '/openapi.json', '/_sandbox/health']) expect((await fetch(http + p)).status, p).toBe(200);
  });

  it('with --https-port off, the start-up lines say HTTPS is off', async () => {
    const l = serve(['--port', '0', '--https-port', 'off']);
    await l.waitFor(/^data file: /m);
    expect(listenedPorts(l.out())).toHaveLength(1);
    expect(l.out()).toContain('HTTPS:        off (--https-port <port> turns it on)');
  });
});
