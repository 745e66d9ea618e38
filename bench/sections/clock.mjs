// Bench section "clock" (issue 15): one 30-day advance of a tenant holding 10,000 waiting charges
// and 1,000 failing webhook deliveries, walked through time (every expiry and every retry at its
// own instant), while another tenant's public lookup runs under 8 connections. Figures: the
// advance's duration and how many steps it took; the other tenant's lookup p99/max during the walk
// beside the same load idle (the store issue's targets: max ≤ 250 ms, p99 ≤ 2 × idle p99 + 10 ms).
// The sandbox runs as shipped (dist/bin/pix-sandbox.js) on a data folder with fsync on.
// `node bench/run.mjs clock` runs it alone (needs `npm run build`); BENCH_QUICK=1 makes it smaller.
// Writes its table between the clock markers of bench/RESULTS.md.
import http from 'node:http';
import os from 'node:os';
import { BIN, fmt, load, pause, QUICK, shippedNodeFlags, tempDir, writeResultsBlock } from '../lib/harness.mjs';
import { machine, startNode, tokenOf } from '../lib/procs.mjs';

const WAITING = QUICK ? 2_000 : 10_000;
const FAILING = QUICK ? 200 : 1_000;
const ADVANCE_SECONDS = 30 * 86_400;
const LOAD_SECONDS = QUICK ? 5 : 10;
const WINDOW_SECONDS = 5;
const TENANT = { id: '0000c10c-0000-4000-8000-00000000000a', client_id: 'bench-clock-tenant', client_secret: 'bench-clock-secret' };
const CPF = '52998224725';

const json = async (url, method, body, headers = {}) => {
  const r = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
};

/** `n` charges of the tenant, 16 requests at a time; resolves with their ids. */
async function charges(url, token, n, expiration) {
  const ids = [];
  let made = 0;
  const worker = async () => {
    while (made < n) {
      made++;
      const c = await json(
        `${url}/v1/banking/cash-in/pix`,
        'POST',
        { amount: 1500, expiration, description: 'bench clock', customer: { name: 'Maria Silva', document: CPF } },
        { authorization: `Bearer ${token}` },
      );
      ids.push(c.transactionId);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return ids;
}

/** A receiver that answers 500 to everything (counts what it got). */
async function failingReceiver() {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => res.writeHead(500).end('down'));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, hits: () => hits, close: () => new Promise((r) => server.close(r)) };
}

async function run() {
  const startedAt = new Date();
  const atStart = machine();
  const { dir, cleanup } = await tempDir('clock');
  const rx = await failingReceiver();
  const sb = await startNode([...shippedNodeFlags(), BIN, 'serve', '--port', '0', '--https-port', 'off', '--data-dir', dir]);
  try {
    const url = sb.url;
    // tenant A: the one that moves; B (the default account) is the one whose lookups are measured
    await json(`${url}/_sandbox/accounts`, 'POST', { name: 'bench clock tenant', ...TENANT });
    const tokenA = (await json(`${url}/v1/oauth/token`, 'POST', { grant_type: 'client_credentials', ...TENANT })).access_token;
    const t0 = performance.now();
    // charges that expire within the 30 days at staggered instants (a day, plus up to a few seconds of creation)
    await charges(url, tokenA, WAITING - FAILING, 86_400);
    await json(`${url}/_sandbox/webhooks`, 'POST', { url: rx.url, accountId: TENANT.id, events: ['cashin.created'] });
    await charges(url, tokenA, FAILING, 86_400);
    for (let waited = 0; rx.hits() < FAILING && waited < 60_000; waited += 100) await pause(100);
    console.log(
      `  set-up: ${fmt(WAITING)} waiting charges of tenant A (${fmt(FAILING)} with a delivery to a receiver answering 500, first attempts made: ${fmt(rx.hits())}) in ${fmt((performance.now() - t0) / 1000, 1)} s`,
    );

    const tokenB = await tokenOf(url);
    const auth = { authorization: `Bearer ${tokenB}` };
    const bIds = await charges(url, tokenB, 20, 86_400);
    const lookup = (seconds) =>
      load({
        url,
        method: 'GET',
        path: '/',
        paths: bIds.map((id) => `/v1/banking/transactions/${id}`),
        headers: auth,
        connections: 8,
        seconds,
      });
    await lookup(1); // warm-up
    await pause(500);
    const idle = await lookup(LOAD_SECONDS);

    // the load runs in windows of WINDOW_SECONDS from before the advance starts until it has answered;
    // the figures are the worst window's (each window's p99 and max, all overlapping the walk)
    const hitsBefore = rx.hits();
    let advanced = false;
    const windows = [];
    const loads = (async () => {
      while (!advanced) windows.push(await lookup(WINDOW_SECONDS));
    })();
    await pause(300);
    const a0 = performance.now();
    const moved = await json(`${url}/_sandbox/clock/advance`, 'POST', { seconds: ADVANCE_SECONDS, accountId: TENANT.id });
    const advanceMs = performance.now() - a0;
    advanced = true;
    await loads;
    const busy = {
      rps: windows.reduce((n, w) => n + w.rps, 0) / windows.length,
      latency: { p99: Math.max(...windows.map((w) => w.latency.p99)), max: Math.max(...windows.map((w) => w.latency.max)) },
    };
    const attempts = rx.hits() - hitsBefore;
    const waitingAfter = (await json(`${url}/_sandbox/transactions?accountId=${TENANT.id}&status=WAITING_PAYMENT&limit=1`, 'GET')).length;
    const dead = (await json(`${url}/_sandbox/webhooks/deliveries?status=DEAD&limit=1000`, 'GET')).length;
    console.log(
      `  advance of 30 days: ${fmt(advanceMs / 1000, 2)} s; ${fmt(attempts)} retry attempts made during it, ${fmt(dead)} deliveries DEAD, waiting charges left: ${waitingAfter}; tenant A now ${moved.now}`,
    );
    const p99Target = 2 * idle.latency.p99 + 10;
    const rows = [
      ['30-day advance of tenant A (10,000 waiting charges, 1,000 failing deliveries)', `${fmt(advanceMs / 1000, 2)} s`, '–', '–', '–'],
      [
        'tenant B lookup p99, 8 connections, during the advance',
        `${fmt(busy.latency.p99)} ms`,
        `${fmt(idle.latency.p99)} ms`,
        `≤ 2 × idle p99 + 10 ms (${fmt(p99Target)} ms)`,
        busy.latency.p99 <= p99Target ? 'met' : '**not met**',
      ],
      [
        'tenant B lookup max, same run',
        `${fmt(busy.latency.max)} ms`,
        `${fmt(idle.latency.max)} ms`,
        '≤ 250 ms',
        busy.latency.max <= 250 ? 'met' : '**not met**',
      ],
    ];
    for (const r of rows) console.log(`  ${r[0]}: ${r[1]} (idle ${r[2]}) — target ${r[3]}: ${r[4]}`);
    console.log(
      `  lookups: ${fmt(idle.rps)}/s idle, ${fmt(busy.rps)}/s during the advance (${windows.length} windows of ${WINDOW_SECONDS} s)`,
    );
    await writeResults(startedAt, atStart, rows, { advanceMs, attempts, dead, windows: windows.length });
  } finally {
    await sb.stop();
    await rx.close();
    await cleanup();
  }
}

async function writeResults(startedAt, m, rows, extra) {
  const head = ['measure', 'figure', 'idle baseline', 'target', 'met'];
  const block = [
    '<!-- clock:start (written by `node bench/run.mjs clock`; edit outside the markers) -->',
    `Run: ${startedAt.toISOString()} — \`${QUICK ? 'BENCH_QUICK=1 ' : ''}node bench/run.mjs clock\``,
    '',
    `Machine: ${os.cpus().length} CPUs, ${m.cpu}, ${fmt(m.memGb, 1)} GB memory, load average at the start ${m.load}; Node ${process.version}.`,
    `Tenant A: ${fmt(WAITING)} WAITING_PAYMENT charges created through the API (each expiring a day after its creation), ${fmt(FAILING)} of them with a cashin.created delivery to a receiver answering 500 (its first attempt, and any retry that fell due in real time meanwhile, made before the advance). One \`POST /_sandbox/clock/advance {seconds: 2592000, accountId: A}\`: ${fmt(extra.attempts)} retry attempts made during the walk, each at its scheduled instant; ${fmt(extra.dead)} deliveries DEAD after it. Tenant B (the default account): its public lookup under 8 connections (autocannon in its own process), in ${extra.windows} back-to-back windows of ${WINDOW_SECONDS} s from just before the advance until it answered, the worst window's p99 and max; beside the same load for ${LOAD_SECONDS} s with nothing else running. The sandbox as shipped, on a data folder with fsync on.`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '<!-- clock:end -->',
  ].join('\n');
  await writeResultsBlock('clock', block, "A tenant's 30-day advance (issue 15)");
}

export const section = { name: 'clock', title: "A tenant's 30-day advance beside another tenant's lookups (issue 15)", order: 60, run };
