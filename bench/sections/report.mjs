// Bench section "report" (issue 24): the integration report (GET /_sandbox/report) of a tenant whose
// journal holds 10,000 entries, beside a baseline in the same run: GET /_sandbox/requests?limit=1 of
// the same tenant (a control call that reads one entry). The tenant makes what an app makes: a token
// now and then, charges, cash-outs (a body and a key, which the report compares) and lookups. The
// sandbox runs as shipped (dist/bin/pix-sandbox.js), in memory; each figure is the median of RUNS
// sequential calls after a warm-up, timed by this process. Target: the report ≤ 200 ms.
// `node bench/run.mjs report` runs it alone (needs `npm run build`). Knobs: BENCH_REPORT_ENTRIES
// (default 10,000; BENCH_QUICK=1: 1,000), BENCH_REPORT_RUNS (default 21).
import { randomUUID } from 'node:crypto';
import { BIN, fmt, QUICK, shippedNodeFlags, table, writeResultsBlock } from '../lib/harness.mjs';
import { machine, startNode } from '../lib/procs.mjs';

const ENTRIES = Number(process.env.BENCH_REPORT_ENTRIES ?? (QUICK ? 1_000 : 10_000));
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 21);
const WIDTH = 16;

async function call(url, method, p, body, headers = {}) {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The tenant's `n` journal entries: a token every 100 requests, 5 % charges, 5 % cash-outs, the rest lookups. */
async function load(url, n) {
  const a = await call(url, 'POST', '/_sandbox/accounts', { name: 'bench report', balance: 1_000_000_000, settleAfterSeconds: 86_400 });
  const creds = { client_id: a.client_id, client_secret: a.client_secret };
  let auth = null;
  const ids = [];
  let made = 0;
  const one = async (k) => {
    if (k % 100 === 0 || auth === null) {
      const { access_token } = await call(url, 'POST', '/v1/oauth/token', creds);
      auth = { authorization: `Bearer ${access_token}` };
    } else if (k % 20 === 2 || ids.length === 0) {
      const c = await call(
        url,
        'POST',
        '/v1/banking/cash-in/pix',
        { amount: 1000 + k, description: `order ${k}`, customer: { name: 'Maria Silva', document: '52998224725' } },
        auth,
      );
      ids.push(c.transactionId);
    } else if (k % 20 === 1)
      await call(
        url,
        'POST',
        '/v1/banking/cash-out/pix',
        { type: 'pix_key', description: `payout ${k}`, amount: '100', details: { name: 'Fornecedor', key: '11144477735', keyType: 'CPF' } },
        { ...auth, 'x-idempotency-key': randomUUID() },
      );
    else await call(url, 'GET', `/v1/banking/transactions/${ids[k % ids.length]}`, undefined, auth);
  };
  await Promise.all(
    Array.from({ length: WIDTH }, async () => {
      while (made < n) await one(made++);
    }),
  );
  return a.id;
}

/** The median milliseconds of RUNS sequential GETs of `p`, after 3 warm-up calls. */
async function median(url, p) {
  for (let i = 0; i < 3; i++) await call(url, 'GET', p);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await call(url, 'GET', p);
    times.push(performance.now() - t0);
  }
  return times.sort((x, y) => x - y)[Math.floor(times.length / 2)];
}

export const section = {
  name: 'report',
  title: `Integration report over ${fmt(ENTRIES)} journal entries`,
  order: 65,
  async run() {
    const sb = await startNode([...shippedNodeFlags(), BIN, 'serve', '--port', '0', '--https-port', 'off', '--memory']);
    try {
      const accountId = await load(sb.url, ENTRIES);
      const kept = (await call(sb.url, 'GET', `/_sandbox/requests?accountId=${accountId}&limit=10000`)).length;
      const report = await call(sb.url, 'GET', `/_sandbox/report?accountId=${accountId}`);
      if (report.requests !== kept) throw new Error(`the report judged ${report.requests} entries of ${kept}`);
      // interleaved pairs would favour neither; two medians of the same run are close enough to compare
      const baseline = await median(sb.url, `/_sandbox/requests?accountId=${accountId}&limit=1`);
      const judged = await median(sb.url, `/_sandbox/report?accountId=${accountId}`);
      const rows = [
        ['call', 'median (ms)', 'ratio to baseline'],
        ['GET /_sandbox/requests?limit=1 (baseline)', fmt(baseline, 1), '1.00×'],
        [`GET /_sandbox/report (${fmt(kept)} entries)`, fmt(judged, 1), `${fmt(judged / baseline, 1)}×`],
      ];
      table(rows);
      console.log(`  target: the report ≤ 200 ms — ${judged <= 200 ? 'met' : 'NOT met'}`);
      const m = machine();
      const block = [
        `<!-- report:start (bench/sections/report.mjs writes this block) -->`,
        `${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${m.cpu}, load ${m.load}. One tenant, ${fmt(kept)} journal entries; median of ${RUNS} calls.`,
        '',
        ...[rows[0], rows[0].map(() => '---'), ...rows.slice(1)].map((r) => `| ${r.join(' | ')} |`),
        `<!-- report:end -->`,
      ].join('\n');
      await writeResultsBlock('report', block, 'Integration report (issue 24)');
    } finally {
      await sb.stop();
    }
  },
};
