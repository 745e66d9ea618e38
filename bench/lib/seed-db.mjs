// Writes a realistic pix-sandbox store file (db.json, the shape of src/store/model.ts) holding
// N transactions, without N HTTP calls: the bench's "100k stored transactions" in seconds.
// Transactions are spread over the past `days` days, as in a long-lived CI sandbox; the
// idempotency records of cash-outs younger than 24 h are kept, as the store would keep them.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
// the sandbox's own code (dist/): the records are made and written as the sandbox makes and writes them
import { buildDynamicBrCode } from '../../dist/src/domain/brcode.js';
import { generateCpf } from '../../dist/src/domain/documents.js';
import { generateEndToEndId } from '../../dist/src/domain/end-to-end.js';
import { mulberry32 } from '../../dist/src/domain/random.js';
import { captureOf, writeSnapshot } from '../../dist/src/store/snapshot.js';
import { DEFAULT_CLIENT } from './harness.mjs';

export const DEFAULT_ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';
const ISPBS = ['00000000', '00360305', '60701190', '60746948', '90400888', '18236120', '00416968'];
const NAMES = ['Maria Silva', 'João Souza', 'Ana Oliveira', 'Pedro Santos', 'Carla Lima', 'Lucas Pereira', 'Beatriz Costa'];

/** mulberry32 (src/domain/random.ts): two runs write the same amounts and states. */
export const prng = mulberry32;

const cpf = generateCpf;
const pixCode = (location, cents) =>
  buildDynamicBrCode({ location, amountCents: cents, merchantName: 'SANDBOX DEFAULT ACCOUNT', merchantCity: 'SAO PAULO' });
const iso = (ms) => new Date(ms).toISOString();
const e2e = (rand, ms) => generateEndToEndId(ISPBS[Math.floor(rand() * ISPBS.length)], new Date(ms), rand);

/** The stored form of the default secret, made by the sandbox's own code (dist/), so that its format always matches. */
export async function defaultSecretHash() {
  const { hashSecret } = await import(new URL('../../dist/src/domain/credentials.js', import.meta.url).href);
  return hashSecret(DEFAULT_CLIENT.client_secret);
}

/**
 * Builds the store: the default account (credentials sandbox-client / sandbox-secret) with a
 * large opening balance, a few merchants, and `n` transactions with their ledger entries.
 */
export function buildData(n, { secretHash, seed = 7, days = 10, nowMs = Date.now(), host = '127.0.0.1:8080' }) {
  const rand = prng(seed);
  const acc = DEFAULT_ACCOUNT_ID;
  const start = nowMs - days * 86_400_000;
  const data = {
    meta: { schemaVersion: 1, signingSecret: randomBytes(32).toString('hex'), clockOffsetMs: 0, seq: 0, createdAt: iso(start) },
    accounts: {
      [acc]: {
        id: acc,
        name: 'Sandbox default account',
        clientId: DEFAULT_CLIENT.client_id,
        secretHash,
        splitEnabled: true,
        autoPayAfterSeconds: null,
        settleAfterSeconds: 2,
        createdAt: iso(start),
        updatedAt: iso(start),
      },
    },
    merchants: {},
    wallets: {},
    transactions: {},
    ledger: {},
    idempotency: {},
    pixKeys: {},
    rules: {},
    webhookEndpoints: {},
    events: {},
    deliveries: {},
    faults: {},
  };
  const ledger = (from, to, amount, transactionId, kind, at) => {
    const id = randomUUID();
    data.ledger[id] = { id, from, to, amount, transactionId, kind, at };
  };
  ledger('world', `account:${acc}`, 10_000_000_000_000, null, 'OPENING', iso(start));
  for (let i = 0; i < 20; i++) {
    const id = randomUUID();
    const walletId = randomUUID();
    const at = iso(start + i * 1000);
    data.merchants[id] = {
      id,
      accountId: acc,
      name: `Loja ${i}`,
      document: cpf(rand),
      documentType: 'CPF',
      email: `loja${i}@example.com`,
      phone: '11987654321',
      status: 'ACTIVE',
      clientId: `mer_${randomBytes(9).toString('base64url')}`,
      secretHash: data.accounts[acc].secretHash,
      walletId,
      createdAt: at,
      updatedAt: at,
    };
    data.wallets[walletId] = { id: walletId, accountId: acc, merchantId: id, name: 'main', currency: 'BRL', createdAt: at };
  }
  const step = (nowMs - start) / Math.max(1, n);
  for (let i = 0; i < n; i++) {
    const ms = Math.floor(start + i * step);
    const at = iso(ms);
    const later = iso(ms + 2000);
    const id = randomUUID();
    const amount = 100 + Math.floor(rand() * 99_900);
    const name = NAMES[Math.floor(rand() * NAMES.length)];
    const party = {
      name,
      document: cpf(rand),
      ispb: ISPBS[Math.floor(rand() * ISPBS.length)],
      account_number: String(10000 + Math.floor(rand() * 89999)),
      account_type: 'CACC',
    };
    if (rand() < 0.5) {
      const r = rand();
      const status = r < 0.8 ? 'PAID' : r < 0.9 ? 'EXPIRED' : 'WAITING_PAYMENT';
      const t = {
        id,
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
      data.transactions[id] = t;
      if (status === 'PAID') ledger('world', `account:${acc}`, amount, id, 'CASH_IN', later);
    } else {
      const failed = rand() < 0.1;
      const key = cpf(rand);
      const idempotencyKey = randomUUID();
      const t = {
        id,
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
      data.transactions[id] = t;
      ledger(`account:${acc}`, 'world', amount, id, 'CASH_OUT', at);
      if (failed) ledger('world', `account:${acc}`, amount, id, 'CASH_OUT_REVERSAL', later);
      if (nowMs - ms < 86_400_000) {
        const body = { transactionId: id, amount, status: 'PROCESSING', createdAt: at, 'x-idempotency-key': idempotencyKey };
        const rid = `${acc}:${idempotencyKey}`;
        data.idempotency[rid] = {
          id: rid,
          principalId: acc,
          key: idempotencyKey,
          bodyHash: createHash('sha256').update(id).digest('hex'),
          statusCode: 201,
          body,
          createdAt: at,
          expiresAt: iso(ms + 86_400_000),
        };
      }
    }
  }
  data.meta.seq = n;
  return data;
}

/** Writes `data` as db.json in `dir` with the sandbox's own snapshot writer (src/store/snapshot.ts). */
export async function writeDb(dir, data) {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'db.json');
  await writeSnapshot(file, captureOf(data, 0), false);
  return file;
}
