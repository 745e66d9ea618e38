// A named snapshot's file (docs/store.md#named-snapshots): written as the image holds the records —
// packed entries as stored, with the entries of the codec's tables they use — and read back to the
// same records by a store with a codec of its own; a file cut short refused; a file of format
// version 2 (JSON lines, one record a line) still read.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreFileError } from '../../src/store/data-file.js';
import { imageRecords, type Image } from '../../src/store/image.js';
import type { CollectionName, Stored } from '../../src/store/model.js';
import { writeSavedFile } from '../../src/store/saved-file.js';
import { readSaved } from '../../src/store/saved.js';
import { Store } from '../../src/store/store.js';

const NOW = '2030-01-01T00:00:00.000Z';
const KEPT_V2 = path.resolve(import.meta.dirname, '../fixtures/data-files/v2/snapshots/kept.e15960d6d450.json');
const A = randomUUID();
const B = randomUUID();

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-saved-file-'));
  store = await Store.open({ file: path.join(dir, 'db.json'), fsync: false, now: () => NOW });
  await store.commit((tx) => {
    for (const [id, tag] of [
      [A, 'alpha'],
      [B, 'beta'],
    ] as const) {
      tx.put('accounts', { id, name: `tenant ${tag}`, clientId: `client-${tag}`, secretHash: 'x', createdAt: NOW } as never);
      for (let i = 0; i < 50; i++)
        tx.put('idempotency', {
          id: `${tag}-${i}`,
          accountId: id,
          expiresAt: NOW,
          // shared by the tenant's records (interned), its own only, a text of every kind, the record's own id
          note: `only ${tag}`,
          body: { text: i % 2 ? 'é中𝄞\ud800' : 'x'.repeat(100 + i), ref: `${tag}-${i}`, at: NOW, list: [i, -i, i / 3, null, true] },
        } as never);
    }
  });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** Records by collection, in order: what the image holds and what a file read back holds. */
function grouped(records: Iterable<[CollectionName, Readonly<Stored>]>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [c, r] of records) (out[c] ??= []).push(r);
  return out;
}

const write = async (image: Image, name = 'one') => {
  const file = path.join(dir, `${name}.snap`);
  const bytes = await writeSavedFile(file, { name, accountId: A, sandboxMs: 42 }, image, false);
  return { file, bytes };
};

describe('a named snapshot’s file', () => {
  it('reads back to the records of the image, with only the table entries they use', async () => {
    const image = store.capture(A);
    const { file, bytes } = await write(image);
    const text = await readFile(file);
    expect(text.length).toBe(bytes);
    expect(text.toString('latin1').split('\n')[0]).toBe(
      JSON.stringify({ pixSandbox: 'saved', version: 3, name: 'one', accountId: A, sandboxMs: 42 }),
    );
    // the tenant's own interned text is there, the other tenant's is not
    expect(text.includes('only alpha')).toBe(true);
    expect(text.includes('only beta')).toBe(false);
    const read = await readSaved(file);
    expect(read.header).toEqual({ name: 'one', accountId: A, sandboxMs: 42 });
    expect(grouped(read.records)).toEqual(grouped(imageRecords(image)));
    expect(grouped(read.records).idempotency).toHaveLength(50);
  });

  it('holds the whole sandbox the same way', async () => {
    const image = store.capture(null);
    const read = await readSaved((await write(image, 'all')).file);
    expect(grouped(read.records)).toEqual(grouped(imageRecords(image)));
    expect(grouped(read.records).idempotency).toHaveLength(100);
  });

  it('is refused when cut short, and when its end line counts other records', async () => {
    const { file, bytes } = await write(store.capture(A));
    const whole = await readFile(file);
    await truncate(file, bytes - 200); // inside the packed block
    await expect(readSaved(file)).rejects.toThrow(StoreFileError);
    await writeFile(file, whole.subarray(0, whole.lastIndexOf('{"end"')));
    await expect(readSaved(file)).rejects.toThrow(/without its end line/);
    await writeFile(file, Buffer.concat([whole.subarray(0, whole.lastIndexOf('{"end"')), Buffer.from('{"end":3}\n')]));
    await expect(readSaved(file)).rejects.toThrow(/counts 3 records/);
    await expect(readSaved(path.join(dir, 'none.snap'))).rejects.toThrow(/missing/);
  });

  it('of format version 2 (JSON lines) is still read', async () => {
    const read = await readSaved(KEPT_V2);
    expect(read.header.name).toBe('kept');
    const counts = Object.fromEntries(Object.entries(grouped(read.records)).map(([c, list]) => [c, list.length]));
    expect(counts).toMatchObject({ accounts: 1, transactions: 3, idempotency: 1 });
  });
});
