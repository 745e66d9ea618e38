// The records of a scope — one tenant, or the whole sandbox — found without reading them: a
// tenant's through the indexes keyed by it (or by one of its transactions, wallets or endpoints), so
// that finding them costs what the tenant holds, never a walk over the store; the whole sandbox's by
// a walk of every state collection. A named snapshot holds a scope's records and a restore replaces
// them (docs/store.md#named-snapshots).
import { accountRef, walletRef } from '../domain/ledger.js';
import type { StoreData } from './data.js';
import { STATE_COLLECTIONS, type CollectionName } from './model.js';

/** Where each record of a scope is: the seqs of its records in each collection, oldest first. */
export type ScopeSeqs = Partial<Record<CollectionName, number[]>>;

const ascending = (seqs: number[]): number[] => seqs.sort((a, b) => a - b);

/** Every record of the tenant `accountId` (its account, origin, merchants, money, webhooks and arrangements). */
export function tenantSeqs(data: StoreData, accountId: string): ScopeSeqs {
  const c = data.collections;
  const one = (seq: number | undefined) => (seq === undefined ? [] : [seq]);
  const transactions = c.transactions.seqsUnder('byAccount', accountId);
  const transactionIds = transactions.map((seq) => c.transactions.idAt(seq)!);
  const wallets = c.wallets.seqsUnder('byAccount', accountId);
  const ofTransactions = (coll: typeof c.ledger | typeof c.events | typeof c.deliveries) =>
    coll.seqsUnderEach('byTransaction', transactionIds);
  // opening balances and adjustments: the entries of no transaction, by the account or wallet they moved
  const holders = [accountRef(accountId), ...wallets.map((seq) => walletRef(c.wallets.idAt(seq)!))];
  return {
    accounts: one(c.accounts.seqOf(accountId)),
    origins: one(c.origins.seqOf(accountId)),
    merchants: c.merchants.seqsUnder('byAccount', accountId),
    wallets,
    transactions,
    ledger: ascending([...ofTransactions(c.ledger), ...holders.flatMap((ref) => c.ledger.seqsUnder('byHolder', ref))]),
    events: ascending(ofTransactions(c.events)),
    deliveries: ascending(ofTransactions(c.deliveries)),
    idempotency: ascending(c.idempotency.seqsInGroup('byExpiry', accountId)),
    webhookEndpoints: c.webhookEndpoints.seqsUnder('byAccount', accountId),
    webhookFaults: c.webhookFaults.seqsUnder('byAccount', accountId),
    webhookSends: c.webhookSends.seqsUnder('byAccount', accountId),
    // its own arrangements (docs/control-api.md#scoped-arrangements); the sandbox-wide ones are nobody's
    rules: c.rules.seqsUnder('byScope', accountId),
    pixKeys: c.pixKeys.seqsUnder('byScope', accountId),
    faults: c.faults.seqsUnder('byScope', accountId),
  };
}

/** Every record of the sandbox's state (everything but the catalog of named snapshots): a walk of the store. */
function wholeSeqs(data: StoreData): ScopeSeqs {
  const out: ScopeSeqs = {};
  for (const name of STATE_COLLECTIONS) out[name] = data.collections[name].allSeqs();
  return out;
}

/** A scope's records: one tenant's, or (null) the whole sandbox's. */
export const scopeSeqs = (data: StoreData, accountId: string | null): ScopeSeqs =>
  accountId === null ? wholeSeqs(data) : tenantSeqs(data, accountId);
