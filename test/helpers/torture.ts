// Shared pieces of the torture tests (test/torture): a seeded PRNG, valid Brazilian documents,
// a sandbox child process that can be SIGKILLed, an offline read of a data folder, and the
// ledger invariant of docs/decisions.md#d30-a-double-entry-ledger computed from the records alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { Transport } from '../../src/client/transport.js';
import { mulberry32 } from '../../src/domain/random.js';
import type { StoreData } from '../../src/store/data.js';
import type { Data, LedgerEntry } from '../../src/store/model.js';
import { WalAdapter } from '../../src/store/wal-adapter.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'dist/bin/pix-sandbox.js'); // the command as shipped (bundled by npm run build)

/** A size knob: the environment variable's integer value, else the bounded CI default. */
export function knob(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : fallback;
}

/** mulberry32 (src/domain/random.ts): seeded, so that a failing run can be replayed with its seed. */
export const prng = mulberry32;

export const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
export const int = (rand: () => number, min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));

function checkDigits(base: number[], weights: number[][]): string {
  const d = [...base];
  for (const w of weights) {
    const sum = w.reduce((s, wi, i) => s + wi * d[i]!, 0);
    const r = sum % 11;
    d.push(r < 2 ? 0 : 11 - r);
  }
  return d.join('');
}

/** A CPF with valid check digits (never one repeated digit). */
export function cpf(rand: () => number): string {
  const base = Array.from({ length: 9 }, () => Math.floor(rand() * 10));
  if (base.every((x) => x === base[0])) base[0] = (base[0]! + 1) % 10;
  return checkDigits(base, [
    [10, 9, 8, 7, 6, 5, 4, 3, 2],
    [11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
  ]);
}

/** The slow project's global setup (test/helpers/built.ts) builds dist/; this names the cause when it is missing. */
export function ensureBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: the slow tests' global setup (test/helpers/built.ts) builds it`);
}

export interface ChildSandbox {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** `pix-sandbox serve` from built code in a child process; resolves once it prints its URL. */
export function spawnSandbox(args: string[], timeoutMs = 20_000): Promise<ChildSandbox> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let done = false;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      if (done) return;
      done = true;
      child.kill('SIGKILL');
      reject(new Error(`the sandbox did not print its URL within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        resolve({ child, url: m[1]!, output: () => out, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then((code) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before listening:\n${out}`));
    });
  });
}

/**
 * The data folder a torture test kills its sandboxes on, again and again: made (in the system's temp
 * folder, named from `prefix`) before the file's tests, and removed after them together with the last
 * sandbox started on it, killed if it still runs. `start` runs `pix-sandbox serve` on it (HTTP on a free
 * port, no HTTPS).
 */
export function killingFolder(prefix: string): { readonly dir: string; start: () => Promise<ChildSandbox> } {
  let dir = '';
  let last: ChildSandbox | null = null;
  beforeAll(async () => {
    ensureBuilt();
    dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    if (last && last.child.exitCode === null) last.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    start: async () => (last = await spawnSandbox(['--port', '0', '--https-port', 'off', '--data-dir', dir])),
  };
}

/** The store of a data folder as a restart would see it (snapshot + log replay), read without writing anything. */
export async function readStoreDataOffline(dataDir: string): Promise<StoreData> {
  const data = await new WalAdapter(path.join(dataDir, 'db.json'), false).read();
  if (!data) throw new Error(`no store in ${dataDir}`);
  return data;
}

/** The same, as its file's plain records. */
export const readStoreOffline = async (dataDir: string): Promise<Data> => (await readStoreDataOffline(dataDir)).toData();

export interface LedgerCheck {
  ok: boolean;
  problems: string[];
  /** sum of every balance (accounts and wallets) */
  total: number;
  /** opening balances + paid cash-ins − cash-outs not failed + adjustments */
  expected: number;
  balances: Map<string, number>;
}

/**
 * The invariant of docs/decisions.md#d30-a-double-entry-ledger from the records alone: the sum of every balance equals the opening
 * balances plus paid cash-ins, minus cash-outs that have not failed, plus control adjustments;
 * no balance is below zero; and each transaction's postings agree with its state.
 */
export function checkLedger(data: Data): LedgerCheck {
  const problems: string[] = [];
  const balances = new Map<string, number>();
  const byTx = new Map<string, LedgerEntry[]>();
  let opening = 0;
  let adjustments = 0;
  for (const e of Object.values(data.ledger)) {
    if (!Number.isSafeInteger(e.amount) || e.amount <= 0) problems.push(`ledger entry ${e.id} has amount ${e.amount}`);
    if (e.from !== 'world') balances.set(e.from, (balances.get(e.from) ?? 0) - e.amount);
    if (e.to !== 'world') balances.set(e.to, (balances.get(e.to) ?? 0) + e.amount);
    const sign = e.from === 'world' ? 1 : e.to === 'world' ? -1 : 0;
    if (e.kind === 'OPENING') opening += sign * e.amount;
    if (e.kind === 'ADJUSTMENT') adjustments += sign * e.amount;
    if (e.transactionId) {
      const list = byTx.get(e.transactionId) ?? [];
      list.push(e);
      byTx.set(e.transactionId, list);
    }
  }
  let paidIn = 0;
  let out = 0;
  for (const t of Object.values(data.transactions)) {
    const entries = byTx.get(t.id) ?? [];
    const sum = (kind: string) => entries.filter((e) => e.kind === kind).reduce((s, e) => s + e.amount, 0);
    if (t.type === 'CASH_IN') {
      const credited = sum('CASH_IN') + sum('SPLIT');
      if (t.status === 'PAID') {
        paidIn += t.amount;
        if (sum('CASH_IN') !== t.amount) problems.push(`paid charge ${t.id} of ${t.amount} has CASH_IN postings of ${sum('CASH_IN')}`);
      } else if (credited !== 0) problems.push(`charge ${t.id} is ${t.status} but has postings of ${credited}`);
    } else {
      if (sum('CASH_OUT') !== t.amount) problems.push(`transfer ${t.id} of ${t.amount} has CASH_OUT postings of ${sum('CASH_OUT')}`);
      const back = sum('CASH_OUT_REVERSAL');
      if (t.status === 'FAILED' && back !== t.amount) problems.push(`failed transfer ${t.id} was credited back ${back} of ${t.amount}`);
      if (t.status !== 'FAILED' && back !== 0) problems.push(`transfer ${t.id} is ${t.status} but was credited back ${back}`);
      if (t.status !== 'FAILED') out += t.amount;
    }
  }
  for (const [ref, b] of balances) if (b < 0) problems.push(`balance of ${ref} is ${b}`);
  const total = [...balances.values()].reduce((s, b) => s + b, 0);
  const expected = opening + paidIn - out + adjustments;
  if (total !== expected)
    problems.push(
      `sum of balances ${total} ≠ opening ${opening} + paid cash-ins ${paidIn} − cash-outs ${out} + adjustments ${adjustments} = ${expected}`,
    );
  return { ok: problems.length === 0, problems, total, expected, balances };
}

/** A request that never throws: network failures come back as status 0. */
export async function call(
  base: string,
  method: string,
  p: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  try {
    const res = await new Transport({ baseUrl: base }).request<any>(method, p, {
      headers,
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return { status: res.status, body: res.body, headers: new Headers(res.headers) };
  } catch (e) {
    return { status: 0, body: String(e), headers: new Headers() };
  }
}
