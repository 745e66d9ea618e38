// Bench section "store" (issue 17): what reads cost with a large store, each figure beside its
// baseline measured in this run:
// - at 100k stored: the control list (limit=200) and one transaction in full, median latency of
//   requests made one at a time, each as a ratio to the public lookup's median measured the same way;
// - the public lookup under 8 connections while a poller lists 200 transactions every 2 s (a
//   dashboard open), beside the same load without the poller: p99 and max;
// - resident memory holding 100k transactions created through the API (cash-ins and cash-outs
//   mixed), 10 s after the load, against a bare express hello-world's 10 s after its load;
// - the list and detail again at 1M seeded transactions (when the machine has the memory), to
//   show that their cost does not grow with the store.
// The sandbox runs as shipped (dist/bin/pix-sandbox.js with the flags of its #! line) on a data
// folder with fsync on. Writes its table between the store markers of bench/RESULTS.md.
// BENCH_STORE_MILLION=0 skips the 1M part; BENCH_STORE_PARTS=reads,memory,million picks parts.
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR, BIN, fmt, load, pause, QUICK, shippedNodeFlags, tempDir, writeResultsBlock } from '../lib/harness.mjs';
import { markdownRows, ms, printRows, targetRows } from '../lib/rows.mjs';
import { machine, memoryOf, startNode, tokenOf } from '../lib/procs.mjs';
import { DEFAULT_ACCOUNT_ID, defaultSecretHash, writeSeededDb } from '../lib/seed-db.mjs';

const HELLO = path.join(BENCH_DIR, 'peers', 'express-hello.mjs');
const FLAGS = shippedNodeFlags();
const STORED = QUICK ? 10_000 : 100_000;
const MILLION = 1_000_000;
const CREATED = QUICK ? 10_000 : 100_000;
const SAMPLES = QUICK ? 15 : 41;
const LOAD_SECONDS = QUICK ? 4 : 10;
const ROUNDS = QUICK ? 1 : 2;
const sandboxArgs = (dir) => [...FLAGS, BIN, 'serve', '--port', '0', '--https-port', 'off', '--data-dir', dir];

const { rows, row } = targetRows();

/** Median and 90th percentile of `n` requests made one after another (after a few to warm up). */
async function oneAtATime(url, paths, headers = {}, n = SAMPLES) {
  const times = [];
  for (let i = -5; i < n; i++) {
    const p = paths[(i + paths.length * 10) % paths.length];
    const t0 = performance.now();
    const r = await fetch(url + p, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
    if (i >= 0) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

/** List, detail and lookup medians of a sandbox holding `n` seeded transactions. */
async function listAndDetail(n, { poller = false } = {}) {
  const { dir, cleanup } = await tempDir(`store-${n}`);
  let sb;
  try {
    const t0 = performance.now();
    const { ids, charges, transfers } = await writeSeededDb(dir, n, { secretHash: await defaultSecretHash() }, 200);
    const seeded = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    sb = await startNode(
      [
        ...FLAGS,
        '--expose-gc',
        '-r',
        path.join(BENCH_DIR, 'lib', 'gc-on-signal.cjs'),
        BIN,
        'serve',
        '--port',
        '0',
        '--https-port',
        'off',
        '--data-dir',
        dir,
      ],
      { timeoutMs: 600_000 },
    );
    const started = (performance.now() - t1) / 1000;
    console.log(
      `  ${fmt(n)} seeded in ${fmt(seeded, 1)} s; the sandbox opened them in ${fmt(started, 1)} s (RSS ${fmt(memoryOf(sb.child.pid)?.rssMb ?? 0)} MB)`,
    );
    const auth = { authorization: `Bearer ${await tokenOf(sb.url)}` };
    const lookup = await oneAtATime(
      sb.url,
      ids.map((id) => `/v1/banking/transactions/${id}`),
      auth,
    );
    const list = await oneAtATime(sb.url, [
      '/_sandbox/transactions?limit=200',
      `/_sandbox/transactions?limit=200&accountId=${DEFAULT_ACCOUNT_ID}&status=PAID`,
    ]);
    const detail = await oneAtATime(
      sb.url,
      charges.map((id) => `/_sandbox/transactions/${id}`),
    );
    const transferDetail = await oneAtATime(
      sb.url,
      transfers.map((id) => `/_sandbox/transactions/${id}`),
    );
    const stored = `${fmt(n >= MILLION ? n / MILLION : n / 1000)}${n >= MILLION ? 'M' : 'k'} stored`;
    const order = n >= MILLION ? 30 : 10;
    row({
      order,
      what: `GET /_sandbox/transactions?limit=200 (${stored}), median one at a time`,
      ours: ms(list.p50),
      p90: list.p90,
      baselineName: 'public lookup, median',
      baseline: ms(lookup.p50),
      ratio: list.p50 / lookup.p50,
      target: '≤ 50 ms',
      met: list.p50 <= 50,
    });
    row({
      order: order + 1,
      what: `GET /_sandbox/transactions/{id} of a charge (${stored}; its QR image drawn), median`,
      ours: ms(detail.p50),
      p90: detail.p90,
      baselineName: 'public lookup, median',
      baseline: ms(lookup.p50),
      ratio: detail.p50 / lookup.p50,
      target: '≤ 25 ms',
      met: detail.p50 <= 25,
    });
    row({
      order: order + 2,
      what: `GET /_sandbox/transactions/{id} of a transfer (${stored}), median`,
      ours: ms(transferDetail.p50),
      p90: transferDetail.p90,
      baselineName: 'public lookup, median',
      baseline: ms(lookup.p50),
      ratio: transferDetail.p50 / lookup.p50,
      target: '≤ 25 ms',
      met: transferDetail.p50 <= 25,
    });
    if (poller) await lookupWithPoller(sb.url, ids, auth);
  } finally {
    await sb?.stop();
    await cleanup();
  }
}

/** The public lookup under 8 connections, with and without a poller listing 200 transactions every 2 s. */
async function lookupWithPoller(url, ids, auth) {
  const run = () =>
    load({
      url,
      method: 'GET',
      path: '/',
      paths: ids.map((id) => `/v1/banking/transactions/${id}`),
      headers: auth,
      connections: 8,
      seconds: LOAD_SECONDS,
    });
  const best = { idle: null, polled: null };
  let polls = 0;
  let pollMax = 0;
  await load({ url, method: 'GET', path: `/v1/banking/transactions/${ids[0]}`, headers: auth, connections: 8, seconds: 1 });
  for (let round = 0; round < ROUNDS; round++) {
    await pause(500);
    const idle = await run();
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const t0 = performance.now();
        const r = await fetch(`${url}/_sandbox/transactions?limit=200`);
        await r.arrayBuffer();
        polls++;
        pollMax = Math.max(pollMax, performance.now() - t0);
        for (let waited = 0; polling && waited < 2000; waited += 100) await pause(100);
      }
    })();
    const polled = await run();
    polling = false;
    await poll;
    for (const [k, r] of [
      ['idle', idle],
      ['polled', polled],
    ])
      if (!best[k] || r.latency.max < best[k].latency.max) best[k] = r;
  }
  const { idle, polled } = best;
  console.log(`  poller: ${polls} lists of 200, slowest ${fmt(pollMax)} ms; lookup ${fmt(idle.rps)}/s idle, ${fmt(polled.rps)}/s polled`);
  const p99Target = 2 * idle.latency.p99 + 10;
  row({
    order: 20,
    what: 'public lookup p99, 8 connections, a poller listing 200 every 2 s',
    ours: ms(polled.latency.p99),
    baselineName: 'same load, no poller',
    baseline: ms(idle.latency.p99),
    ratio: polled.latency.p99 / Math.max(1, idle.latency.p99),
    target: `≤ 2 × idle p99 + 10 ms (${fmt(p99Target)} ms)`,
    met: polled.latency.p99 <= p99Target,
  });
  row({
    order: 21,
    what: 'public lookup max, same run',
    ours: ms(polled.latency.max),
    baselineName: 'same load, no poller',
    baseline: ms(idle.latency.max),
    ratio: polled.latency.max / Math.max(1, idle.latency.max),
    target: '≤ 250 ms',
    met: polled.latency.max <= 250,
  });
}

/** Creates `n` transactions through the API (cash-ins and cash-outs alternating, 8 connections). */
function createThroughApi(url, token, n) {
  const args = [path.join(BENCH_DIR, 'lib', 'mixed-load.mjs'), JSON.stringify({ url, token, amount: n, connections: 8 })];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`mixed load failed: ${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()));
    });
  });
}

async function memory() {
  const hello = await startNode([HELLO]);
  let helloRss;
  try {
    await load({ url: hello.url, method: 'GET', path: '/', seconds: LOAD_SECONDS });
    await pause(10_000);
    helloRss = memoryOf(hello.child.pid)?.rssMb;
  } finally {
    await hello.stop();
  }
  const { dir, cleanup } = await tempDir('store-memory');
  let sb;
  try {
    sb = await startNode(sandboxArgs(dir));
    const credit = await fetch(`${sb.url}/_sandbox/accounts/${DEFAULT_ACCOUNT_ID}/credit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1_000_000_000_000 }),
    });
    if (credit.status !== 200) throw new Error(`credit: ${credit.status}`);
    const t0 = performance.now();
    const r = await createThroughApi(sb.url, await tokenOf(sb.url), CREATED);
    if (r.ok !== CREATED) throw new Error(`mixed load: ${r.ok} of ${CREATED} created (${r.non2xx} non-2xx, ${r.errors} errors)`);
    const atEnd = memoryOf(sb.child.pid);
    await pause(10_000);
    const ours = memoryOf(sb.child.pid);
    console.log(
      `  ${fmt(CREATED)} created through the API in ${fmt((performance.now() - t0) / 1000)} s; RSS at the end ${fmt(atEnd.rssMb)} MB, 10 s later ${fmt(ours.rssMb)} MB (peak ${fmt(ours.peakMb)} MB)`,
    );
    const ratio = ours.rssMb / helloRss;
    row({
      order: 40,
      what: `resident memory holding ${fmt(CREATED)} transactions created through the API (mixed), 10 s after the load (peak ${fmt(ours.peakMb)} MB)`,
      ours: `${fmt(ours.rssMb)} MB`,
      baselineName: 'express hello-world, 10 s after its load',
      baseline: `${fmt(helloRss)} MB`,
      ratio,
      target: '≤ 1.5×',
      met: ratio <= 1.5,
    });
  } finally {
    await sb?.stop();
    await cleanup();
  }
}

async function writeResults(startedAt, seconds) {
  const m = machine();
  const block = [
    '<!-- store:start (written by `npm run bench`, section `store`; edit outside the markers) -->',
    `Run: ${startedAt.toISOString()} — \`${QUICK ? 'BENCH_QUICK=1 ' : ''}npm run bench\` (section \`store\`: ${fmt(seconds)} s)`,
    '',
    `Machine: ${os.cpus().length} CPUs, ${m.cpu}, ${fmt(m.memGb, 1)} GB memory, load average at the start ${m.load}; Node ${process.version}.`,
    `Latencies one at a time: median of ${SAMPLES} requests after 5 to warm up, on one keep-alive connection; loads: autocannon in its own process, ${LOAD_SECONDS} s, best of ${ROUNDS} alternating rounds (by max); the sandbox as shipped on a data folder with fsync on, seeded by bench/lib/seed-db.mjs (half cash-ins with their BR Code, half cash-outs, a day of idempotency records).`,
    '',
    ...markdownRows(rows, { p90: true }),
    '<!-- store:end -->',
  ].join('\n');
  await writeResultsBlock('store', block, 'The store (issue 17)');
}

export const section = {
  name: 'store',
  title: "Issue 17's targets: reads that cost what they answer, memory that does not grow with the heap",
  order: 80,
  async run() {
    const startedAt = new Date();
    const t0 = performance.now();
    const only = (process.env.BENCH_STORE_PARTS ?? '').split(',').filter(Boolean);
    const want = (name) => only.length === 0 || only.includes(name);
    if (want('reads')) await listAndDetail(STORED, { poller: true });
    if (want('memory')) await memory();
    const million = process.env.BENCH_STORE_MILLION !== '0' && !QUICK && want('million');
    if (million && os.freemem() > 6 * 2 ** 30) await listAndDetail(MILLION);
    else if (million) console.log(`  1M rows skipped: ${fmt(os.freemem() / 2 ** 30, 1)} GB free (6 GB wanted)`);
    printRows(rows);
    await writeResults(startedAt, (performance.now() - t0) / 1000);
  },
};
