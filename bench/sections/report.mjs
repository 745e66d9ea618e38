// Bench section "report" (issue 24): the integration report (GET /_sandbox/report) of a tenant whose
// journal holds 10,000 entries, beside a baseline in the same run: GET /_sandbox/requests?limit=1 of
// the same tenant (a control call that reads one entry). The tenant makes what an app makes: a token
// now and then, charges, cash-outs (a body and a key, which the report compares) and lookups. The
// sandbox runs as shipped (dist/bin/pix-sandbox.js), in memory; each figure is the median of RUNS
// sequential calls after a warm-up, timed by this process. Target: the report ≤ 200 ms.
// `node bench/run.mjs report` runs it alone (needs `npm run build`). Knobs: BENCH_REPORT_ENTRIES
// (default 10,000; BENCH_QUICK=1: 1,000), BENCH_REPORT_RUNS (default 21).
import { BIN, fmt, QUICK, shippedNodeFlags, table, writeResultsBlock } from '../lib/harness.mjs';
import { machine, startNode } from '../lib/procs.mjs';
import { call, tenantLoad } from '../lib/tenant-load.mjs';

const ENTRIES = Number(process.env.BENCH_REPORT_ENTRIES ?? (QUICK ? 1_000 : 10_000));
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 21);

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
      // a token every 100 requests, as an app that renews its token early would
      const accountId = await tenantLoad(sb.url, 'bench report', ENTRIES, { tokenEvery: 100 });
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
