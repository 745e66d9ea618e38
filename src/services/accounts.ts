// Tenants (CONTRACT §1, §12): accounts with their own credentials and settings. Secrets are
// hashed before the commit (scrypt is asynchronous); the commit itself stays synchronous.
import type { AppContext } from '../context.js';
import { SandboxError, notFound } from '../domain/errors.js';
import { accountRef } from '../domain/ledger.js';
import type { AccountCreateBody, AccountPatchBody } from '../schemas/control.js';
import type { Account, LedgerEntry, LedgerRef } from '../store/model.js';
import type { Tx } from '../store/store.js';

export function requireAccount(tx: Pick<Tx, 'data'>, id: string): Account {
  const a = Object.hasOwn(tx.data.accounts, id) ? tx.data.accounts[id] : undefined;
  if (!a) throw notFound(`account ${id}`);
  return a;
}

export interface AccountFields {
  id: string;
  name: string;
  clientId: string;
  secretHash: string;
  splitEnabled?: boolean | undefined;
  autoPayAfterSeconds?: number | null | undefined;
  settleAfterSeconds?: number | undefined;
}

/** An account record with the defaults of CONTRACT §1/§7 (the control API and fixtures share it). */
export function accountRecord(f: AccountFields, now: string): Account {
  return {
    id: f.id,
    name: f.name,
    clientId: f.clientId,
    secretHash: f.secretHash,
    splitEnabled: f.splitEnabled ?? false,
    autoPayAfterSeconds: f.autoPayAfterSeconds ?? null,
    settleAfterSeconds: f.settleAfterSeconds ?? 2,
    createdAt: now,
    updatedAt: now,
  };
}

/** An opening balance: money arriving from outside the sandbox. */
export function openingEntry(to: LedgerRef, amount: number, id: string, now: string): LedgerEntry {
  return { id, from: 'world', to, amount, transactionId: null, kind: 'OPENING', at: now };
}

/** Creates an account; `clientId` and `secretHash` are already decided (generated or given). */
export function createAccount(tx: Tx, ctx: AppContext, body: AccountCreateBody, clientId: string, secretHash: string): Account {
  if (tx.ix.byClientId.has(clientId))
    throw new SandboxError('VALIDATION_ERROR', `client_id "${clientId}" is already used by another client`, [
      { path: '/client_id', message: 'is already used by another account or merchant' },
    ]);
  const id = body.id?.toLowerCase() ?? ctx.newId();
  if (Object.hasOwn(tx.data.accounts, id))
    throw new SandboxError('VALIDATION_ERROR', `an account with id ${id} already exists`, [
      { path: '/id', message: 'is already used by another account' },
    ]);
  const now = ctx.clock.nowIso();
  const account = accountRecord({ ...body, id, clientId, secretHash }, now);
  tx.put('accounts', account);
  if (body.balance) tx.put('ledger', openingEntry(accountRef(id), body.balance, ctx.newId(), now));
  return account;
}

export function updateAccount(tx: Tx, ctx: AppContext, id: string, patch: AccountPatchBody): Account {
  const before = requireAccount(tx, id);
  const after: Account = { ...before, updatedAt: ctx.clock.nowIso() };
  if (patch.name !== undefined) after.name = patch.name;
  if (patch.splitEnabled !== undefined) after.splitEnabled = patch.splitEnabled;
  if (patch.autoPayAfterSeconds !== undefined) after.autoPayAfterSeconds = patch.autoPayAfterSeconds;
  if (patch.settleAfterSeconds !== undefined) after.settleAfterSeconds = patch.settleAfterSeconds;
  tx.put('accounts', after);
  return after;
}

/** Accounts in creation order. */
export function listAccounts(data: Tx['data']): Account[] {
  return Object.values(data.accounts).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}
