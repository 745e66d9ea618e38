// Bench section "journal" (issue 23): the resident memory of a sandbox whose request journal is full,
// 10 tenants × 10,000 entries (its default size per tenant), beside an idle sandbox and beside the
// same load with the journal off (--journal-size 0: the same records in the store, no journal), so that
// the journal's own share is the difference. Each tenant makes what an app makes: its token, charges
// (a JSON body, an answer holding a QR image), cash-outs (a body and an idempotency key) and lookups.
// Every sandbox runs as shipped (dist/bin/pix-sandbox.js) in its own process, in memory (the figure is
// of memory, not of the disk), its RSS read from /proc after two full collections.
// `node bench/run.mjs journal` runs it alone (needs `npm run build`). Knobs: BENCH_JOURNAL_TENANTS
// (default 10), BENCH_JOURNAL_ENTRIES (per tenant, default 10,000; BENCH_QUICK=1: 1,000).
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { BENCH_DIR, BIN, fmt, pause, QUICK, shippedNodeFlags, table, writeResultsBlock } from '../lib/harness.mjs';
import { machine, memoryOf, startNode } from '../lib/procs.mjs';

const TENANTS = Number(process.env.BENCH_JOURNAL_TENANTS ?? 10);
const ENTRIES = Number(process.env.BENCH_JOURNAL_ENTRIES ?? (QUICK ? 1_000 : 10_000));
const GC_PRELOAD = path.join(BENCH_DIR, 'lib', 'gc-on-signal.cjs');
const WIDTH = 16;

const sandbox = (journalSize) =>
  startNode([
    ...shippedNodeFlags(),
    '--expose-gc',
    '-r',
    GC_PRELOAD,
    BIN,
    'serve',
    '--port',
    '0',
    '--https-port',
    'off',
    '--memory',
    '--journal-size',
    String(journalSize),
  ]);

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

/** One tenant's `n` requests: its token, then 5 % charges, 5 % cash-outs, the rest lookups of its charges. */
async function tenantLoad(url, i, n) {
  const a = await call(url, 'POST', '/_sandbox/accounts', {
    name: `bench journal ${i}`,
    balance: 1_000_000_000,
    settleAfterSeconds: 86_400,
  });
  const { access_token } = await call(url, 'POST', '/v1/oauth/token', { client_id: a.client_id, client_secret: a.client_secret });
  const auth = { authorization: `Bearer ${access_token}` };
  const ids = [];
  let made = 1;
  const one = async (k) => {
    if (k % 20 === 0 || ids.length === 0) {
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
}

async function rssAfterGc(proc) {
  for (let i = 0; i < 2; i++) {
    proc.child.kill('SIGUSR2');
    await pause(700);
  }
  return memoryOf(proc.child.pid).rssMb;
}

/** RSS of a sandbox after the load of every tenant (none: idle), and how many entries its journal holds. */
async function measure(journalSize, tenants) {
  const sb = await sandbox(journalSize);
  try {
    await call(sb.url, 'GET', '/_sandbox/health');
    const started = performance.now();
    for (let i = 0; i < tenants; i++) await tenantLoad(sb.url, i, ENTRIES);
    const seconds = (performance.now() - started) / 1000;
    await pause(2500); // past the store's idle release
    const rss = await rssAfterGc(sb);
    const entries = tenants === 0 ? 0 : (await call(sb.url, 'GET', '/_sandbox/requests?limit=10000')).length;
    return { rss, seconds, entries };
  } finally {
    await sb.stop();
  }
}

export const section = {
  name: 'journal',
  title: `Journal memory: ${TENANTS} tenants × ${fmt(ENTRIES)} entries`,
  order: 60,
  async run() {
    const idle = await measure(ENTRIES, 0);
    const off = await measure(0, TENANTS);
    const full = await measure(ENTRIES, TENANTS);
    const journalMb = full.rss - off.rss;
    const perEntry = (journalMb * 1024 * 1024) / (TENANTS * ENTRIES);
    const rows = [
      ['sandbox', 'RSS (MB)', 'ratio to idle', 'load (s)'],
      ['idle (fixtures only)', fmt(idle.rss, 1), '1.00×', '–'],
      [`after the load, journal off (--journal-size 0)`, fmt(off.rss, 1), `${fmt(off.rss / idle.rss, 2)}×`, fmt(off.seconds, 0)],
      [
        `after the load, journal full (${TENANTS} × ${fmt(ENTRIES)})`,
        fmt(full.rss, 1),
        `${fmt(full.rss / idle.rss, 2)}×`,
        fmt(full.seconds, 0),
      ],
    ];
    table(rows);
    console.log(`  the journal's own share: ${fmt(journalMb, 1)} MB, about ${fmt(perEntry, 0)} bytes per entry`);
    const m = machine();
    const block = [
      `<!-- journal:start (bench/sections/journal.mjs writes this block) -->`,
      `${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${m.cpu}, load ${m.load}. Each tenant: its token, 5 % charges, 5 % cash-outs, the rest lookups.`,
      '',
      ...[rows[0], rows[0].map(() => '---'), ...rows.slice(1)].map((r) => `| ${r.join(' | ')} |`),
      '',
      `The journal's own share (full − off): ${fmt(journalMb, 1)} MB for ${fmt(TENANTS * ENTRIES)} entries, about ${fmt(perEntry, 0)} bytes each.`,
      `<!-- journal:end -->`,
    ].join('\n');
    await writeResultsBlock('journal', block, 'Journal memory (issue 23)');
  },
};
