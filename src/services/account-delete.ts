// Deleting a tenant (docs/control-api.md#accounts, docs/decisions.md#d64-deleting-a-tenant): the account
// and everything of it leave in one change, so a crash keeps all of it or none. Every record is found
// through an index keyed by the tenant (or by one of its transactions, wallets or endpoints), so the
// change costs what the tenant holds, never a walk over the store. Its tokens, and its merchants', name
// an account that is gone and are refused (401) from then on (src/http/auth.ts).
import type { AppContext } from '../context.js';
import { SandboxError } from '../domain/errors.js';
import { accountRef, walletRef } from '../domain/ledger.js';
import type { CollectionName } from '../store/model.js';
import type { Tx } from '../store/store.js';
import { defaultAccount, requireAccount } from './accounts.js';

/** Removes records by id, after reading them all: an index is never walked while it changes. */
function removeAll(tx: Tx, c: CollectionName, records: Iterable<{ readonly id: string }>): number {
  const ids = Array.from(records, (r) => r.id);
  for (const id of ids) tx.remove(c, id);
  return ids.length;
}

/** Removes the account `id` and every record of it; how many records went, by collection. */
export function deleteAccount(tx: Tx, ctx: AppContext, id: string): Partial<Record<CollectionName, number>> {
  requireAccount(tx, id);
  if (defaultAccount(tx)?.id === id)
    throw new SandboxError('INVALID_STATE', `account ${id} is the default account, which cannot be deleted (a reset restores it)`);
  if (ctx.walking.has(id))
    throw new SandboxError('INVALID_STATE', `an advance is walking the clock of account ${id}; delete it once the advance has answered`);
  const counts: Partial<Record<CollectionName, number>> = {};
  const gone = (c: CollectionName, records: Iterable<{ readonly id: string }>) =>
    (counts[c] = (counts[c] ?? 0) + removeAll(tx, c, records));

  const transactions = [...tx.transactions.find('byAccount', id)];
  for (const t of transactions) {
    gone('ledger', tx.ledger.find('byTransaction', t.id));
    gone('events', tx.events.find('byTransaction', t.id));
    gone('deliveries', tx.deliveries.find('byTransaction', t.id));
  }
  gone('transactions', transactions);
  const wallets = [...tx.wallets.find('byAccount', id)];
  // opening balances and adjustments: the entries of no transaction, by the account or wallet they moved
  for (const ref of [accountRef(id), ...wallets.map((w) => walletRef(w.id))]) gone('ledger', tx.ledger.find('byHolder', ref));
  gone('wallets', wallets);
  gone('merchants', tx.merchants.find('byAccount', id));
  gone('idempotency', tx.idempotency.orderedIn('byExpiry', id));
  const endpoints = [...tx.webhookEndpoints.find('byAccount', id)];
  // every delivery is of a transaction of the endpoint's tenant: these are already gone, kept as a guard
  for (const e of endpoints) gone('deliveries', tx.deliveries.find('byEndpoint', e.id));
  gone('webhookEndpoints', endpoints);
  gone('webhookFaults', tx.webhookFaults.find('byAccount', id));
  gone('webhookSends', tx.webhookSends.find('byAccount', id));
  gone('rules', tx.rules.find('byScope', id));
  gone('pixKeys', tx.pixKeys.find('byScope', id));
  gone('faults', tx.faults.find('byScope', id));
  // what its reset would put back; its named snapshots stay (their export still can be read: docs/control-api.md#snapshots)
  if (tx.origins.get(id)) gone('origins', [tx.origins.get(id)!]);
  tx.remove('accounts', id);
  counts.accounts = 1;
  return counts;
}
