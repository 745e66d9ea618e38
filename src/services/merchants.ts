// Merchants (spec "Merchant", docs/decisions.md#d31-merchants): sub-accounts of an account, each with one
// main wallet and its own credentials; the use cases of /v1/merchants (an account token's) and the
// operator's status change. Secrets are hashed before the commit (scrypt is asynchronous and a commit
// must not await); everything else happens inside it.
import type { AppContext } from '../context.js';
import { generateClientId, generateSecret, hashSecret } from '../domain/credentials.js';
import { notFound, SandboxError } from '../domain/errors.js';
import { walletRef } from '../domain/ledger.js';
import { merchantTransition } from '../domain/transitions.js';
import type { MerchantCreateBody, MerchantListQuery, MerchantPatchBody } from '../schemas/public.js';
import type { Merchant, MerchantStatus, New, Wallet } from '../store/model.js';
import { documentKey } from '../store/schema.js';
import type { Reads, Tx } from '../store/store.js';
import { clientIdTaken } from './accounts.js';
import { nextTokenGeneration } from './token-generation.js';

function assertDocumentFree(data: Reads, accountId: string, document: string): void {
  if (data.merchants.findOne('byDocument', documentKey(accountId, document)))
    throw new SandboxError('DOCUMENT_ALREADY_REGISTERED', `a merchant with document ${document} is already registered in this account`, [
      { path: '/document', message: 'is already registered' },
    ]);
}

export interface MerchantFields extends MerchantCreateBody {
  id: string;
  walletId: string;
  accountId: string;
  status: Merchant['status'];
  clientId: string;
  secretHash: string;
  /** nextTokenGeneration(tx): a principal made (again) never takes an older generation */
  tokenGeneration: number;
}

/** A merchant and its main wallet (the API and fixtures share it). */
export function merchantRecords(f: MerchantFields, now: string): { merchant: New<Merchant>; wallet: New<Wallet> } {
  const merchant: New<Merchant> = {
    id: f.id,
    accountId: f.accountId,
    name: f.name,
    document: f.document,
    documentType: f.document_type,
    email: f.email,
    phone: f.phone,
    status: f.status,
    clientId: f.clientId,
    secretHash: f.secretHash,
    tokenGeneration: f.tokenGeneration,
    walletId: f.walletId,
    createdAt: now,
    updatedAt: now,
  };
  const wallet: New<Wallet> = { id: f.walletId, accountId: f.accountId, merchantId: f.id, name: 'main', currency: 'BRL', createdAt: now };
  return { merchant, wallet };
}

/**
 * POST /v1/merchants: an ACTIVE merchant, its main wallet and its credentials (the secret shown once,
 * in the answer). The body was validated once, when the handler read it: merchantCreateSchema and its
 * check (document_type against the document, its check digits: src/schemas/checks.ts). A document
 * already registered in the account is refused before the scrypt hash, so a refused request costs
 * nothing, and again inside the commit, since another request may have taken it meanwhile.
 */
export async function createMerchant(
  ctx: AppContext,
  accountId: string,
  body: MerchantCreateBody,
): Promise<{ merchant: Readonly<Merchant>; wallet: Readonly<Wallet>; clientSecret: string }> {
  assertDocumentFree(ctx.store, accountId, body.document);
  const clientSecret = generateSecret();
  const clientId = generateClientId('mch', ctx.random.next);
  const secretHash = await hashSecret(clientSecret, 'generated');
  const created = await ctx.store.commit((tx) => {
    assertDocumentFree(tx, accountId, body.document);
    if (clientIdTaken(tx, clientId)) throw new Error('generated client_id collides');
    const fields = {
      id: ctx.newId(),
      walletId: ctx.newId(),
      accountId,
      ...body,
      status: 'ACTIVE' as const,
      clientId,
      secretHash,
      tokenGeneration: nextTokenGeneration(tx),
    };
    const { merchant, wallet } = merchantRecords(fields, ctx.clockOf(accountId).nowIso());
    return { merchant: tx.put('merchants', merchant), wallet: tx.put('wallets', wallet) };
  });
  return { ...created, clientSecret };
}

/** A merchant of the account; another account's merchant is 404, never 403 (docs/decisions.md#d2-merchants-are-principals). */
export function merchantOfAccount(data: Reads, accountId: string, merchantId: string): Readonly<Merchant> {
  const m = data.merchants.get(merchantId);
  if (!m || m.accountId !== accountId) throw new SandboxError('NOT_FOUND', `merchant ${merchantId} was not found`);
  return m;
}

/** GET /v1/merchants/{merchantId}: the account's merchant with its wallets (main first) and their balances. */
export function merchantWithWallets(
  data: Reads,
  accountId: string,
  merchantId: string,
): { merchant: Readonly<Merchant>; wallets: { wallet: Readonly<Wallet>; balance: number }[] } {
  const merchant = merchantOfAccount(data, accountId, merchantId);
  const wallets = walletsOf(data, merchant).map((wallet) => ({ wallet, balance: data.balances.of(walletRef(wallet.id)) }));
  return { merchant, wallets };
}

/** PATCH /v1/merchants/{merchantId}: name, email, phone (document, document_type and status never change here: the schema refuses them). */
export function updateMerchant(
  ctx: AppContext,
  accountId: string,
  merchantId: string,
  patch: MerchantPatchBody,
): Promise<Readonly<Merchant>> {
  return ctx.store.commit((tx) => {
    const before = merchantOfAccount(tx, accountId, merchantId);
    const after: Merchant = { ...before, updatedAt: ctx.clockOf(before.accountId).nowIso() };
    if (patch.name !== undefined) after.name = patch.name;
    if (patch.email !== undefined) after.email = patch.email;
    if (patch.phone !== undefined) after.phone = patch.phone;
    return tx.put('merchants', after);
  });
}

/**
 * The operator's status change (docs/decisions.md#d3-merchant-status-is-the-operators), by the
 * transition table. Only the status moves; its effects follow from it wherever they apply: the token
 * endpoint refuses an inactive merchant, authentication refuses its live tokens, and a split to its
 * wallet is refused when a charge is created.
 */
export function setMerchantStatus(tx: Tx, ctx: AppContext, id: string, status: MerchantStatus): Readonly<Merchant> {
  const before = tx.merchants.get(id);
  if (!before) throw notFound(`merchant ${id}`);
  const after: Merchant = {
    ...before,
    status: merchantTransition(before.status, status),
    updatedAt: ctx.clockOf(before.accountId).nowIso(),
  };
  return tx.put('merchants', after);
}

/** The merchant's wallets, main wallet first. */
export function walletsOf(data: Reads, merchant: Readonly<Merchant>): Readonly<Wallet>[] {
  const main = data.wallets.get(merchant.walletId);
  const others = [...data.wallets.find('byMerchant', merchant.id, { order: 'oldest' })].filter((w) => w.id !== merchant.walletId);
  return main ? [main, ...others] : others;
}

const byCreation = (a: Readonly<Merchant>, b: Readonly<Merchant>): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * docs/api.md#list-merchants: createdAt ascending, then id; a page past the end is empty with correct totals.
 * The spec's answer carries the total, so this reads all of the account's merchants (never another's).
 */
export function listMerchants(data: Reads, accountId: string, q: MerchantListQuery): { items: Readonly<Merchant>[]; total: number } {
  const all = [...data.merchants.find('byAccount', accountId)].filter((m) => !q.status || m.status === q.status);
  all.sort(byCreation);
  const start = (q.page - 1) * q.limit;
  return { items: all.slice(start, start + q.limit), total: all.length };
}
