// Durable merchant creation: pix-sandbox (WAL + group commit, fsync on, booted in this process
// from dist/) against a one-write-per-request lowdb baseline (express + JSONFilePreset, one
// db.update() per POST, lowdb's default: whole-file rewrite, no fsync), each holding 1k and 10k
// merchants before the run. The load generator is a separate process (lib/load.mjs).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import express from 'express';
import { JSONFilePreset } from 'lowdb/node';
import { cpfFrom } from '../lib/documents.mjs';
import { dist, fmt, load, pause, SECONDS, table, tempDir } from '../lib/harness.mjs';

const SIZES = [1_000, 10_000];
const WARMUP_SECONDS = 1;
const ROUNDS = 2;
const NOW = '2030-01-01T00:00:00.000Z';

/** The same records the sandbox stores for a merchant: the merchant and its main wallet. */
function seedRecords(n, accountId, secretHash) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    const walletId = randomUUID();
    out.push({
      merchant: {
        id,
        accountId,
        name: `Seeded merchant ${i}`,
        document: cpfFrom(100_000_000 + i),
        documentType: 'CPF',
        email: `m${i}@seed.example`,
        phone: '11912345678',
        status: 'ACTIVE',
        clientId: `mch_seed${i}`,
        secretHash,
        walletId,
        createdAt: NOW,
        updatedAt: NOW,
      },
      wallet: { id: walletId, accountId, merchantId: id, name: 'main', currency: 'BRL', createdAt: NOW },
    });
  }
  return out;
}

/** The sandbox from dist/, in this process, on a temp data dir with fsync on, pre-seeded with n merchants. */
async function startSandbox(n, secretHash) {
  const { boot } = await import(dist('server.js'));
  const { defaultConfig } = await import(dist('config.js'));
  const { dir, cleanup } = await tempDir('sandbox');
  const running = await boot(
    defaultConfig({ port: 0, httpsPort: null, dataDir: dir, memory: false, fsync: true, tick: false, quiet: true }),
  );
  const store = running.ctx.store;
  const accountId = store.accounts.scan({ order: 'oldest' }).next().value.id;
  const seeded = seedRecords(n, accountId, secretHash);
  await store.commit((tx) => {
    for (const { merchant, wallet } of seeded) {
      tx.put('merchants', merchant);
      tx.put('wallets', wallet);
    }
  });
  const url = running.listeners[0].url;
  const tok = await fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
  }).then((r) => r.json());
  return {
    url,
    headers: { authorization: `Bearer ${tok.access_token}` },
    count: () => store.merchants.size,
    ids: (k) => seeded.slice(0, k).map((s) => s.merchant.id),
    async close() {
      await running.stop();
      await cleanup();
    },
  };
}

/** The baseline: express + lowdb's JSONFilePreset, one db.update() (a whole-file rewrite) per request. */
async function startLowdb(n, secretHash) {
  const { dir, cleanup } = await tempDir('lowdb');
  const seeded = seedRecords(n, 'acc', secretHash);
  const db = await JSONFilePreset(path.join(dir, 'db.json'), { merchants: [], wallets: [] });
  db.data.merchants = seeded.map((s) => s.merchant);
  db.data.wallets = seeded.map((s) => s.wallet);
  await db.write();
  const app = express();
  let inFlight = 0;
  app.post('/v1/merchants', express.json(), async (req, res) => {
    inFlight++;
    res.on('close', () => inFlight--);
    const now = new Date().toISOString();
    const merchant = {
      id: randomUUID(),
      accountId: 'acc',
      ...req.body,
      status: 'ACTIVE',
      clientId: `mch_${randomUUID()}`,
      secretHash,
      walletId: randomUUID(),
      createdAt: now,
      updatedAt: now,
    };
    const wallet = { id: merchant.walletId, accountId: 'acc', merchantId: merchant.id, name: 'main', currency: 'BRL', createdAt: now };
    await db.update((data) => {
      data.merchants.push(merchant);
      data.wallets.push(wallet);
    });
    res.status(201).json({ statusCode: 201, message: 'Merchant created successfully', data: { merchant, wallet_id: wallet.id } });
  });
  app.patch('/v1/merchants/:id', express.json(), async (req, res) => {
    inFlight++;
    res.on('close', () => inFlight--);
    let found;
    await db.update((data) => {
      found = data.merchants.find((m) => m.id === req.params.id);
      if (found) Object.assign(found, req.body, { updatedAt: new Date().toISOString() });
    });
    if (!found) return res.status(404).json({ statusCode: 404 });
    res.json({ merchantId: found.id, name: found.name, updatedAt: found.updatedAt });
  });
  const server = http.createServer(app);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    headers: {},
    count: () => db.data.merchants.length,
    ids: (k) => seeded.slice(0, k).map((s) => s.merchant.id),
    async close() {
      // writes queued behind the last answers still run: let them land before the folder goes
      while (inFlight > 0) await pause(50);
      await db.write();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await cleanup();
    },
  };
}

/** What one run does: create merchants (POST, a scrypt hash each) or rename seeded ones (PATCH). */
const OPS = {
  create: () => ({ method: 'POST', path: '/v1/merchants', bodyKind: 'merchant' }),
  update: (t) => ({
    method: 'PATCH',
    path: '/v1/merchants',
    bodyKind: 'merchant-patch',
    paths: t.ids(500).map((id) => `/v1/merchants/${id}`),
  }),
};

/**
 * One measured run. Server CPU per request = this process's CPU (the load generator is another
 * process) over the requests it served; a creation counts once stored, answered or not yet.
 */
async function measure(target, op, seconds, seed) {
  const before = target.count();
  const cpu0 = process.cpuUsage();
  const r = await load({
    url: target.url,
    headers: { 'content-type': 'application/json', ...target.headers },
    ...OPS[op](target),
    seconds,
    seed,
  });
  const cpu = process.cpuUsage(cpu0);
  const created = target.count() - before;
  if (op === 'create' && created < r.ok) console.log(`  warning: ${r.ok} answers 201 but only ${created} merchants stored`);
  const served = op === 'create' ? created : r.ok + r.non2xx;
  return { ...r, cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, served) };
}

/** Both servers measured in alternating rounds after a warm-up; the best round of each counts. */
async function compare(targets, op, n) {
  for (const t of Object.values(targets)) await measure(t, op, WARMUP_SECONDS, 900_000_000);
  const best = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, t] of Object.entries(targets)) {
      await pause(300);
      const r = await measure(t, op, SECONDS, 500_000_000 + round * 10_000_000);
      if (r.non2xx || r.errors || r.timeouts)
        console.log(`  ${name} ${op} at ${n}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      if (!best[name] || r.rps > best[name].rps) best[name] = r;
    }
  }
  return best;
}

/** CPU milliseconds of one scrypt hash of a client secret, as merchant creation does it. */
async function scryptCpuMs(hashSecret) {
  const rounds = 40;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await hashSecret(`secret-${i}`, 'generated');
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000 / rounds;
}

export const section = {
  name: 'merchants',
  title: 'Durable merchant creation: pix-sandbox vs a one-write-per-request lowdb baseline',
  order: 10,
  async run() {
    const { hashSecret } = await import(dist('domain', 'credentials.js'));
    const secretHash = await hashSecret('bench-seed-secret');
    const rows = [
      [
        'request',
        'stored merchants',
        'pix-sandbox req/s',
        'p99 ms',
        'lowdb baseline req/s',
        'p99 ms',
        'ratio',
        'sandbox CPU ms/req',
        'baseline CPU ms/req',
      ],
    ];
    const createCpu = [];
    for (const n of SIZES) {
      const targets = { sandbox: await startSandbox(n, secretHash), baseline: await startLowdb(n, secretHash) };
      try {
        for (const op of ['create', 'update']) {
          const { sandbox: s, baseline: b } = await compare(targets, op, n);
          if (op === 'create') createCpu.push(s.cpuMsPerRequest);
          const label = op === 'create' ? 'POST /v1/merchants (create)' : 'PATCH /v1/merchants/{id}';
          rows.push([
            label,
            fmt(n),
            fmt(s.rps, 1),
            fmt(s.latency.p99),
            fmt(b.rps, 1),
            fmt(b.latency.p99),
            `${fmt(s.rps / b.rps, 2)}×`,
            fmt(s.cpuMsPerRequest, 1),
            fmt(b.cpuMsPerRequest, 1),
          ]);
        }
      } finally {
        for (const t of Object.values(targets)) await t.close();
      }
    }
    table(rows);
    const scrypt = await scryptCpuMs(hashSecret);
    const share = createCpu.map((c) => `${fmt(Math.min(100, (100 * scrypt) / c))}%`).join(' and ');
    console.log(
      `\nEach creation hashes the new client_secret with scrypt (secrets are stored only hashed): ${fmt(scrypt, 1)} ms of CPU per` +
        `\nhash, ${share} of the sandbox's CPU per creation at ${SIZES.map((n) => fmt(n)).join(' and ')} merchants. PATCH is the same` +
        `\ndurable commit without the hash. The baseline hashes nothing and never fsyncs; the sandbox fsyncs every group commit.` +
        `\nBest of ${ROUNDS} alternating ${SECONDS} s rounds after a ${WARMUP_SECONDS} s warm-up each; req/s counts 2xx answers.`,
    );
  },
};
