// A start that fails half-way (a port taken, an unusable certificate) rejects, and releases what it
// had opened: the store's files, listeners, the workers' timers. A test suite that carries on leaks nothing.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { TlsConfigError } from '../../src/http/tls.js';
import { startSandbox } from '../../src/index.js';

const openFiles = () => readdirSync('/proc/self/fd').length;
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

test('a port already in use rejects the start and leaves no file open', async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-boot-'));
    dirs.push(dataDir);
    const before = openFiles();
    await expect(startSandbox({ port, dataDir })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(openFiles()).toBe(before);
    // the same folder opens again at once, on a free port
    const again = await startSandbox({ dataDir });
    expect((await again.client.getBalance()).data.balance).toBeGreaterThan(0);
    await again.stop();
  } finally {
    await new Promise<void>((r) => blocker.close(() => r()));
  }
});

test('an unusable certificate, or an HTTPS port in use, rejects the start and leaves no file or socket open', async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-boot-'));
    dirs.push(dataDir);
    const before = openFiles();
    const missing = path.join(dataDir, 'missing.pem');
    await expect(startSandbox({ dataDir, https: true, config: { tlsCert: missing, tlsKey: missing } })).rejects.toBeInstanceOf(TlsConfigError);
    expect(openFiles()).toBe(before);
    // the HTTP listener was up when HTTPS failed: it is closed again too
    await expect(startSandbox({ dataDir, https: port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(openFiles()).toBe(before);
    const again = await startSandbox({ dataDir });
    expect((await again.client.getBalance()).data.balance).toBeGreaterThan(0);
    await again.stop();
  } finally {
    await new Promise<void>((r) => blocker.close(() => r()));
  }
});
