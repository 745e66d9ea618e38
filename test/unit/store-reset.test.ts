// A reset of the store (Store.replace) while changes keep arriving: the old data's changes end in
// its moved-aside files, the new data's begin in the new ones, none is failed or lost, and waiting
// for the writes (idle) while one is under way returns (docs/store.md#reset).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, type Meta } from '../../src/store/model.js';
import { Store } from '../../src/store/store.js';
import { WalAdapter } from '../../src/store/wal-adapter.js';

let dir: string;
let file: string;
const now = () => '2030-01-01T00:00:00.000Z';
const open = () => Store.open({ file, fsync: false, now });
const fresh = (old: Readonly<Meta>) => emptyData(old.signingSecret, now());
const merchant = (id: string) => ({ id, accountId: 'acc', name: id }) as never;
const idsIn = async (f: string) => Object.keys((await new WalAdapter(f, false).read())!.toData().merchants).sort();

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-store-reset-'));
  file = path.join(dir, 'db.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a reset of the store while changes keep arriving', () => {
  it('waiting for the writes while one is under way returns (no waiter that restarts the write loop forever)', async () => {
    const store = await open();
    // such a loop never lets a timer run, a test's timeout included: it is counted in the waits it asks
    // for, and broken past a bound, so that the test fails instead of hanging
    let waits = 0;
    store.sync = () => (++waits > 10_000 ? Promise.reject(new Error('idle() asked for 10,000 waits')) : Store.prototype.sync.call(store));
    for (let i = 0; i < 5; i++) {
      const committed = store.commit((tx) => tx.put('merchants', merchant(`m${i}`)));
      await store.idle();
      await committed;
    }
    expect(waits).toBeLessThan(100);
    await store.close();
  });

  it('every change is answered, and each is in the old files or the new ones, never both', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant('before')));
    // writers that commit one change after another, from before the reset until after it
    let stop = false;
    const made = new Map<string, number>(); // id → the store's generation it was made in
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const id = `w${w}-${i}`;
        await store.commit((tx) => {
          made.set(id, store.generation);
          tx.put('merchants', merchant(id));
        });
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((r) => setTimeout(r, 20));
    const generation = store.generation;
    const moved = await store.replace('r', fresh, (tx) => tx.put('merchants', merchant('fixture')));
    await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await Promise.all(writers); // none rejected: no append met a closed log
    await store.idle();

    const old = [...made].filter(([, g]) => g === generation).map(([id]) => id);
    const after = [...made].filter(([, g]) => g !== generation).map(([id]) => id);
    expect(old.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(await idsIn(moved!)).toEqual(['before', ...old].sort());
    // the folder as a restart reads it is the data served, written while the store still runs
    expect(await idsIn(file)).toEqual(['fixture', ...after].sort());
    expect(await idsIn(file)).toEqual(Object.keys(store.toData().merchants).sort());
    await store.close();
  });

  it('fixtures that fail to load change nothing: the old data stays, its files where they were', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant('kept')));
    const generation = store.generation;
    await expect(
      store.replace('r', fresh, (tx) => {
        tx.put('merchants', merchant('half'));
        throw new Error('bad fixtures');
      }),
    ).rejects.toThrow('bad fixtures');
    expect(store.generation).toBe(generation);
    expect(Object.keys(store.toData().merchants)).toEqual(['kept']);
    await store.commit((tx) => tx.put('merchants', merchant('later')));
    expect((await readdir(dir)).filter((n) => n.includes('.bak'))).toEqual([]);
    await store.close();
    expect(await idsIn(file)).toEqual(['kept', 'later']);
  });

  it('two resets in one millisecond keep both moved-aside stores', async () => {
    const store = await open();
    await store.commit((tx) => tx.put('merchants', merchant('first')));
    const a = await store.replace('same', fresh, (tx) => tx.put('merchants', merchant('second')));
    const b = await store.replace('same', fresh, () => undefined);
    expect([a, b]).toEqual([`${file}.same.bak`, `${file}.same-2.bak`]);
    expect(await idsIn(a!)).toEqual(['first']);
    expect(await idsIn(b!)).toEqual(['second']);
    await store.close();
  });
});
