// Compaction beside the appends, and what a crash at each of its steps leaves: the snapshot names
// the last rotated log it covers, so a restart never replays older changes over a newer snapshot.
import { randomUUID } from 'node:crypto';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, type LedgerEntry, type Meta, type New, type Transfer } from '../../src/store/model.js';
import { Store } from '../../src/store/store.js';
import { headerLine } from '../../src/store/data-file.js';
import { WalAdapter } from '../../src/store/wal-adapter.js';
import { snapshotFile } from '../helpers/store-checks.js';

let dir: string;
let file: string;
const now = () => '2030-01-01T00:00:00.000Z';
const open = () => Store.open({ file, fsync: false, now });
/** A reset's new data: empty, the signing secret kept. */
const fresh = (old: Readonly<Meta>) => emptyData(old.signingSecret, now());

function transfer(id: string, status: Transfer['status']): New<Transfer> {
  return {
    id,
    type: 'CASH_OUT',
    status,
    accountId: 'acc',
    merchantId: null,
    amount: 100,
    description: 'compaction',
    details: { name: 'Ana', key: '52998224725', keyType: 'CPF' },
    idempotencyKey: randomUUID(),
    settleAt: now(),
    createdAt: now(),
    updatedAt: now(),
  };
}
const entry = (id: string, txId: string): New<LedgerEntry> => ({
  id,
  from: 'account:acc',
  to: 'world',
  amount: 100,
  transactionId: txId,
  kind: 'CASH_OUT',
  at: now(),
});

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-compaction-'));
  file = path.join(dir, 'db.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('compaction and crashes around it', () => {
  it('a crash after the new snapshot is in place but before the covered log is deleted never replays that log over it', async () => {
    const store = await open();
    const id = randomUUID();
    await store.commit((tx) => tx.put('transactions', transfer(id, 'PROCESSING')));
    // keep a copy of the log that the next compaction covers, as if its deletion never happened
    await copyFile(`${file}.wal`, path.join(dir, 'saved.wal'));
    await store.commit((tx) => tx.put('transactions', transfer(id, 'FAILED')));
    await store.close(); // compaction: the snapshot now holds FAILED
    const covered = (await snapshotFile(file)).header.covers!;
    expect(covered).toBeGreaterThan(0);
    await copyFile(path.join(dir, 'saved.wal'), `${file}.wal.${covered}`);
    const reopened = await open();
    expect(reopened.transactions.get(id)!.status).toBe('FAILED');
    const t = reopened.transactions.get(id)!;
    expect([...reopened.transactions.orderedIn('due', t.accountId)].map((t) => t.id)).not.toContain(id);
    await reopened.close();
    expect((await readdir(dir)).filter((f) => /\.wal\.\d+$/.test(f))).toEqual([]);
  });

  it('a crash before the new snapshot is in place replays the rotated log and the new one, in order', async () => {
    const store = await open();
    const id = randomUUID();
    await store.commit((tx) => tx.put('transactions', transfer(id, 'PROCESSING')));
    const { seq } = store.transactions.get(id)!;
    // the rotation happened (the old log renamed), then the process died before writing the snapshot
    await copyFile(`${file}.wal`, `${file}.wal.${(await snapshotFile(file)).header.covers! + 1}`);
    await writeFile(
      `${file}.wal`,
      `${headerLine('log')}${JSON.stringify([{ c: 'transactions', id, v: { ...transfer(id, 'COMPLETED'), seq } }])}\n`,
    );
    const reopened = await open();
    expect(reopened.transactions.get(id)!.status).toBe('COMPLETED');
    await reopened.close();
    await store.close().catch(() => undefined);
  });

  it('keeps answering commits while a large snapshot is written, and loses none of them', async () => {
    const store = await open();
    const ids: string[] = [];
    await store.commit((tx) => {
      for (let i = 0; i < 20_000; i++) {
        const id = randomUUID();
        ids.push(id);
        tx.put('transactions', transfer(id, 'COMPLETED'));
        tx.put('ledger', entry(randomUUID(), id));
      }
    });
    // that log is past twice the snapshot: a compaction starts, and these commits go on beside it
    const during: string[] = [];
    for (let i = 0; i < 200; i++) {
      const id = randomUUID();
      during.push(id);
      await store.commit((tx) => tx.put('transactions', transfer(id, 'PROCESSING')));
    }
    await store.idle();
    expect(store.stats().snapshotBytes).toBeGreaterThan(5_000_000);
    const reopened = await open();
    for (const id of [...ids.slice(0, 50), ...during]) expect(reopened.transactions.get(id), id).toBeDefined();
    expect([...reopened.transactions.scan({ order: 'oldest' })].map((r) => r.id)).toHaveLength(ids.length + during.length);
    expect(reopened.balances.of('account:acc')).toBe(-100 * ids.length);
    await reopened.close();
    await store.close();
  });

  it('refuses a change the log could not hold, and goes on working', async () => {
    const store = await open();
    const id = randomUUID();
    await expect(
      store.commit((tx) => tx.put('transactions', { ...transfer(id, 'PROCESSING'), amount: 1n as unknown as number })),
    ).rejects.toThrow();
    await expect(store.commit((tx) => tx.put('merchants', { id: 'm', odd: 2n } as never))).rejects.toThrow();
    expect(store.transactions.get(id)).toBeUndefined();
    expect(store.merchants.get('m')).toBeUndefined();
    await store.commit((tx) => tx.put('transactions', transfer(id, 'PROCESSING')));
    await store.close();
    const reopened = await open();
    expect(reopened.transactions.get(id)!.status).toBe('PROCESSING');
    await reopened.close();
  });

  it('the first compaction removes the snapshot temporary files a crash left behind, and nothing else', async () => {
    await (await open()).close();
    await writeFile(`${file}.0123456789ab.tmp`, '{"pixSandbox":"snapshot","version":1,"covers":0}\n[{"meta":"se');
    await writeFile(`${file}.notes.tmp`, 'not a snapshot of ours');
    const store = await open();
    await store.commit((tx) => tx.put('transactions', transfer(randomUUID(), 'COMPLETED')));
    await store.close(); // compacts
    expect((await readdir(dir)).sort()).toEqual(['db.json', 'db.json.notes.tmp', 'db.json.wal']);
  });

  it('a reset keeps the old store under a name of its own, whole, and puts the new snapshot in its place', async () => {
    const store = await open();
    const id = randomUUID();
    await store.commit((tx) => tx.put('transactions', transfer(id, 'COMPLETED')));
    await writeFile(`${file}.wal.x`, ''); // not a log of ours
    const kept = await store.replace('test', fresh, () => undefined);
    expect(kept).toBe(`${file}.test.bak`);
    // the old log went aside rotated (under its number); the new store has its snapshot and an empty log
    const names = (await readdir(dir)).sort();
    expect(names.map((n) => n.replace(/\.wal\.\d+$/, '.wal.<k>'))).toEqual([
      'db.json',
      'db.json.test.bak',
      'db.json.test.bak.wal.<k>',
      'db.json.wal',
      'db.json.wal.x',
    ]);
    expect((await new WalAdapter(kept!, false).read())!.toData().transactions[id]?.status).toBe('COMPLETED');
    expect(store.transactions.get(id)).toBeUndefined();
    await store.close();
    const reopened = await open();
    expect(reopened.transactions.get(id)).toBeUndefined();
    await reopened.close();
  });
});
