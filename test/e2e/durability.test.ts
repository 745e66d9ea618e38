// Durability of the real binary (docs/decisions.md#d39-durability): SIGKILL mid-stream loses no answered change and
// leaves a whole snapshot; a corrupt file stops start-up (exit 2) untouched; SIGTERM drains.
// Uses the compiled CLI: `npm test` builds dist first.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCpf } from '../../src/domain/documents.js';
import { packagePath } from '../../src/paths.js';
import { DEFAULT_CLIENT } from '../helpers/sandbox.js';
import { snapshotFile } from '../helpers/store-checks.js';

const BIN = packagePath('dist', 'bin', 'pix-sandbox.js');
const TRIALS = 5;
const IN_FLIGHT = 8;

interface Child {
  proc: ChildProcess;
  url: string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: () => string;
}

function run(dataDir: string): { proc: ChildProcess; exit: Child['exit']; stdout: () => string; stderr: () => string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_')));
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--https-port', 'off'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, exit, stdout: () => out, stderr: () => err };
}

async function start(dataDir: string): Promise<Child> {
  const c = run(dataDir);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const m = /listening on (http:\/\/\S+)/.exec(c.stdout());
    if (m) return { proc: c.proc, url: m[1]!, exit: c.exit, stderr: c.stderr };
    if (c.proc.exitCode !== null || Date.now() > deadline) {
      c.proc.kill('SIGKILL');
      throw new Error(`the sandbox did not start: ${c.stdout()} ${c.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function getToken(url: string): Promise<string> {
  const r = await fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEFAULT_CLIENT),
  });
  return ((await r.json()) as { access_token: string }).access_token;
}

/** One merchant creation; resolves with its id when the 201 arrived, null when the connection died. */
async function createMerchant(url: string, token: string): Promise<string | null> {
  try {
    const r = await fetch(`${url}/v1/merchants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Crash Test',
        document: generateCpf(Math.random),
        document_type: 'CPF',
        email: 'c@t.example',
        phone: '11912345678',
      }),
    });
    const body = (await r.json()) as { data: { merchant: { id: string } } };
    if (r.status !== 201) throw new Error(`unexpected ${r.status}: ${JSON.stringify(body)}`);
    return body.data.merchant.id;
  } catch (e) {
    if ((e as Error).message.startsWith('unexpected')) throw e;
    return null; // killed mid-request: never answered
  }
}

async function listAll(url: string, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let page = 1; ; page++) {
    const r = await fetch(`${url}/v1/merchants?limit=100&page=${page}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await r.json()) as { data: { merchantId: string }[]; pagination: { totalPages: number } };
    for (const m of body.data) ids.add(m.merchantId);
    if (page >= body.pagination.totalPages) return ids;
  }
}

let dir: string;
const children: ChildProcess[] = [];
beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" (npm test does) before this test`);
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-durability-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('durability of the served store', () => {
  it(`keeps every answered merchant across ${TRIALS} SIGKILLs mid-stream, and the snapshot is always whole`, async () => {
    const dataDir = path.join(dir, 'crash');
    const acked: string[] = [];
    let token: string | null = null;
    for (let trial = 0; trial < TRIALS; trial++) {
      const child = await start(dataDir);
      children.push(child.proc);
      // the signing secret is in the store: a token from before the crash still works after it
      token ??= await getToken(child.url);
      const before = await listAll(child.url, token);
      for (const id of acked) expect(before.has(id), `trial ${trial}: answered merchant ${id} lost`).toBe(true);

      let stop = false;
      const ackedThisTrial: string[] = [];
      const worker = async () => {
        while (!stop) {
          const id = await createMerchant(child.url, token!);
          if (!id) return; // the connection died with the process
          ackedThisTrial.push(id);
        }
      };
      const workers = Array.from({ length: IN_FLIGHT }, worker);
      // kill at a random moment once the stream is under way
      while (ackedThisTrial.length < 3) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 200));
      stop = true;
      child.proc.kill('SIGKILL');
      await Promise.all(workers);
      expect((await child.exit).signal).toBe('SIGKILL');
      acked.push(...ackedThisTrial);
      // the snapshot on disk is whole right after the crash (the log holds the rest)
      await snapshotFile(path.join(dataDir, 'db.json'));
    }
    const last = await start(dataDir);
    children.push(last.proc);
    const after = await listAll(last.url, token!);
    for (const id of acked) expect(after.has(id), `answered merchant ${id} lost`).toBe(true);
    expect(acked.length).toBeGreaterThanOrEqual(TRIALS * 3);
    last.proc.kill('SIGTERM');
    expect((await last.exit).code).toBe(0);
    const file = await snapshotFile(path.join(dataDir, 'db.json'));
    for (const id of acked) expect(file.merchants[id]).toBeDefined();
  }, 90_000);

  it('stops start-up with exit code 2 on a corrupt data file, names it, and leaves it byte-for-byte unchanged', async () => {
    const dataDir = path.join(dir, 'corrupt');
    const seeded = await start(dataDir);
    children.push(seeded.proc);
    seeded.proc.kill('SIGTERM');
    await seeded.exit;
    const file = path.join(dataDir, 'db.json');
    const good = await readFile(file);
    const corrupt = Buffer.concat([good.subarray(0, Math.floor(good.length / 2)), Buffer.from('\u0000garbage')]);
    await writeFile(file, corrupt);
    const listing = (await readdir(dataDir)).sort();
    const c = run(dataDir);
    children.push(c.proc);
    const { code } = await c.exit;
    expect(code).toBe(2);
    expect(c.stderr()).toContain(file);
    expect(c.stdout()).not.toContain('listening on');
    expect((await readFile(file)).equals(corrupt)).toBe(true);
    expect((await readdir(dataDir)).sort()).toEqual(listing);
  }, 30_000);

  it('on SIGTERM finishes the requests in flight, flushes, and exits 0 within 5 s', async () => {
    const dataDir = path.join(dir, 'sigterm');
    const child = await start(dataDir);
    children.push(child.proc);
    const token = await getToken(child.url);
    const requests = Array.from({ length: IN_FLIGHT }, () => createMerchant(child.url, token));
    // once the first answer is back, the others are inside the server (each costs a scrypt hash)
    await Promise.race(requests);
    const t0 = Date.now();
    child.proc.kill('SIGTERM');
    const ids = await Promise.all(requests);
    const { code } = await child.exit;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    const file = await snapshotFile(path.join(dataDir, 'db.json'));
    for (const id of ids) expect(file.merchants[id!]).toBeDefined();
    // and the next start serves them
    const again = await start(dataDir);
    children.push(again.proc);
    const listed = await listAll(again.url, token);
    for (const id of ids) expect(listed.has(id!)).toBe(true);
    again.proc.kill('SIGTERM');
    expect((await again.exit).code).toBe(0);
  }, 30_000);
});
