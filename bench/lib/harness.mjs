// What every bench section uses: a load run in a separate process, temp folders, a table.
// A section is a module in bench/sections/ exporting `section = { name, title, order, run(h) }`;
// bench/run.mjs finds it there, so adding one needs no edit anywhere else.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const ROOT = path.dirname(BENCH_DIR);
/** the compiled sandbox (npm run bench builds it first) */
export const dist = (...parts) => path.join(ROOT, 'dist', 'src', ...parts);
/** the credentials of the default fixtures (and of the bench's seeded stores) */
export const DEFAULT_CLIENT = { client_id: 'sandbox-client', client_secret: 'sandbox-secret' };
/** the command as shipped: the bundle that `npm run build` writes */
export const BIN = path.join(ROOT, 'dist', 'bin', 'pix-sandbox.js');

/**
 * The node flags of the command's "#!/usr/bin/env -S node <flags>" line: the bench starts
 * `node <flags> BIN`, as the kernel does when the command is run by its name (bin, image, npm start).
 */
export function shippedNodeFlags() {
  const first = readFileSync(BIN, 'utf8').slice(0, 200).split('\n')[0];
  const m = /^#!\S*env\s+(?:-S\s+)?node\b(.*)$/.exec(first);
  if (!m) throw new Error(`${BIN} does not start with a "#!/usr/bin/env node" line: ${first}`);
  return m[1].trim().split(/\s+/).filter(Boolean);
}

/** BENCH_QUICK=1: a short run (1 s loads, one round) for every section that reads these variables. */
export const QUICK = ['1', 'true', 'yes'].includes(String(process.env.BENCH_QUICK ?? '').toLowerCase());
if (QUICK) {
  process.env.BENCH_SECONDS ??= '1';
  process.env.BENCH_ROUNDS ??= '1';
}

/** Seconds of each measured run; BENCH_SECONDS overrides it (e.g. 2 for a quick look). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

/**
 * Runs autocannon in a child process against `url` (see lib/load.mjs for the options) and
 * resolves with {ok, non2xx, errors, rps, latency}. rps counts 2xx answers only.
 */
export function load(opts) {
  const args = [path.join(BENCH_DIR, 'lib', 'load.mjs'), JSON.stringify({ connections: CONNECTIONS, seconds: SECONDS, ...opts })];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`load generator failed: ${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()));
    });
  });
}

/** A temp folder, removed by the returned cleanup. */
export async function tempDir(prefix) {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pix-bench-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Prints rows (arrays of cells) as an aligned text table; the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) =>
    `| ${r.map((c, i) => (typeof c === 'number' || /^[\d.,×x%-]+$/.test(String(c)) ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join(' | ')} |`;
  console.log(line(rows[0]));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

export const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Lets the event loop and the collector settle between runs. */
export const pause = (ms = 500) => new Promise((r) => setTimeout(r, ms));

/**
 * Sequential calls of `fn(i)` for `seconds` in this process, after 20 warm-up calls: the rate one
 * core gets from it, per second and per CPU-second of this process.
 */
export async function rateOf(fn, seconds) {
  for (let i = 0; i < 20; i++) await fn(i);
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  let n = 0;
  while (performance.now() - start < seconds * 1000) await fn(n++);
  const cpu = process.cpuUsage(cpu0);
  return { rps: (n * 1000) / (performance.now() - start), perCpuSecond: n / ((cpu.user + cpu.system) / 1e6) };
}

/**
 * Puts `block` (which starts with `<!-- name:start` and ends with `<!-- name:end -->`) into
 * bench/RESULTS.md in place of the block of the same name, or, the first time, at the end under
 * `heading` (when given). Each section writes only its own block; the prose around them is kept.
 */
export async function writeResultsBlock(name, block, heading) {
  const file = path.join(BENCH_DIR, 'RESULTS.md');
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    text = '# Benchmark results\n';
  }
  const re = new RegExp(`<!-- ${name}:start[\\s\\S]*?<!-- ${name}:end -->`);
  const tail = heading ? `## ${heading}\n\n${block}` : block;
  await writeFile(file, re.test(text) ? text.replace(re, () => block) : `${text.trimEnd()}\n\n${tail}\n`);
}
