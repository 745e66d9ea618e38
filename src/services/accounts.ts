// Tenants (docs/decisions.md#d1-accounts-are-tenants, docs/control-api.md#accounts): accounts with their own credentials and settings. Secrets are
// hashed before the commit (scrypt is asynchronous); the commit itself stays synchronous.
import { newAccountClock, tenantNowMs } from '../clock/clock.js';
import type { AppContext } from '../context.js';
import { SandboxError, notFound } from '../domain/errors.js';
import { accountRef } from '../domain/ledger.js';
import type { AccountCreateBody, AccountPatchBody } from '../schemas/control.js';
import { rateLimitSetting } from '../domain/rate-limit.js';
import type { Account, AccountClock, LedgerEntry, LedgerRef, New, RateLimit } from '../store/model.js';
import type { Reads, Tx } from '../store/store.js';
import { nextTokenGeneration } from './token-generation.js';

export function requireAccount(data: Reads, id: string): Readonly<Account> {
  const a = data.accounts.get(id);
  if (!a) throw notFound(`account ${id}`);
  return a;
}

export interface AccountFields {
  id: string;
  name: string;
  clientId: string;
  secretHash: string;
  /** nextTokenGeneration(tx): a principal made (again) never takes an older generation */
  tokenGeneration: number;
  splitEnabled?: boolean | undefined;
  autoPayAfterSeconds?: number | null | undefined;
  settleAfterSeconds?: number | undefined;
  /** its own clock (docs/architecture.md#the-clock); absent: the sandbox-wide one */
  clock?: AccountClock | undefined;
  /** its rate limit as given, fields left out taking their defaults; null or absent: off */
  rateLimit?: Partial<RateLimit> | null | undefined;
}

/** The record's rate limit field: absent while off (as on accounts made before rate limits existed). */
const rateLimitField = (limit: RateLimit | null): { rateLimit?: RateLimit } => (limit ? { rateLimit: limit } : {});

/** An account record with the defaults of docs/control-api.md#accounts (the control API and fixtures share it). */
export function accountRecord(f: AccountFields, now: string): New<Account> {
  return {
    id: f.id,
    name: f.name,
    clientId: f.clientId,
    secretHash: f.secretHash,
    tokenGeneration: f.tokenGeneration,
    splitEnabled: f.splitEnabled ?? false,
    autoPayAfterSeconds: f.autoPayAfterSeconds ?? null,
    settleAfterSeconds: f.settleAfterSeconds ?? 2,
    ...(f.clock ? { clock: f.clock } : {}),
    ...rateLimitField(rateLimitSetting(f.rateLimit, null)),
    createdAt: now,
    updatedAt: now,
  };
}

/** An opening balance: money arriving from outside the sandbox. */
export function openingEntry(to: LedgerRef, amount: number, id: string, now: string): New<LedgerEntry> {
  return { id, from: 'world', to, amount, transactionId: null, kind: 'OPENING', at: now };
}

/** Creates an account; `clientId` and `secretHash` are already decided (generated or given). */
export function createAccount(tx: Tx, ctx: AppContext, body: AccountCreateBody, clientId: string, secretHash: string): Readonly<Account> {
  if (clientIdTaken(tx, clientId))
    throw new SandboxError('VALIDATION_ERROR', `client_id "${clientId}" is already used by another client`, [
      { path: '/client_id', message: 'is already used by another account or merchant' },
    ]);
  const id = body.id?.toLowerCase() ?? ctx.newId();
  if (tx.accounts.has(id))
    throw new SandboxError('VALIDATION_ERROR', `an account with id ${id} already exists`, [
      { path: '/id', message: 'is already used by another account' },
    ]);
  const sandboxMs = ctx.clock.nowMs();
  const clock = newAccountClock(body.clock, sandboxMs);
  // the account starts on its own clock: its creation and opening balance carry that clock's time
  const now = new Date(tenantNowMs(clock, sandboxMs)).toISOString();
  const { clock: _asked, ...fields } = body;
  const account = tx.put(
    'accounts',
    accountRecord({ ...fields, id, clientId, secretHash, tokenGeneration: nextTokenGeneration(tx), clock }, now),
  );
  if (body.balance) tx.put('ledger', openingEntry(accountRef(id), body.balance, ctx.newId(), now));
  tx.keepOrigin(id, now); // what its reset puts back (docs/control-api.md#reset-a-tenant)
  return account;
}

export function updateAccount(tx: Tx, ctx: AppContext, id: string, patch: AccountPatchBody): Readonly<Account> {
  const before = requireAccount(tx, id);
  const { rateLimit, ...rest } = before;
  const after: Account = {
    ...rest,
    ...rateLimitField(rateLimitSetting(patch.rateLimit, rateLimit)),
    updatedAt: ctx.clockOf(id).nowIso(),
  };
  if (patch.name !== undefined) after.name = patch.name;
  if (patch.splitEnabled !== undefined) after.splitEnabled = patch.splitEnabled;
  if (patch.autoPayAfterSeconds !== undefined) after.autoPayAfterSeconds = patch.autoPayAfterSeconds;
  if (patch.settleAfterSeconds !== undefined) after.settleAfterSeconds = patch.settleAfterSeconds;
  return tx.put('accounts', after);
}

/** Whether an account or a merchant already has this client_id (they share one namespace). */
export function clientIdTaken(data: Reads, clientId: string): boolean {
  return data.accounts.count('byClientId', clientId) > 0 || data.merchants.count('byClientId', clientId) > 0;
}

/** The first account (fixtures create the default one first): the one the CLI and --webhook-url name. */
export function defaultAccount(data: Reads): Readonly<Account> | undefined {
  for (const a of data.accounts.scan({ order: 'oldest' })) return a;
  return undefined;
}
