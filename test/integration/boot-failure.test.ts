// A start that fails half-way (a port taken, an unusable certificate) rejects, and releases what it
// had opened: the store's files, listeners, the workers' timers. A test suite that carries on leaks nothing.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { TlsConfigError } from '../../src/http/tls.js';
import { startSandbox } from '../../src/index.js';

const openFiles = () => readdirSync('/proc/self/fd').length;
const dirs: string[] = [];
// a port something else already listens on
const blocker = net.createServer();
let port: number;
beforeAll(async () => {
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  port = (blocker.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => blocker.close(() => r()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-boot-'));
  dirs.push(dir);
  return dir;
}

/** The same folder opens again at once, on free ports: nothing of the failed start holds it. */
async function opensAgain(dataDir: string): Promise<void> {
  const before = openFiles();
  const again = await startSandbox({ dataDir });
  expect((await again.client.getBalance()).data.balance).toBeGreaterThan(0);
  await again.stop();
  // the client's kept-alive socket would otherwise close at some point of the next test, under its count
  http.globalAgent.destroy();
  // the client's keep-alive socket closes when the server's goodbye reaches it, a moment after
  // stop(): wait for that, so that the next count starts from a settled process
  for (const deadline = Date.now() + 5000; openFiles() > before && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 10));
}

test('a port already in use rejects the start and leaves no file open', async () => {
  const dataDir = await dataFolder();
  const before = openFiles();
  await expect(startSandbox({ port, dataDir })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  expect(openFiles()).toBe(before);
  await opensAgain(dataDir);
});

test('an unusable certificate, or an HTTPS port in use, rejects the start and leaves no file or socket open', async () => {
  const dataDir = await dataFolder();
  const before = openFiles();
  const missing = path.join(dataDir, 'missing.pem');
  await expect(startSandbox({ dataDir, https: true, config: { tlsCert: missing, tlsKey: missing } })).rejects.toBeInstanceOf(
    TlsConfigError,
  );
  expect(openFiles()).toBe(before);
  // the HTTP listener was up when HTTPS failed: it is closed again too
  await expect(startSandbox({ dataDir, https: port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  expect(openFiles()).toBe(before);
  await opensAgain(dataDir);
});
