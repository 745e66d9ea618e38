// A record obtained by a read cannot change the store without a put: by type (each line marked to
// expect a type error fails to compile if a read ever hands out a writable record: `npm test`
// runs tsc over the tests) and at run time (a packed collection hands out a fresh copy, a plain one a
// frozen record).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildTransfer } from '../../src/domain/transfers.js';
import { Store } from '../../src/store/store.js';

const now = () => '2030-01-01T00:00:00.000Z';

async function storeWithRecords() {
  const store = await Store.open({ file: null, now });
  const transferId = randomUUID();
  const accountId = randomUUID();
  await store.commit((tx) => {
    tx.put('accounts', {
      id: accountId,
      name: 'A',
      clientId: 'c',
      secretHash: 'h',
      splitEnabled: false,
      autoPayAfterSeconds: null,
      settleAfterSeconds: 2,
      createdAt: now(),
      updatedAt: now(),
    });
    tx.put(
      'transactions',
      buildTransfer({
        id: transferId,
        accountId,
        merchantId: null,
        amount: 100,
        description: 'd',
        details: { name: 'n', key: '52998224725', keyType: 'CPF' },
        idempotencyKey: 'k',
        settleAfterSeconds: 2,
        now: new Date(now()),
      }),
    );
  });
  return { store, transferId, accountId };
}

describe('records read from the store', () => {
  it('are readonly by type, everywhere a read hands one out', async () => {
    const { store, transferId, accountId } = await storeWithRecords();
    const t = store.transactions.get(transferId)!;
    const a = store.accounts.get(accountId)!;
    const attempt = () => {
      // @ts-expect-error a record read from the store is readonly: a change needs a put
      t.status = 'COMPLETED';
      // @ts-expect-error the same for a plain collection's record
      a.name = 'changed';
      for (const r of store.transactions.scan()) {
        // @ts-expect-error and for a scan's records
        r.amount = 1;
      }
      store.apply((tx) => {
        // @ts-expect-error and inside a change: only tx.put changes a record
        tx.transactions.get(transferId)!.status = 'FAILED';
        const stored = tx.put('transactions', { ...tx.transactions.get(transferId)! });
        // @ts-expect-error even the record a put hands back
        stored.amount = 2;
      });
    };
    expect(typeof attempt).toBe('function'); // compiled, not run here: the run-time test below runs the same writes
    await store.close();
  });

  it('are copies (packed) or frozen (plain) at run time: writing to one never reaches the store', async () => {
    const { store, transferId, accountId } = await storeWithRecords();
    const t = store.transactions.get(transferId)! as { status: string; details: { key: string } };
    t.status = 'COMPLETED';
    t.details.key = 'changed';
    expect(store.transactions.get(transferId)).toMatchObject({ status: 'PROCESSING', details: { key: '52998224725' } });
    for (const r of store.transactions.find('byAccount', accountId)) (r as { amount: number }).amount = 1;
    expect(store.transactions.get(transferId)!.amount).toBe(100);

    const a = store.accounts.get(accountId)! as { name: string };
    expect(() => (a.name = 'changed')).toThrow(TypeError);
    expect(store.accounts.get(accountId)!.name).toBe('A');
    // a plain record handed to put is copied: the caller's object stays the caller's
    const mine = { ...store.accounts.get(accountId)!, name: 'B' };
    await store.commit((tx) => tx.put('accounts', mine));
    mine.name = 'C';
    expect(store.accounts.get(accountId)!.name).toBe('B');
    // the only way to change a record: a put, which the log records
    await store.commit((tx) => {
      const cur = tx.transactions.get(transferId)!;
      if (cur.type === 'CASH_OUT') tx.put('transactions', { ...cur, status: 'COMPLETED' });
    });
    expect(store.transactions.get(transferId)!.status).toBe('COMPLETED');
    await store.close();
  });
});
