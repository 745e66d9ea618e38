// Bench section "security" (issue 22): what the hardening's promises look like when measured.
// - The token endpoint's time for an unknown client_id beside a known one with a wrong secret (its
//   hash made at the cost of a published or generated secret, and at a chosen secret's), and a right
//   secret: the distributions over many requests, interleaved, one at a time, so that no answer's time
//   tells whether a client_id exists.
// - 20 image payments (POST /_sandbox/pix/pay {qrImage}, 2400 × 2400 px) sent at once: the sandbox's
//   resident memory before, at its peak and after, beside one image alone, with how many were told to
//   come back (503 BUSY); each is sent again after Retry-After until paid.
// The sandbox runs as shipped (dist/bin/pix-sandbox.js) on a data folder. `node bench/run.mjs security`
// runs it alone (needs `npm run build`); BENCH_QUICK=1 makes it smaller. Writes its block of RESULTS.md.
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { BIN, fmt, QUICK, shippedNodeFlags, table, tempDir, writeResultsBlock } from '../lib/harness.mjs';
import { machine, memoryOf, startNode, tokenOf } from '../lib/procs.mjs';

const TOKEN_SAMPLES = QUICK ? 100 : 400;
const IMAGES = 20;
const SIDE = 2400;
const CPF = '52998224725';

/** A POST; sent again once when the pooled connection it went out on had been closed by the sandbox while idle. */
async function post(url, body, headers = {}) {
  const send = () =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  try {
    return await send();
  } catch (e) {
    if (e?.cause?.code !== 'UND_ERR_SOCKET') throw e;
    return send();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
function distribution(ms) {
  const s = [...ms].sort((a, b) => a - b);
  return {
    p10: percentile(s, 10),
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    mean: s.reduce((a, b) => a + b, 0) / s.length,
  };
}

async function tokenTiming(url) {
  // a tenant whose secret was chosen (hashed at scrypt's default cost, 16× the fixtures')
  const tenant = await (await post(`${url}/_sandbox/accounts`, { name: 'bench timing', client_secret: 'a-chosen-secret-0001' })).json();
  const kinds = {
    'unknown client_id': { client_id: 'no-such-client', client_secret: 'wrong-secret' },
    'known client_id (fixture secret), wrong secret': { client_id: 'sandbox-client', client_secret: 'wrong-secret' },
    'known client_id (chosen secret), wrong secret': { client_id: tenant.client_id, client_secret: 'wrong-secret' },
    'known client_id, right secret': { client_id: 'sandbox-client', client_secret: 'sandbox-secret' },
  };
  const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const once = async (creds) => {
    const t0 = performance.now();
    const r = await post(`${url}/v1/oauth/token`, { grant_type: 'client_credentials', ...creds });
    await r.arrayBuffer();
    return performance.now() - t0;
  };
  for (const creds of Object.values(kinds)) for (let i = 0; i < 10; i++) await once(creds); // warm-up
  // interleaved, one request at a time, in a new order each round: a burst of other work on the
  // machine, or a place in the round, touches every kind alike
  const entries = Object.entries(kinds);
  for (let i = 0; i < TOKEN_SAMPLES; i++) {
    for (let j = entries.length - 1; j > 0; j--) {
      const r = Math.floor(Math.random() * (j + 1));
      [entries[j], entries[r]] = [entries[r], entries[j]];
    }
    for (const [k, creds] of entries) times[k].push(await once(creds));
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, distribution(v)]));
}

/** `text` as a QR code in the middle of a white SIDE × SIDE PNG. */
function qrImage(text) {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const scale = 6;
  const origin = Math.floor((SIDE - n * scale) / 2);
  const png = new PNG({ width: SIDE, height: SIDE });
  png.data.fill(255);
  for (let y = 0; y < n * scale; y++)
    for (let x = 0; x < n * scale; x++)
      if (qr.modules.get(Math.floor(y / scale), Math.floor(x / scale))) {
        const i = ((origin + y) * SIDE + origin + x) * 4;
        png.data[i] = png.data[i + 1] = png.data[i + 2] = 0;
      }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/** Charges and the images of their QR codes, made before anything is measured (making them takes a while). */
async function imagesToPay(url) {
  const token = await tokenOf(url);
  const charges = [];
  for (let i = 0; i < IMAGES + 1; i++) {
    const c = await (
      await post(
        `${url}/v1/banking/cash-in/pix`,
        { amount: 1000 + i, description: 'bench image', customer: { name: 'Maria Silva', document: CPF } },
        { authorization: `Bearer ${token}` },
      )
    ).json();
    charges.push(c.pixCode);
  }
  return charges.map(qrImage);
}

async function imageMemory(sb, url, images) {
  const rss = () => memoryOf(sb.child.pid)?.rssMb ?? NaN;
  const measure = async (batch) => {
    const before = rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 10);
    let busy = 0;
    let sent = 0;
    const t0 = performance.now();
    await Promise.all(
      batch.map(async (qrImage) => {
        for (;;) {
          sent++;
          const r = await post(`${url}/_sandbox/pix/pay`, { qrImage });
          await r.arrayBuffer();
          if (r.status === 200) return;
          if (r.status !== 503) throw new Error(`pix/pay answered ${r.status}`);
          busy++;
          await new Promise((res) => setTimeout(res, Number(r.headers.get('retry-after') ?? 1) * 1000));
        }
      }),
    );
    clearInterval(sampler);
    return { before, peak, after: rss(), busy, sent, seconds: (performance.now() - t0) / 1000 };
  };
  const one = await measure(images.slice(0, 1));
  const all = await measure(images.slice(1));
  return { one, all, bytes: images[0].length };
}

export const section = {
  name: 'security',
  title: "Issue 22's measured promises: token endpoint timing, image decoding memory",
  order: 95,
  async run() {
    const { dir, cleanup } = await tempDir('security');
    let sb;
    try {
      sb = await startNode([...shippedNodeFlags(), BIN, 'serve', '--port', '0', '--https-port', 'off', '--data-dir', dir]);
      const toPay = await imagesToPay(sb.url);
      const timing = await tokenTiming(sb.url);
      const rows = Object.entries(timing).map(([k, d]) => [k, ...['p10', 'p50', 'p90', 'p99', 'mean'].map((p) => fmt(d[p], 1))]);
      const unknown = timing['unknown client_id'];
      const known = timing['known client_id (fixture secret), wrong secret'];
      const chosen = timing['known client_id (chosen secret), wrong secret'];
      const timingTable = [['POST /v1/oauth/token, ms', 'p10', 'p50', 'p90', 'p99', 'mean'], ...rows];
      table(timingTable);
      const medians = `median of an unknown client_id / a known one with a wrong secret: ${fmt(unknown.p50 / known.p50, 2)}× (fixture secret), ${fmt(unknown.p50 / chosen.p50, 2)}× (chosen secret)`;
      console.log(medians);

      const images = await imageMemory(sb, sb.url, toPay);
      const mem = [
        [
          'image payments at once',
          'requests sent',
          '503 BUSY',
          'RSS before, MB',
          'RSS peak, MB',
          'peak − before',
          'RSS after, MB',
          'seconds',
        ],
        ...[
          ['1', images.one],
          [String(IMAGES), images.all],
        ].map(([n, m]) => [
          n,
          String(m.sent),
          String(m.busy),
          fmt(m.before),
          fmt(m.peak),
          `+${fmt(m.peak - m.before)}`,
          fmt(m.after),
          fmt(m.seconds, 1),
        ]),
      ];
      table(mem);
      const md = (t) =>
        [`| ${t[0].join(' | ')} |`, `|${t[0].map(() => '---').join('|')}|`, ...t.slice(1).map((r) => `| ${r.join(' | ')} |`)].join('\n');
      const m = machine();
      await writeResultsBlock(
        'security',
        [
          '<!-- security:start (written by `node bench/run.mjs security`; edit outside the markers) -->',
          `Run: ${new Date().toISOString()} — \`${QUICK ? 'BENCH_QUICK=1 ' : ''}node bench/run.mjs security\`; load average at the start ${m.load}; Node ${process.version}.`,
          '',
          `Token endpoint, ${TOKEN_SAMPLES} requests of each kind, interleaved, one at a time, against the sandbox as shipped:`,
          '',
          md(timingTable),
          '',
          `${medians[0].toUpperCase()}${medians.slice(1)}.`,
          '',
          `Image payments (${SIDE} × ${SIDE} px PNG, ${fmt(images.bytes / 1024)} KB as a data URL), each sent again after Retry-After until paid; the sandbox's resident memory from /proc:`,
          '',
          md(mem),
          '<!-- security:end -->',
        ].join('\n'),
        'Security (issue 22)',
      );
    } finally {
      await sb?.stop();
      await cleanup();
    }
  },
};
