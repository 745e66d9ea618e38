// Writes a realistic pix-sandbox store file (db.json, the shape of src/store/model.ts) holding
// N transactions, without N HTTP calls: the bench's "100k stored transactions" in seconds, and a
// million without holding them in memory (the file is streamed record by record).
// Transactions are spread over the past `days` days, as in a long-lived CI sandbox; the
// idempotency records of cash-outs younger than 24 h are kept, as the store would keep them.
// Each transaction is a pure function of (seed, its number): the file can be written collection
// by collection (the snapshot's layout) without keeping what was generated, and the same ids come
// out every time (a bench can name some of them without building the store).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
// the sandbox's own code (dist/): the records are made and written as the sandbox makes and writes them
import { buildDynamicBrCode } from '../../dist/src/domain/brcode.js';
import { generateCpf } from '../../dist/src/domain/documents.js';
import { generateEndToEndId } from '../../dist/src/domain/end-to-end.js';
import { mulberry32 } from '../../dist/src/domain/random.js';
import { sourceOf, writeSnapshot } from '../../dist/src/store/snapshot.js';
import { DEFAULT_CLIENT } from './harness.mjs';

export const DEFAULT_ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';
const ISPBS = ['00000000', '00360305', '60701190', '60746948', '90400888', '18236120', '00416968'];
const NAMES = ['Maria Silva', 'João Souza', 'Ana Oliveira', 'Pedro Santos', 'Carla Lima', 'Lucas Pereira', 'Beatriz Costa'];
const COLLECTIONS = [
  'accounts',
  'merchants',
  'wallets',
  'transactions',
  'ledger',
  'idempotency',
  'pixKeys',
  'rules',
  'webhookEndpoints',
  'events',
  'deliveries',
  'faults',
];
/** seqs below this belong to the account, its merchants and wallets; transaction i takes BASE + 4i .. BASE + 4i + 3 */
const BASE = 1000;

/** mulberry32 (src/domain/random.ts): two runs write the same amounts and states. */
const prng = mulberry32;

const cpf = generateCpf;
const pixCode = (location, cents) =>
  buildDynamicBrCode({ location, amountCents: cents, merchantName: 'SANDBOX DEFAULT ACCOUNT', merchantCity: 'SAO PAULO' });
const iso = (ms) => new Date(ms).toISOString();
const e2e = (rand, ms) => generateEndToEndId(ISPBS[Math.floor(rand() * ISPBS.length)], new Date(ms), rand);

/** A version-4 UUID from the seeded source (so that a record's id is the same at every run). */
function uuid(rand) {
  const b = Buffer.alloc(16);
  for (let i = 0; i < 16; i++) b[i] = Math.floor(rand() * 256);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The stored form of the default secret, made by the sandbox's own code (dist/), so that its format always matches. */
export async function defaultSecretHash() {
  const { hashSecret } = await import(new URL('../../dist/src/domain/credentials.js', import.meta.url).href);
  return hashSecret(DEFAULT_CLIENT.client_secret);
}

/**
 * The plan of a store: the default account (sandbox-client / sandbox-secret), 20 merchants, and `n`
 * transactions; or of one tenant among several (`accountId`, `clientId`, its records' seqs from `seqBase` on).
 */
function plan(
  n,
  {
    secretHash,
    seed = 7,
    days = 10,
    nowMs = Date.now(),
    host = '127.0.0.1:8080',
    accountId = DEFAULT_ACCOUNT_ID,
    clientId = DEFAULT_CLIENT.client_id,
    seqBase = 0,
  },
) {
  const acc = accountId;
  const start = nowMs - days * 86_400_000;
  const step = (nowMs - start) / Math.max(1, n);
  const rand = prng(seed);
  const account = {
    id: acc,
    seq: seqBase + 1,
    name: acc === DEFAULT_ACCOUNT_ID ? 'Sandbox default account' : `Tenant ${acc.slice(0, 8)}`,
    clientId,
    secretHash,
    splitEnabled: true,
    autoPayAfterSeconds: null,
    settleAfterSeconds: 2,
    createdAt: iso(start),
    updatedAt: iso(start),
  };
  const opening = {
    id: uuid(rand),
    seq: seqBase + 2,
    from: 'world',
    to: `account:${acc}`,
    amount: 10_000_000_000_000,
    transactionId: null,
    kind: 'OPENING',
    at: iso(start),
  };
  const merchants = [];
  const wallets = [];
  for (let i = 0; i < 20; i++) {
    const id = uuid(rand);
    const walletId = uuid(rand);
    const at = iso(start + i * 1000);
    merchants.push({
      id,
      seq: seqBase + 10 + 2 * i,
      accountId: acc,
      name: `Loja ${i}`,
      document: cpf(rand),
      documentType: 'CPF',
      email: `loja${i}@example.com`,
      phone: '11987654321',
      status: 'ACTIVE',
      clientId: `mer_${randomBytes(9).toString('base64url')}`,
      secretHash,
      walletId,
      createdAt: at,
      updatedAt: at,
    });
    wallets.push({ id: walletId, seq: seqBase + 11 + 2 * i, accountId: acc, merchantId: id, name: 'main', currency: 'BRL', createdAt: at });
  }

  /** Transaction i with its ledger entries and idempotency record: a pure function of (seed, i). */
  function transaction(i) {
    const rand = prng(seed * 1_000_003 + i);
    const seq = seqBase + BASE + 4 * i;
    const ms = Math.floor(start + i * step);
    const at = iso(ms);
    const later = iso(ms + 2000);
    const id = uuid(rand);
    const amount = 100 + Math.floor(rand() * 99_900);
    const name = NAMES[Math.floor(rand() * NAMES.length)];
    const party = {
      name,
      document: cpf(rand),
      ispb: ISPBS[Math.floor(rand() * ISPBS.length)],
      account_number: String(10000 + Math.floor(rand() * 89999)),
      account_type: 'CACC',
    };
    const ledger = [];
    const entry = (k, from, to, kind, when) =>
      ledger.push({ id: uuid(rand), seq: seq + k, from, to, amount, transactionId: id, kind, at: when });
    let idempotency = null;
    let t;
    if (rand() < 0.5) {
      const r = rand();
      const status = r < 0.8 ? 'PAID' : r < 0.9 ? 'EXPIRED' : 'WAITING_PAYMENT';
      t = {
        id,
        seq,
        type: 'CASH_IN',
        status,
        accountId: acc,
        merchantId: null,
        amount,
        description: `Pedido ${i}`,
        customer: { name, document: party.document, email: 'cliente@example.com' },
        externalId: `order-${i}`,
        expiration: 86400,
        expiresAt: iso(ms + 86_400_000),
        pixCode: pixCode(`${host}/pix/qr/v2/${id}`, amount),
        split: [],
        createdAt: at,
        updatedAt: status === 'WAITING_PAYMENT' ? at : later,
      };
      if (status === 'PAID') Object.assign(t, { paidAt: later, endToEndId: e2e(rand, ms), payer: party });
      if (status === 'EXPIRED') t.error = { code: 'CHARGE_EXPIRED', message: 'the charge expired before it was paid' };
      if (status === 'PAID') entry(1, 'world', `account:${acc}`, 'CASH_IN', later);
    } else {
      const failed = rand() < 0.1;
      const key = cpf(rand);
      const idempotencyKey = uuid(rand);
      t = {
        id,
        seq,
        type: 'CASH_OUT',
        status: failed ? 'FAILED' : 'COMPLETED',
        accountId: acc,
        merchantId: null,
        amount,
        description: `Saque ${i}`,
        details: { name, document: key, key, keyType: 'CPF' },
        idempotencyKey,
        settleAt: later,
        settledAt: later,
        createdAt: at,
        updatedAt: later,
      };
      if (failed) t.error = { code: 'DOCUMENT_MISMATCH', message: 'the key belongs to another document' };
      else Object.assign(t, { endToEndId: e2e(rand, ms), receiver: { ...party, document: key, key, keyType: 'CPF' } });
      entry(1, `account:${acc}`, 'world', 'CASH_OUT', at);
      if (failed) entry(2, 'world', `account:${acc}`, 'CASH_OUT_REVERSAL', later);
      if (nowMs - ms < 86_400_000) {
        const body = { transactionId: id, amount, status: 'PROCESSING', createdAt: at, 'x-idempotency-key': idempotencyKey };
        const rid = `${acc}:${idempotencyKey}`;
        idempotency = {
          id: rid,
          seq: seq + 3,
          principalId: acc,
          accountId: acc,
          key: idempotencyKey,
          bodyHash: createHash('sha256').update(id).digest('hex'),
          statusCode: 201,
          body,
          createdAt: at,
          expiresAt: iso(ms + 86_400_000),
        };
      }
    }
    return { t, ledger, idempotency };
  }

  function* each(pick) {
    for (let i = 0; i < n; i++) yield* pick(transaction(i));
  }
  const meta = {
    schemaVersion: 1,
    signingSecret: randomBytes(32).toString('hex'),
    clockOffsetMs: 0,
    seq: seqBase + BASE + 4 * n,
    createdAt: iso(start),
  };
  const records = {
    accounts: () => [account],
    merchants: () => merchants,
    wallets: () => wallets,
    transactions: () => each((x) => [x.t]),
    ledger: function* () {
      yield opening;
      yield* each((x) => x.ledger);
    },
    idempotency: () => each((x) => (x.idempotency ? [x.idempotency] : [])),
  };
  return { meta, records, transaction };
}

/**
 * Builds the store in memory (small sizes): the default account with a large opening balance, a
 * few merchants, and `n` transactions with their ledger entries.
 */
export function buildData(n, opts) {
  const p = plan(n, opts);
  const data = { meta: p.meta };
  for (const c of COLLECTIONS) {
    data[c] = {};
    for (const r of p.records[c]?.() ?? []) data[c][r.id] = r;
  }
  return data;
}

/** Writes `data` as db.json in `dir` with the sandbox's own snapshot writer (src/store/snapshot.ts). */
export async function writeDb(dir, data) {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'db.json');
  await writeSnapshot(file, sourceOf(data), false);
  return file;
}

/**
 * Streams a store of `n` transactions to db.json in `dir` (nothing is kept in memory: a million
 * transactions take as little as a thousand) and returns `sample` of their ids spread over the
 * store (`ids`), and the same sample by type (`charges`, `transfers`).
 */
export async function writeSeededDb(dir, n, opts, sample = 500) {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'db.json');
  const p = plan(n, opts);
  const collections = COLLECTIONS.map((name) => ({
    name,
    *records() {
      for (const r of p.records[name]?.() ?? []) yield [r.id, r];
    },
  }));
  await writeSnapshot(file, { meta: p.meta, wal: 0, collections }, false);
  const every = Math.max(1, Math.floor(n / sample));
  const picked = [];
  for (let i = 0; i < n && picked.length < sample; i += every) picked.push(p.transaction(i).t);
  const of = (type) => picked.filter((t) => t.type === type).map((t) => t.id);
  return { file, ids: picked.map((t) => t.id), charges: of('CASH_IN'), transfers: of('CASH_OUT') };
}

/** The seqs one tenant's plan of `n` transactions takes (the next tenant's start after them). */
const seqsOf = (n) => BASE + 4 * n + 1;

/**
 * Streams a store of several tenants to db.json in `dir`: the default account first, then each tenant
 * of `tenants` ({accountId, clientId, n}), each with its merchants and `n` transactions. Resolves with a
 * sample of each tenant's transaction ids (`ids[accountId]`).
 */
export async function writeTenantsDb(dir, tenants, opts, sample = 200) {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'db.json');
  let seqBase = 0;
  const plans = tenants.map((t, k) => {
    const p = plan(t.n, { ...opts, seed: (opts.seed ?? 7) + k, accountId: t.accountId, clientId: t.clientId, seqBase });
    seqBase += seqsOf(t.n);
    return { t, p };
  });
  const meta = { ...plans[0].p.meta, seq: seqBase };
  const collections = COLLECTIONS.map((name) => ({
    name,
    *records() {
      for (const { p } of plans) for (const r of p.records[name]?.() ?? []) yield [r.id, r];
    },
  }));
  await writeSnapshot(file, { meta, wal: 0, collections }, false);
  const ids = {};
  for (const { t, p } of plans) {
    const every = Math.max(1, Math.floor(t.n / sample));
    ids[t.accountId] = [];
    for (let i = 0; i < t.n && ids[t.accountId].length < sample; i += every) ids[t.accountId].push(p.transaction(i).t.id);
  }
  return { file, ids };
}
