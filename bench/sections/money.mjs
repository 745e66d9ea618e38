// Bench section "money" (issue 3): charge creation with its BR Code and QR PNG against the bare
// rate of `qrcode` drawing the same data URL; durable cash-out; transaction lookup against a bare
// express hello-world. Every figure comes from the same run on the same machine.
// Standalone: `npm run build && node bench/sections/money.mjs` (BENCH_SECONDS, BENCH_CONNECTIONS).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import QRCode from 'qrcode';
import { BENCH_DIR, BIN, rateOf, shippedNodeFlags } from '../lib/harness.mjs';
import { startNode, stop, tokenOf } from '../lib/procs.mjs';

const HELLO = path.join(BENCH_DIR, 'peers', 'express-hello.mjs');

// The sandbox as `serve` runs it but with the request journal off (programmatic `journalSize: 0`),
// to show what the journal's per-request bookkeeping costs a lookup.
const NO_JOURNAL = `
import { boot } from './dist/src/server.js';
import { defaultConfig } from './dist/src/config.js';
const running = await boot(defaultConfig({ port: 0, httpsPort: null, memory: true, tick: true, journalSize: 0 }));
console.log('listening on ' + running.listeners[0].url);
process.on('SIGTERM', () => running.stop().then(() => process.exit(0)));
`;

/** CPU seconds (user + system) a process has used so far, from /proc (null where there is none). */
function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * One autocannon run against a server process: its rate, latency, and requests per CPU-second of
 * the server (a figure that other load on a shared machine disturbs far less than the rate).
 */
async function load(label, child, opts, warmup = true) {
  if (warmup) await autocannon({ ...opts, duration: 1 }); // JIT and connection set-up out of the figure
  const cpu0 = cpuSecondsOf(child.pid);
  const r = await autocannon(opts);
  const cpu1 = cpuSecondsOf(child.pid);
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`${label}: ${bad} failed requests (non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts})`);
  const perCpuSecond = cpu0 !== null && cpu1 !== null && cpu1 > cpu0 ? r.requests.total / (cpu1 - cpu0) : null;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, perCpuSecond };
}

/** Alternates loads `rounds` times and keeps the best of each: bursts of other work on the machine hit all alike. */
async function compare(rounds, ...loads) {
  const best = loads.map(() => null);
  for (let i = 0; i < rounds; i++) {
    for (const [k, run] of loads.entries()) {
      const r = await run(i === 0);
      if (!best[k] || r.rps > best[k].rps) best[k] = r;
    }
  }
  return best;
}

export default async function money({
  // the same variables as bench/lib/harness.mjs; 3 rounds of 4 s keep the section near one minute
  seconds = Number(process.env.BENCH_SECONDS ?? 4),
  connections = Number(process.env.BENCH_CONNECTIONS ?? 20),
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
  log = console.log,
} = {}) {
  if (!existsSync(BIN)) throw new Error('dist/ is missing: run `npm run build` first');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pix-bench-money-'));
  const children = [];
  try {
    // a real, durable sandbox: lowdb file with the write-ahead log, fsync on every group commit
    const sandbox = await startNode([...shippedNodeFlags(), BIN, 'serve', '--port', '0', '--https-port', 'off', '--data-dir', dataDir]);
    children.push(sandbox.child);
    const base = sandbox.url;
    const token = await tokenOf(base);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const cashInBody = JSON.stringify({ amount: 12_345, description: 'bench', customer: { name: 'Maria Silva', document: '52998224725' } });
    const first = await (await fetch(`${base}/v1/banking/cash-in/pix`, { method: 'POST', headers: auth, body: cashInBody })).json();

    // a baseline express hello-world, up (and idle) beside the sandbox
    const hello = await startNode([HELLO]);
    children.push(hello.child);

    // the same string the sandbox drew, drawn by the qrcode package's own data URL path
    const cashInOpts = {
      url: `${base}/v1/banking/cash-in/pix`,
      method: 'POST',
      headers: auth,
      body: cashInBody,
      connections,
      duration: seconds,
    };
    const bareOnce = () => rateOf(() => QRCode.toDataURL(first.pixCode), seconds);
    const [cashIn, bareQr] = await compare(rounds, (w) => load('cash-in', sandbox.child, cashInOpts, w), bareOnce);

    const cashOutBody = JSON.stringify({
      type: 'pix_key',
      description: 'bench',
      amount: '1',
      details: { name: 'Fornecedor', key: '52998224725', keyType: 'CPF' },
    });
    const cashOut = await load('cash-out', sandbox.child, {
      url: `${base}/v1/banking/cash-out/pix`,
      method: 'POST',
      connections,
      duration: seconds,
      requests: [
        { method: 'POST', body: cashOutBody, setupRequest: (req) => ({ ...req, headers: { ...auth, 'x-idempotency-key': randomUUID() } }) },
      ],
    });

    const lookupOpts = {
      url: `${base}/v1/banking/transactions/${first.transactionId}`,
      headers: { authorization: auth.authorization },
      connections,
      duration: seconds,
    };
    const quiet = await startNode(['--input-type=module', '-e', NO_JOURNAL]);
    children.push(quiet.child);
    const quietToken = await tokenOf(quiet.url);
    const quietCharge = await (
      await fetch(`${quiet.url}/v1/banking/cash-in/pix`, {
        method: 'POST',
        headers: { ...auth, authorization: `Bearer ${quietToken}` },
        body: cashInBody,
      })
    ).json();
    const quietOpts = {
      url: `${quiet.url}/v1/banking/transactions/${quietCharge.transactionId}`,
      headers: { authorization: `Bearer ${quietToken}` },
      connections,
      duration: seconds,
    };
    // issue 24: a tenant of the same sandbox whose rateLimit is on but never reached (a bucket of
    // 100,000 refilled at 10,000/s), its lookup beside the default tenant's (no rateLimit)
    const limited = await (
      await fetch(`${base}/_sandbox/accounts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench rate limited', rateLimit: { requestsPerSecond: 10_000, burst: 100_000 } }),
      })
    ).json();
    const limitedToken = await tokenOf(base, { client_id: limited.client_id, client_secret: limited.client_secret });
    const limitedAuth = { ...auth, authorization: `Bearer ${limitedToken}` };
    const limitedCharge = await (
      await fetch(`${base}/v1/banking/cash-in/pix`, { method: 'POST', headers: limitedAuth, body: cashInBody })
    ).json();
    const limitedOpts = {
      ...lookupOpts,
      url: `${base}/v1/banking/transactions/${limitedCharge.transactionId}`,
      headers: { authorization: limitedAuth.authorization },
    };
    const [lookup, express, lookupNoJournal, lookupRateLimited] = await compare(
      rounds,
      (w) => load('lookup', sandbox.child, lookupOpts, w),
      (w) => load('express hello-world', hello.child, { url: hello.url, connections, duration: seconds }, w),
      (w) => load('lookup, journal off', quiet.child, quietOpts, w),
      (w) => load('lookup, rate limited tenant', sandbox.child, limitedOpts, w),
    );

    const results = {
      bareQrcodePerSecond: bareQr.rps,
      cashInPerSecond: cashIn.rps,
      cashInVsBareQrcode: cashIn.rps / bareQr.rps,
      cashInVsBareQrcodePerCpu: cashIn.perCpuSecond && bareQr.perCpuSecond ? cashIn.perCpuSecond / bareQr.perCpuSecond : null,
      cashOutPerSecond: cashOut.rps,
      lookupPerSecond: lookup.rps,
      expressHelloPerSecond: express.rps,
      lookupVsExpressHello: lookup.rps / express.rps,
      lookupVsExpressHelloPerCpu: lookup.perCpuSecond && express.perCpuSecond ? lookup.perCpuSecond / express.perCpuSecond : null,
      lookupNoJournalPerSecond: lookupNoJournal.rps,
      lookupNoJournalVsExpressHello: lookupNoJournal.rps / express.rps,
      lookupNoJournalVsExpressHelloPerCpu:
        lookupNoJournal.perCpuSecond && express.perCpuSecond ? lookupNoJournal.perCpuSecond / express.perCpuSecond : null,
      lookupRateLimitedPerSecond: lookupRateLimited.rps,
      lookupRateLimitedVsLookup: lookupRateLimited.rps / lookup.rps,
      lookupRateLimitedVsLookupPerCpu:
        lookupRateLimited.perCpuSecond && lookup.perCpuSecond ? lookupRateLimited.perCpuSecond / lookup.perCpuSecond : null,
      latency: { cashIn, cashOut, lookup, express, lookupNoJournal, lookupRateLimited },
      seconds,
      connections,
      rounds,
    };
    const f = (n) => (n === null ? 'n/a' : Math.round(n).toLocaleString('en-US'));
    const pct = (x) => (x === null ? 'n/a' : `${Math.round(x * 100)} %`);
    const row = (label, r) =>
      `  ${label.padEnd(52)} ${f(r.rps).padStart(7)} /s  (${f(r.perCpuSecond)} per CPU-second)` +
      (r.p50 !== undefined ? `  p50 ${r.p50} ms  p99 ${r.p99} ms` : '');
    log(
      `money (best of ${rounds} alternating rounds of ${seconds} s, ${connections} connections; the sandbox on a lowdb file with fsync):`,
    );
    log(row('qrcode.toDataURL of the same BR Code (bare, one core)', bareQr));
    log(row('POST cash-in (BR Code + QR PNG, durable)', cashIn));
    log(
      `    cash-in = ${pct(results.cashInVsBareQrcode)} of the bare qrcode rate (${pct(results.cashInVsBareQrcodePerCpu)} per CPU-second); target ≥ 80 %`,
    );
    log(row('POST cash-out (durable, a new idempotency key each)', cashOut));
    log(row('GET /v1/banking/transactions/{id}', lookup));
    log(row('express 5 hello-world (same machine, same run)', express));
    log(
      `    lookup = ${pct(results.lookupVsExpressHello)} of the hello-world rate (${pct(results.lookupVsExpressHelloPerCpu)} per CPU-second); target ≥ 70 %`,
    );
    log(row('GET lookup, request journal off (journalSize: 0)', lookupNoJournal));
    log(
      `    = ${pct(results.lookupNoJournalVsExpressHello)} of the hello-world rate (${pct(results.lookupNoJournalVsExpressHelloPerCpu)} per CPU-second)`,
    );
    log(row('GET lookup, a tenant with rateLimit on, not reached', lookupRateLimited));
    log(
      `    = ${pct(results.lookupRateLimitedVsLookup)} of the lookup without rateLimit (${pct(results.lookupRateLimitedVsLookupPerCpu)} per CPU-second); target ≥ 90 %`,
    );
    return results;
  } finally {
    for (const c of children) await stop(c).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** For bench/run.mjs: after the merchant section. */
export const section = {
  name: 'money',
  title: 'Money: cash-in with BR Code and QR, durable cash-out, transaction lookup',
  order: 30,
  run: () => money(),
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  money().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
