// A release opens the data files of every earlier release (docs/store.md#format-versions). Each
// folder test/fixtures/data-files/v<N>/ was written by the build of format version N (make.sh
// there: a snapshot, and a log the build was killed before compacting) and is kept as it is:
// every later build must open it, find what its writer answered, and rewrite it in its own format.
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/model.js';
import { Store } from '../../src/store/store.js';
import { DEFAULT_CLIENT, startTestSandbox } from '../helpers/sandbox.js';
import { collectionsOf, indexProblems, snapshotFile } from '../helpers/store-checks.js';
import { checkLedger } from '../helpers/torture.js';

const KEPT = path.resolve(import.meta.dirname, '../fixtures/data-files');

interface Expected {
  version: number;
  paidCharge: string;
  openCharge: string;
  transfer: string;
  merchant: string;
  endpoint: string;
  tenant: string;
  lateCharge: string;
  defaultBalance: number;
}

const versions = (await readdir(KEPT)).filter((d) => /^v\d+$/.test(d)).sort();
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A copy of a kept folder (opening rewrites the files: the kept ones stay as their build wrote them). */
async function copyOf(version: string): Promise<{ dir: string; expected: Expected }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `pix-kept-${version}-`));
  dirs.push(dir);
  // the data file, its log and (from v2) the named snapshots' files
  for (const f of await readdir(path.join(KEPT, version)))
    if (f !== 'expected.json') await cp(path.join(KEPT, version, f), path.join(dir, f), { recursive: true });
  const expected = JSON.parse(await readFile(path.join(KEPT, version, 'expected.json'), 'utf8')) as Expected;
  return { dir, expected };
}

describe('data files of every earlier release', () => {
  it('are kept for every format version up to this build’s', () => {
    expect(versions).toContain(`v${SCHEMA_VERSION}`);
  });

  for (const version of versions) {
    it(`opens the folder written in format ${version}: every record, snapshot and log, indexes and ledger whole`, async () => {
      const { dir, expected } = await copyOf(version);
      expect(expected.version).toBeLessThanOrEqual(SCHEMA_VERSION);
      const store = await Store.open({ file: path.join(dir, 'db.json'), fsync: false, now: () => new Date().toISOString() });
      const tx = (id: string) => store.transactions.get(id);
      expect(tx(expected.paidCharge)).toMatchObject({ type: 'CASH_IN', status: 'PAID', amount: 1050, payer: { name: 'Joao Souza' } });
      expect(tx(expected.openCharge)).toMatchObject({ type: 'CASH_IN', status: 'WAITING_PAYMENT' });
      expect(tx(expected.transfer)).toMatchObject({ type: 'CASH_OUT', status: 'COMPLETED', amount: 1500 });
      expect(store.merchants.get(expected.merchant)?.name).toBe('Loja Fixture');
      expect(store.webhookEndpoints.get(expected.endpoint)?.url).toBe('http://127.0.0.1:9/unreachable');
      // written to the log only, by the run that was killed
      expect(store.accounts.get(expected.tenant)?.name).toBe('second tenant');
      expect(tx(expected.lateCharge)).toMatchObject({ status: 'WAITING_PAYMENT', amount: 777 });
      for (const c of ['idempotency', 'pixKeys', 'rules', 'events', 'deliveries', 'faults', 'webhookFaults', 'webhookSends'] as const)
        expect(store[c].size, c).toBeGreaterThan(0);
      expect(indexProblems(collectionsOf(store))).toEqual([]);
      expect(checkLedger(store.toData()).problems).toEqual([]);
      const data = JSON.stringify(store.toData());
      await store.close();
      // rewritten in this build's format, holding the same
      const rewritten = await snapshotFile(path.join(dir, 'db.json'));
      expect(rewritten.header.version).toBe(SCHEMA_VERSION);
      const again = await Store.open({ file: path.join(dir, 'db.json'), fsync: false, now: () => new Date().toISOString() });
      expect(JSON.stringify(again.toData())).toBe(data);
      await again.close();
    });

    it(`serves the folder written in format ${version}: its credentials, transactions and balance`, async () => {
      const { dir, expected } = await copyOf(version);
      const sb = await startTestSandbox({ file: true, dataDir: dir });
      try {
        const token = await sb.token(DEFAULT_CLIENT);
        const paid = await sb.request('GET', `/v1/banking/transactions/${expected.paidCharge}`, { token });
        expect(paid.status).toBe(200);
        expect(paid.body.data).toMatchObject({ id: expected.paidCharge, status: 'COMPLETED', payer: { name: 'Joao Souza' } });
        const balance = await sb.request('GET', '/v1/banking/balance', { token });
        expect(balance.body.data.balance).toBe(expected.defaultBalance);
        const version = await sb.request('GET', '/_sandbox/version');
        expect(version.body.storeSchemaVersion).toBe(SCHEMA_VERSION);
      } finally {
        await sb.stop();
      }
    });
  }
});
