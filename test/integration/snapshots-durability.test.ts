// How named snapshots are kept (docs/store.md#named-snapshots): a restore is one small op in the log
// that a restart replays from the snapshot's file, to the same records and indexes; a snapshot's file
// stays while a log names it, even once the snapshot is deleted, and goes once a compaction covers
// that log; a start removes files no snapshot names and forgets a snapshot whose file is gone; a
// restore that fails half-way changes nothing; an in-memory sandbox keeps snapshots in memory.
import { mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCharge, createTransfer } from '../helpers/control.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { collectionsOf, collectionsOfData, indexProblems, logLines } from '../helpers/store-checks.js';
import { tenantListing } from '../helpers/tenant-listing.js';
import { readStoreDataOffline } from '../helpers/torture.js';
import type { Data } from '../../src/store/model.js';

const A = { id: 'aaaaaaaa-0000-4000-8000-0000000000aa', client_id: 'dur-a', client_secret: 'dur-a-secret' };
let sb: TestSandbox | null = null;
let dir: string | null = null;

afterEach(async () => {
  await sb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  sb = dir = null;
});

async function start(memory = false): Promise<TestSandbox> {
  if (!memory) dir ??= await mkdtemp(path.join(os.tmpdir(), 'pix-snap-dur-'));
  return (sb = memory ? await startTestSandbox() : await startTestSandbox({ file: true, dataDir: dir! }));
}

async function tenantWithMoney(s: TestSandbox): Promise<string> {
  expect((await s.request('POST', '/_sandbox/accounts', { body: { ...A, name: 'A', balance: 100_000 } })).status).toBe(201);
  const token = await s.token(A);
  for (let i = 0; i < 5; i++) await createCharge(s, token, 1_000 + i);
  await createTransfer(s, token, 500);
  return token;
}

/** Every record of the tenant in plain data, by collection (what a restart must give back). */
function recordsOf(data: Data, accountId: string): Record<string, unknown[]> {
  const mine = (r: Record<string, unknown>) =>
    r.accountId === accountId || r.id === accountId || String(r.from).endsWith(accountId) || String(r.to).endsWith(accountId);
  const out: Record<string, unknown[]> = {};
  for (const c of ['accounts', 'transactions', 'ledger', 'idempotency', 'origins'] as const)
    out[c] = Object.values(data[c] as unknown as Record<string, Record<string, unknown>>).filter(mine);
  return out;
}

const snapshotFiles = async () => (await readdir(path.join(dir!, 'snapshots')).catch(() => [] as string[])).sort();

describe('a restore in the log', () => {
  it('is one small line; a restart replays it from the file to the same records and indexes', async () => {
    const s = await start();
    const token = await tenantWithMoney(s);
    expect((await s.request('POST', '/_sandbox/snapshots', { body: { name: 'five', accountId: A.id } })).status).toBe(201);
    for (let i = 0; i < 20; i++) await createCharge(s, token, 3_000 + i);
    const before = (await logLines(path.join(dir!, 'db.json.wal'))).length;
    expect((await s.request('POST', '/_sandbox/snapshots/five/restore')).status).toBe(200);
    const lines = await logLines(path.join(dir!, 'db.json.wal'));
    const restoreLine = lines.slice(before).find((l) => l.includes('"restore"'))!;
    expect(restoreLine.length).toBeLessThan(2_000); // the op names the file; the records stay in it
    // what a crash now would leave: db.json before the restore, and the log naming the file
    const offline = await readStoreDataOffline(dir!);
    expect(indexProblems(collectionsOfData(offline))).toEqual([]);
    expect(recordsOf(offline.toData(), A.id)).toEqual(recordsOf(s.running.ctx.store.toData(), A.id));
    expect(indexProblems(collectionsOf(s.running.ctx.store))).toEqual([]);
  });

  it("keeps the snapshot's file while a log names it, even once deleted, and drops it after a compaction", async () => {
    const s = await start();
    await tenantWithMoney(s);
    expect((await s.request('POST', '/_sandbox/snapshots', { body: { name: 'gone-soon', accountId: A.id } })).status).toBe(201);
    const files = await snapshotFiles();
    expect(files).toHaveLength(1);
    expect((await s.request('POST', '/_sandbox/snapshots/gone-soon/restore')).status).toBe(200);
    expect((await s.request('DELETE', '/_sandbox/snapshots/gone-soon')).status).toBe(204);
    expect(await snapshotFiles()).toEqual(files); // the log still names it: a crash now must be able to replay
    expect((await readStoreDataOffline(dir!)).collections.savedSnapshots.size).toBe(0);
    await s.stop(); // its compaction covers the log
    sb = null;
    expect(await snapshotFiles()).toEqual([]);
    const again = await start();
    expect((await again.request('GET', '/_sandbox/snapshots')).body).toEqual([]);
  });

  it('replaced: the old file goes, the new one stays', async () => {
    const s = await start();
    await tenantWithMoney(s);
    await s.request('POST', '/_sandbox/snapshots', { body: { name: 'twice', accountId: A.id } });
    const first = await snapshotFiles();
    await s.request('POST', '/_sandbox/snapshots', { body: { name: 'twice', accountId: A.id, replace: true } });
    const second = await snapshotFiles();
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });
});

describe('a start', () => {
  it('removes files no snapshot names and forgets a snapshot whose file is gone', async () => {
    let s = await start();
    await tenantWithMoney(s);
    await s.request('POST', '/_sandbox/snapshots', { body: { name: 'kept', accountId: A.id } });
    await s.request('POST', '/_sandbox/snapshots', { body: { name: 'lost', accountId: A.id } });
    await s.stop();
    const [kept, lost] = await Promise.all(['kept', 'lost'].map(async (n) => (await snapshotFiles()).find((f) => f.startsWith(`${n}.`))!));
    await unlink(path.join(dir!, 'snapshots', lost!));
    await writeFile(path.join(dir!, 'snapshots', 'stray.123456789abc.json'), 'left by a crash');
    s = await start();
    expect((await s.request('GET', '/_sandbox/snapshots')).body.map((x: { name: string }) => x.name)).toEqual(['kept']);
    expect(await snapshotFiles()).toEqual([kept]);
    expect((await s.request('POST', '/_sandbox/snapshots/kept/restore')).status).toBe(200);
  });
});

describe('a restore that throws', () => {
  it('changes nothing: every record and index as it was', async () => {
    const s = await start();
    const token = await tenantWithMoney(s);
    await s.request('POST', '/_sandbox/snapshots', { body: { name: 'undo', accountId: A.id } });
    await createCharge(s, token, 7_777);
    const store = s.running.ctx.store;
    const before = JSON.stringify(store.toData());
    const image = store.capture(null); // a different scope's records: any image will do
    const throwing = store.commit((tx) => {
      tx.restore({ scope: A.id, from: { file: store.savedSnapshots.get('undo')!.file } }, image);
      throw new Error('refused after the restore');
    });
    await expect(throwing).rejects.toThrow('refused after the restore');
    expect(JSON.stringify(store.toData())).toBe(before);
    expect(indexProblems(collectionsOf(store))).toEqual([]);
  });
});

describe('an in-memory sandbox', () => {
  it('keeps its snapshots in memory: save, restore, export', async () => {
    const s = await start(true);
    const token = await tenantWithMoney(s);
    const before = await tenantListing((m, p, t) => s.request(m, p, t ? { token: t } : {}), A.id, { token, withoutClock: true });
    expect((await s.request('POST', '/_sandbox/snapshots', { body: { name: 'mem', accountId: A.id } })).status).toBe(201);
    await createCharge(s, token, 9_999);
    expect((await s.request('POST', '/_sandbox/snapshots/mem/restore')).status).toBe(200);
    expect(await tenantListing((m, p, t) => s.request(m, p, t ? { token: t } : {}), A.id, { token, withoutClock: true })).toEqual(before);
    const exported = await s.request('GET', '/_sandbox/snapshots/mem/export');
    expect(exported.status).toBe(200);
    expect(exported.body.transactions).toHaveLength(6);
  });
});
