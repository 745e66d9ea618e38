// The README's "Programmatic use" example, verbatim but for the import path (test/unit/readme-example.test.ts keeps them equal).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/index.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox(); // free port, in-memory store, default fixtures
});
afterAll(() => sandbox.stop());

test('a paid charge is COMPLETED with the payer, and credits the balance', async () => {
  const before = (await sandbox.client.getBalance()).data.balance;
  const charge = await sandbox.client.cashIn({
    amount: 1050,
    description: 'Order 42',
    customer: { name: 'Maria Silva', document: '52998224725' },
  });
  expect(charge.status).toBe('WAITING_PAYMENT');

  // what the real service never lets you force: the payer pays now
  await sandbox.control.pay(charge.transactionId, { name: 'Joao Souza', document: '11144477735' });

  const lookup = await sandbox.client.getTransaction(charge.transactionId);
  expect(lookup.data.status).toBe('COMPLETED');
  expect(lookup.data).toMatchObject({ payer: { name: 'Joao Souza' } }); // data is one of the lookup's shapes, by status
  expect((await sandbox.client.getBalance()).data.balance).toBe(before + 1050);
});

test('a failed transfer gives the money back', async () => {
  const before = (await sandbox.client.getBalance()).data.balance;
  const transfer = await sandbox.client.cashOut({
    description: 'Refund',
    amount: '2500', // a string of cents, as the real API wants
    details: { name: 'Maria Silva', key: 'maria@example.com', keyType: 'EMAIL' },
  });
  expect(transfer.status).toBe('PROCESSING');
  expect((await sandbox.client.getBalance()).data.balance).toBe(before - 2500);

  await sandbox.control.fail(transfer.transactionId, { code: 'ACCOUNT_CLOSED', message: 'the receiving account is closed' });

  const lookup = await sandbox.client.getTransaction(transfer.transactionId);
  expect(lookup.data).toMatchObject({ status: 'FAILED', error: { code: 'ACCOUNT_CLOSED' } });
  expect((await sandbox.client.getBalance()).data.balance).toBe(before);
});
