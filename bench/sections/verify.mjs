// Bench section "verify" (issue 24): one POST /_sandbox/verify over a tenant whose journal holds 10,000
// entries (its default size), beside GET /_sandbox/requests?limit=1 of the same tenant in the same run
// (the baseline: a control call that reads one entry), each timed end to end, one call at a time, from
// this process. The tenant makes what an app makes: its token, 5 % charges (a JSON body), the rest lookups
// of its charges. Rows: a match on method and path (no header or body parsed), a body subset (the charges'
// bodies parsed), a header on every entry (every entry's headers parsed), and a failing one (a second
// read for its near misses). The sandbox runs as shipped (dist/bin/pix-sandbox.js), in memory.
// `node bench/run.mjs verify` runs it alone (needs `npm run build`). Knobs: BENCH_VERIFY_ENTRIES (default
// 10,000; BENCH_QUICK=1: 2,000), BENCH_VERIFY_CALLS (timed calls per row, default 200; quick: 50).
import { BIN, fmt, QUICK, shippedNodeFlags, table, writeResultsBlock } from '../lib/harness.mjs';
import { machine, startNode } from '../lib/procs.mjs';

const ENTRIES = Number(process.env.BENCH_VERIFY_ENTRIES ?? (QUICK ? 2_000 : 10_000));
const CALLS = Number(process.env.BENCH_VERIFY_CALLS ?? (QUICK ? 50 : 200));
const WIDTH = 16;

async function call(url, method, p, body, headers = {}, expect = [200, 201]) {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  if (!expect.includes(r.status)) throw new Error(`${method} ${p}: ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** A tenant with `n` journal entries: its token, 5 % charges (amounts 1000 + k), the rest lookups. */
async function tenantWithJournal(url, n) {
  const a = await call(url, 'POST', '/_sandbox/accounts', { name: 'bench verify', balance: 1_000_000_000, settleAfterSeconds: 86_400 });
  const { access_token } = await call(url, 'POST', '/v1/oauth/token', { client_id: a.client_id, client_secret: a.client_secret });
  const auth = { authorization: `Bearer ${access_token}` };
  const ids = [];
  let made = 1;
  const one = async (k) => {
    if (k % 20 === 0 || ids.length === 0) {
      const body = { amount: 1000 + k, description: `order ${k}`, customer: { name: 'Maria Silva', document: '52998224725' } };
      ids.push((await call(url, 'POST', '/v1/banking/cash-in/pix', body, auth)).transactionId);
    } else await call(url, 'GET', `/v1/banking/transactions/${ids[k % ids.length]}`, undefined, auth);
  };
  await Promise.all(
    Array.from({ length: WIDTH }, async () => {
      while (made < n) await one(made++);
    }),
  );
  return a.id;
}

/** Milliseconds of `CALLS` sequential calls after 10 warm-up ones: median and 95th percentile. */
async function timed(fn) {
  for (let i = 0; i < 10; i++) await fn();
  const ms = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((x, y) => x - y);
  return { p50: ms[Math.floor(ms.length / 2)], p95: ms[Math.floor(ms.length * 0.95)] };
}

export const section = {
  name: 'verify',
  title: `Verify: one verification over a tenant of ${fmt(ENTRIES)} journal entries`,
  order: 65,
  async run() {
    const sb = await startNode([...shippedNodeFlags(), BIN, 'serve', '--port', '0', '--https-port', 'off', '--memory']);
    try {
      const accountId = await tenantWithJournal(sb.url, ENTRIES);
      const held = (await call(sb.url, 'GET', `/_sandbox/requests?accountId=${accountId}&limit=10000`)).length;
      const verify =
        (body, expect = [200]) =>
        () =>
          call(sb.url, 'POST', '/_sandbox/verify', { accountId, ...body }, {}, expect);
      const cases = [
        ['GET /_sandbox/requests?limit=1 (baseline)', () => call(sb.url, 'GET', `/_sandbox/requests?accountId=${accountId}&limit=1`)],
        ['verify: method and path (every lookup)', verify({ request: { method: 'GET', path: '/v1/banking/transactions/:id' } })],
        [
          'verify: a body subset (one charge of all)',
          verify({
            request: { method: 'POST', path: '/v1/banking/cash-in/pix', body: { amount: 1020 } },
            times: { atLeast: 1, atMost: 1 },
          }),
        ],
        ['verify: a header of every entry', verify({ request: { headers: { 'x-trace': { absent: true } } } })],
        [
          'verify that fails, with near misses',
          verify({ request: { method: 'POST', path: '/v1/banking/cash-in/pix', body: { amount: 7 } } }, [422]),
        ],
      ];
      const results = [];
      for (const [name, fn] of cases) results.push([name, await timed(fn)]);
      const base = results[0][1].p50;
      const rows = [
        ['call', 'p50 (ms)', 'p95 (ms)', 'p50 ratio to baseline'],
        ...results.map(([name, r]) => [name, fmt(r.p50, 2), fmt(r.p95, 2), `${fmt(r.p50 / base, 1)}×`]),
      ];
      table(rows);
      console.log(`  ${fmt(held)} entries in the tenant's journal; ${CALLS} sequential calls per row, end to end over HTTP`);
      const m = machine();
      const block = [
        `<!-- verify:start (bench/sections/verify.mjs writes this block) -->`,
        `${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${m.cpu}, load ${m.load}. One tenant, ${fmt(held)} journal entries (5 % charges, the rest lookups); ${CALLS} sequential calls per row, end to end.`,
        '',
        ...[rows[0], rows[0].map(() => '---'), ...rows.slice(1)].map((r) => `| ${r.join(' | ')} |`),
        `<!-- verify:end -->`,
      ].join('\n');
      await writeResultsBlock('verify', block, 'Verify (issue 24)');
    } finally {
      await sb.stop();
    }
  },
};
