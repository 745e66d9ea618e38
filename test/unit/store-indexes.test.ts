// The declared indexes against full scans, through a real Store on a temp file: a seeded random
// walk of mixed writes (new records, status changes, removals, changes that throw and are undone)
// over every collection; after each stretch, after the undos, and after a restart from the files
// (snapshot and log), every index holds exactly what a scan of the records says it should.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCharge } from '../../src/domain/charges.js';
import { nextAction } from '../../src/domain/due.js';
import { buildTransfer } from '../../src/domain/transfers.js';
import type { CollectionName, Delivery, New, Transaction } from '../../src/store/model.js';
import { accountStatusKey } from '../../src/store/schema.js';
import { Store, type Tx } from '../../src/store/store.js';
import { collectionsOf, indexProblems } from '../helpers/store-checks.js';
import { knob, pick, prng } from '../helpers/torture.js';

const STEPS = knob('STORE_WALK_STEPS', 3000);
const SEED = knob('STORE_WALK_SEED', 1701);
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let dir: string;
let file: string;
const open = () => Store.open({ file, fsync: false, now: () => iso(T0) });

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-store-ix-'));
  file = path.join(dir, 'db.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ACCOUNTS = [randomUUID(), randomUUID(), randomUUID()];
const ENDPOINTS = [randomUUID(), randomUUID(), randomUUID()];
const CHARGE = ['WAITING_PAYMENT', 'PAID', 'EXPIRED', 'CANCELLED'] as const;
const TRANSFER = ['PROCESSING', 'COMPLETED', 'FAILED'] as const;

/** One random change: a few writes of every kind, sometimes ending in a throw (undone whole). */
function change(tx: Tx, rand: () => number, ids: Record<CollectionName, string[]>): void {
  const at = (s: number) => T0 + Math.floor(rand() * s * 1000);
  const some = (c: CollectionName) => (ids[c].length ? pick(rand, ids[c]) : undefined);
  const forget = (c: CollectionName, id: string) => ids[c].splice(ids[c].indexOf(id), 1);
  for (let n = 1 + Math.floor(rand() * 4); n > 0; n--) {
    const r = rand();
    if (r < 0.2) {
      const accountId = pick(rand, ACCOUNTS);
      const now = new Date(at(3600));
      const outcome = rand() < 0.3 ? { ruleId: 'r', action: 'pay' as const, at: iso(at(7200)) } : undefined;
      const t =
        rand() < 0.5
          ? buildCharge({
              id: randomUUID(),
              accountId,
              merchantId: null,
              input: {
                amount: 100,
                description: 'walk',
                externalId: pick(rand, ['shared', 'other', `own-${n}`]),
                customer: { name: 'Ana', document: '52998224725' },
                expiration: 60 + Math.floor(rand() * 3600),
              },
              pixCode: 'x',
              split: [],
              now,
              ...(outcome ? { outcome } : {}),
            })
          : buildTransfer({
              id: randomUUID(),
              accountId,
              merchantId: null,
              amount: 100,
              description: 'walk',
              details: { name: 'Bia', key: '52998224725', keyType: 'CPF' },
              idempotencyKey: randomUUID(),
              settleAfterSeconds: Math.floor(rand() * 10),
              now,
            });
      ids.transactions.push(tx.put('transactions', t).id);
    } else if (r < 0.35) {
      const id = some('transactions');
      const t = id && tx.transactions.get(id);
      if (t) {
        const status = t.type === 'CASH_IN' ? pick(rand, CHARGE) : pick(rand, TRANSFER);
        tx.put('transactions', { ...t, status } as New<Transaction>);
      }
    } else if (r < 0.4) {
      const id = some('transactions');
      if (id && tx.remove('transactions', id)) forget('transactions', id);
    } else if (r < 0.5) {
      const e = {
        id: randomUUID(),
        from: 'world' as const,
        to: `account:${pick(rand, ACCOUNTS)}` as const,
        amount: 1,
        kind: 'ADJUSTMENT' as const,
      };
      ids.ledger.push(tx.put('ledger', { ...e, transactionId: rand() < 0.7 ? (some('transactions') ?? null) : null, at: iso(T0) }).id);
    } else if (r < 0.6) {
      const transactionId = some('transactions') ?? randomUUID();
      const event = {
        id: randomUUID(),
        type: 'cashin.paid' as const,
        accountId: pick(rand, ACCOUNTS),
        transactionId,
        createdAt: iso(at(60)),
      };
      ids.events.push(tx.put('events', { ...event, data: { transactionId, type: 'CASH_IN', status: 'PAID', amount: 1 } }).id);
    } else if (r < 0.75) {
      const d: New<Delivery> = {
        id: randomUUID(),
        accountId: pick(rand, ACCOUNTS),
        endpointId: pick(rand, ENDPOINTS),
        eventId: some('events') ?? randomUUID(),
        eventType: 'cashin.paid',
        transactionId: some('transactions') ?? randomUUID(),
        status: pick(rand, ['PENDING', 'DELIVERED', 'DEAD'] as const),
        attempts: [],
        nextAttemptAt: rand() < 0.8 ? iso(at(600)) : null,
        createdAt: iso(T0),
      };
      ids.deliveries.push(tx.put('deliveries', d).id);
    } else if (r < 0.85) {
      const id = some('deliveries');
      const d = id && tx.deliveries.get(id);
      if (d && rand() < 0.7)
        tx.put('deliveries', { ...d, status: pick(rand, ['PENDING', 'DELIVERED', 'DEAD'] as const), nextAttemptAt: iso(at(900)) });
      else if (id && tx.remove('deliveries', id)) forget('deliveries', id);
    } else if (r < 0.92) {
      const key = randomUUID();
      const principalId = pick(rand, ACCOUNTS);
      const rec = {
        id: `${principalId}:${key}`,
        principalId,
        accountId: principalId,
        key,
        bodyHash: 'ab'.repeat(32),
        statusCode: 201,
        body: { ok: true },
        createdAt: iso(T0),
      };
      ids.idempotency.push(tx.put('idempotency', { ...rec, expiresAt: iso(at(86_400)) }).id);
      const old = some('idempotency');
      if (old && rand() < 0.3 && tx.remove('idempotency', old)) forget('idempotency', old);
    } else {
      const accountId = pick(rand, ACCOUNTS);
      const id = some('merchants') ?? randomUUID();
      const m = tx.merchants.get(id);
      const document = String(10_000_000_000 + Math.floor(rand() * 50));
      const base = { id, accountId, name: 'M', document, documentType: 'CPF' as const, email: 'm@x.example', phone: '11912345678' };
      const merchant = {
        ...base,
        status: 'ACTIVE' as const,
        clientId: `c-${Math.floor(rand() * 30)}`,
        secretHash: 'h',
        walletId: randomUUID(),
      };
      tx.put('merchants', { ...merchant, createdAt: iso(T0), updatedAt: iso(T0), ...(m ? { seq: m.seq } : {}) });
      if (!m && ids.merchants.push(id) && rand() < 0.5)
        tx.put('webhookEndpoints', {
          id: randomUUID(),
          accountId,
          url: 'http://x',
          events: null,
          secret: 's',
          source: 'api',
          createdAt: iso(T0),
        });
    }
  }
  if (rand() < 0.15) throw new Error('undone');
}

const cloneIds = (ids: Record<CollectionName, string[]>) =>
  Object.fromEntries(Object.entries(ids).map(([k, v]) => [k, [...v]])) as Record<CollectionName, string[]>;

describe('declared indexes', () => {
  it(`agree with a full scan through ${STEPS} random mixed changes, their undos, and a restart from the files`, async () => {
    const rand = prng(SEED);
    let ids = Object.fromEntries(
      [
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
      ].map((c) => [c, []]),
    ) as unknown as Record<CollectionName, string[]>;
    const store = await open();
    let undone = 0;
    for (let step = 1; step <= STEPS; step++) {
      const kept = cloneIds(ids);
      // the first undos are compared whole: nothing of the change may remain
      const whole = undone < 40 ? JSON.stringify(store.toData()) : null;
      try {
        store.apply((tx) => change(tx, rand, ids));
      } catch (e) {
        expect((e as Error).message).toBe('undone');
        if (whole !== null) expect(JSON.stringify(store.toData()), `step ${step}: undone whole`).toBe(whole);
        ids = kept;
        undone++;
      }
      if (step % 500 === 0) expect(indexProblems(collectionsOf(store)), `step ${step}`).toEqual([]);
    }
    expect(undone).toBeGreaterThan(STEPS / 20);
    expect(indexProblems(collectionsOf(store))).toEqual([]);

    // the reads built on the indexes answer what a scan answers
    for (const a of ACCOUNTS) {
      const scanned = [...store.transactions.scan()].filter((t) => t.accountId === a).map((t) => t.id);
      expect([...store.transactions.find('byAccount', a)].map((t) => t.id)).toEqual(scanned);
      for (const s of [...CHARGE, ...TRANSFER]) {
        const want = [...store.transactions.scan()].filter((t) => t.accountId === a && t.status === s).map((t) => t.id);
        expect([...store.transactions.find('byAccountStatus', accountStatusKey(a, s))].map((t) => t.id)).toEqual(want);
        expect(store.transactions.count('byAccountStatus', accountStatusKey(a, s))).toBe(want.length);
      }
    }
    const shared = [...store.transactions.scan({ order: 'oldest' })].filter((t) => t.type === 'CASH_IN' && t.externalId === 'shared');
    expect([...store.transactions.find('byExternalId', 'shared', { order: 'oldest' })]).toEqual(shared);
    const dueBy = T0 + 1800_000;
    const due = ACCOUNTS.flatMap((a) => [...store.transactions.orderedIn('due', a, dueBy)]);
    expect(due.length).toBeGreaterThan(0);
    expect(due.every((t) => t.status === 'WAITING_PAYMENT' || t.status === 'PROCESSING')).toBe(true);
    for (const a of ACCOUNTS) {
      // each account's part of the grouped index: its own open transactions only, earliest first
      const mine = [...store.transactions.orderedIn('due', a)];
      expect(mine.every((t) => t.accountId === a)).toBe(true);
      const first = store.transactions.firstAfter('due', a, -Infinity);
      expect(first).toBe(mine.length > 0 ? Date.parse(nextAction(mine[0]!)!.at) : null);
    }
    for (const e of ENDPOINTS) {
      const want = [...store.deliveries.scan()].filter((d) => d.endpointId === e).map((d) => d.id);
      expect([...store.deliveries.find('byEndpoint', e)].map((d) => d.id)).toEqual(want);
    }

    // a crash: the log holds what the snapshot does not; a restart replays it into the same indexes
    await store.sync();
    const before = JSON.stringify(store.toData());
    const reopened = await open();
    expect(JSON.stringify(reopened.toData())).toBe(before);
    expect(indexProblems(collectionsOf(reopened))).toEqual([]);
    await reopened.close();
    const again = await open();
    expect(JSON.stringify(again.toData())).toBe(before);
    expect(indexProblems(collectionsOf(again))).toEqual([]);
    await again.close();
    await store.close().catch(() => undefined);
  }, 120_000);
});
