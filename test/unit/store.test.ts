// The Store on a real temp file: group commit, rollback, log replay, torn lines, compaction.
import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, type Merchant, type New } from '../../src/store/model.js';
import { documentKey } from '../../src/store/schema.js';
import { Store } from '../../src/store/store.js';
import { StoreFileError } from '../../src/store/data-file.js';
import { logLines, snapshotFile } from '../helpers/store-checks.js';

let dir: string;
let file: string;
const now = () => '2030-01-01T00:00:00.000Z';
const open = (fsync = false) => Store.open({ file, fsync, now });
const walLines = () => logLines(`${file}.wal`);
const snapshot = () => snapshotFile(file);

function merchant(i: number, over: Partial<Merchant> = {}): New<Merchant> {
  return {
    id: `m-${i}`,
    accountId: 'acc',
    name: `M${i}`,
    document: String(10_000_000_000 + i),
    documentType: 'CPF',
    email: 'm@x.example',
    phone: '11912345678',
    status: 'ACTIVE',
    clientId: `client-${i}`,
    secretHash: 'scrypt$00$00',
    walletId: `w-${i}`,
    createdAt: now(),
    updatedAt: now(),
    ...over,
  };
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-store-'));
  file = path.join(dir, 'db.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Store', () => {
  it('groups 200 concurrent commits into far fewer log appends, and each resolves durable', async () => {
    const store = await open(true);
    const done = await Promise.all(Array.from({ length: 200 }, (_, i) => store.commit((tx) => (tx.put('merchants', merchant(i)), i))));
    expect(done).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const lines = await walLines();
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.flatMap((l) => JSON.parse(l) as { c?: string }[]).filter((op) => op.c === 'merchants').length).toBe(200);
    const copy = await open();
    expect([...copy.merchants.scan({ order: 'oldest' })].map((r) => r.id)).toHaveLength(200);
    await copy.close();
    await store.close();
  });

  it('answers a commit only after its change is in the log', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant(1)));
    expect((await walLines()).join('')).toContain('"m-1"');
    await store.close();
  });

  it('rolls back records, meta and indexes of a mutation that throws, and writes nothing', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant(1)));
    const before = JSON.stringify(store.toData());
    const seqBefore = store.meta.seq;
    const walBefore = await readFile(`${file}.wal`, 'utf8');
    const failing = store.commit((tx) => {
      tx.put('merchants', merchant(2));
      tx.put('merchants', { ...merchant(1), name: 'changed', document: '99999999999' });
      tx.remove('merchants', 'm-1');
      tx.put('ledger', { id: 'e1', from: 'world', to: 'wallet:w-1', amount: 500, transactionId: null, kind: 'ADJUSTMENT', at: now() });
      tx.setMeta('clockOffsetMs', 1234);
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(JSON.stringify(store.toData())).toBe(before);
    expect(store.meta.seq).toBe(seqBefore);
    expect(store.balances.of('wallet:w-1')).toBe(0);
    expect(store.merchants.findOne('byDocument', documentKey('acc', merchant(1).document))?.id).toBe('m-1');
    expect(store.merchants.findOne('byDocument', documentKey('acc', '99999999999'))).toBeUndefined();
    expect(store.merchants.count('byClientId', 'client-2')).toBe(0);
    expect(store.merchants.findOne('byClientId', 'client-1')?.id).toBe('m-1');
    await store.sync();
    expect(await readFile(`${file}.wal`, 'utf8')).toBe(walBefore);
    // an asynchronous mutation is refused and rolled back too
    await expect(
      // eslint-disable-next-line @typescript-eslint/require-await -- the point: an async mutation
      store.commit(async (tx: Parameters<Parameters<Store['commit']>[0]>[0]) => tx.put('merchants', merchant(3))),
    ).rejects.toThrow(/synchronous/);
    expect(store.merchants.get('m-3')).toBeUndefined();
    await store.close();
  });

  it('rolls back a packed collection too, when the change holds a value the log cannot hold', async () => {
    const store = await open();
    const entry = (id: string, amount: number) =>
      ({ id, from: 'world', to: 'wallet:w-1', amount, transactionId: null, kind: 'ADJUSTMENT', at: now() }) as const;
    await store.commit((tx) => {
      tx.put('ledger', entry('e1', 100));
      tx.put('ledger', entry('e2', 200));
    });
    const before = JSON.stringify([...store.ledger.scan()]);
    const failing = store.commit((tx) => {
      tx.put('ledger', entry('e1', 999)); // replaced
      tx.remove('ledger', 'e2'); // removed
      tx.put('ledger', entry('e3', 50)); // added
      tx.put('ledger', { ...entry('e4', 1), amount: 10n as unknown as number }); // JSON has no BigInt
    });
    await expect(failing).rejects.toThrow(/BigInt/);
    expect(JSON.stringify([...store.ledger.scan()])).toBe(before);
    expect(store.balances.of('wallet:w-1')).toBe(300);
    await store.commit((tx) => tx.put('ledger', entry('e5', 5)));
    await store.close();
    const reopened = await open();
    expect([...reopened.ledger.scan({ order: 'oldest' })].map((r) => r.id)).toEqual(['e1', 'e2', 'e5']);
    expect(reopened.balances.of('wallet:w-1')).toBe(305);
    await reopened.close();
  });

  it('replays the log after a crash (no close) and compacts it into the snapshot at start', async () => {
    const store = await open();
    await store.commit((tx) => {
      tx.put('merchants', merchant(1));
      tx.put('ledger', { id: 'e1', from: 'world', to: 'wallet:w-1', amount: 700, transactionId: null, kind: 'ADJUSTMENT', at: now() });
      tx.setMeta('clockOffsetMs', 42);
    });
    await store.commit((tx) => tx.put('merchants', { ...merchant(1), name: 'renamed' }));
    await store.commit((tx) => (tx.put('merchants', merchant(2)), tx.remove('merchants', 'm-2')));
    // the snapshot does not hold them yet: only the log does (the process "crashed" here)
    expect((await snapshot()).merchants['m-1']).toBeUndefined();
    const reopened = await open();
    expect(reopened.merchants.get('m-1')!.name).toBe('renamed');
    expect(reopened.merchants.get('m-2')).toBeUndefined();
    expect(reopened.meta.clockOffsetMs).toBe(42);
    expect(reopened.balances.of('wallet:w-1')).toBe(700);
    expect(reopened.merchants.findOne('byClientId', 'client-1')?.id).toBe('m-1');
    expect((await snapshot()).merchants['m-1']!.name).toBe('renamed');
    expect(await walLines()).toEqual([]);
    await reopened.close();
    await store.close().catch(() => undefined);
  });

  it('drops a torn last log line (never acknowledged) and keeps the rest', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant(1)));
    await store.commit((tx) => tx.put('merchants', merchant(2)));
    await appendFile(`${file}.wal`, '[{"c":"merchants","id":"m-3","v":{"id":"m-3","na');
    const reopened = await open();
    expect([...reopened.merchants.scan({ order: 'oldest' })].map((r) => r.id).sort()).toEqual(['m-1', 'm-2']);
    await reopened.close();
    await store.close();
  });

  it('refuses a log whose middle line is corrupt, leaving both files untouched', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant(1)));
    await appendFile(`${file}.wal`, 'garbage\n');
    await store.commit((tx) => tx.put('merchants', merchant(2)));
    const snap = await readFile(file);
    const wal = await readFile(`${file}.wal`);
    await expect(open()).rejects.toBeInstanceOf(StoreFileError);
    expect((await readFile(file)).equals(snap)).toBe(true);
    expect((await readFile(`${file}.wal`)).equals(wal)).toBe(true);
    await store.close();
  });

  it('refuses a snapshot that does not parse, or is cut short, naming the file and leaving it untouched', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant(1)));
    await store.close();
    const whole = await readFile(file, 'utf8');
    const lines = whole.split('\n');
    for (const broken of [
      '{"meta": {', // not ours at all
      lines.slice(0, -2).join('\n') + '\n', // the end line lost: a copy cut short at a line's end
      lines.slice(0, -3).join('\n') + '\n' + lines.at(-2) + '\n', // a record line lost
      whole.slice(0, whole.length - 30), // cut in the middle of a line
    ]) {
      await writeFile(file, broken);
      await expect(open(), broken.slice(0, 40)).rejects.toThrow(file);
      expect(await readFile(file, 'utf8')).toBe(broken);
    }
  });

  it('refuses a snapshot or a log of a newer format version, naming both versions, and writes nothing', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant(1)));
    await store.close();
    const good = await readFile(file, 'utf8');
    const newer = `{"pixSandbox":"snapshot","version":${SCHEMA_VERSION + 1},"covers":0}`;
    await writeFile(file, good.replace(/^.*\n/, `${newer}\n`));
    const error = await open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toContain(`format version ${SCHEMA_VERSION + 1}, newer than this build's version ${SCHEMA_VERSION}`);
    expect(await readFile(file, 'utf8')).toBe(good.replace(/^.*\n/, `${newer}\n`));
    // a log of a newer version beside a snapshot of this one
    await writeFile(file, good);
    const log = `{"pixSandbox":"log","version":${SCHEMA_VERSION + 1}}\n[{"c":"merchants","id":"m-1","del":1}]\n`;
    await writeFile(`${file}.wal`, log);
    await expect(open()).rejects.toThrow(`${file}.wal: it is in data file format version ${SCHEMA_VERSION + 1}`);
    expect(await readFile(file, 'utf8')).toBe(good);
    expect(await readFile(`${file}.wal`, 'utf8')).toBe(log);
  });

  it('refuses a log without its header (a file this format never wrote)', async () => {
    await (await open()).close();
    await writeFile(`${file}.wal`, `${JSON.stringify([{ c: 'merchants', id: 'm-1', del: 1 }])}\n`);
    await expect(open()).rejects.toThrow('its first line is not the header of a pix-sandbox log');
  });

  it('compacts the log into the snapshot once the log outgrows it', async () => {
    const store = await open();
    const blob = 'x'.repeat(100_000);
    for (let i = 0; i < 60; i++) await store.commit((tx) => tx.put('merchants', merchant(i % 3, { name: `${i}${blob}` })));
    // 60 × 100 kB appended against a snapshot of ~300 kB: compaction must have run
    const { logBytes, snapshotBytes } = store.stats();
    expect(logBytes).toBeLessThan(4 * 1024 * 1024);
    expect(snapshotBytes).toBeGreaterThan(200_000);
    const snap = await snapshot();
    expect(Object.keys(snap.merchants)).toHaveLength(3);
    await store.close();
    const reopened = await open();
    expect(reopened.merchants.get('m-2')!.name.startsWith('59')).toBe(true);
    await reopened.close();
  });

  it('keeps the same behaviour in memory', async () => {
    const store = await Store.open({ file: null, now });
    const id = randomUUID();
    await store.commit((tx) => tx.put('merchants', merchant(1, { id })));
    await expect(
      store.commit(() => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(store.merchants.get(id)).toBeDefined();
    expect(store.file).toBeNull();
    await store.close();
  });
});
