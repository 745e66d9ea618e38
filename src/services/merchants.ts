// Merchants (spec "Merchant", docs/decisions.md#d31-merchants): sub-accounts of an account, each with one
// main wallet and its own credentials. Secrets are hashed before the commit (scrypt is
// asynchronous and a commit must not await); everything else happens inside it.
import type { AppContext } from '../context.js';
import { generateClientId, generateSecret, hashSecret } from '../domain/credentials.js';
import { declaredDocumentIssues } from '../domain/documents.js';
import { SandboxError } from '../domain/errors.js';
import type { MerchantCreateBody, MerchantListQuery, MerchantPatchBody } from '../schemas/public.js';
import type { DocumentType, Merchant, New, Wallet } from '../store/model.js';
import { documentKey } from '../store/schema.js';
import type { Reads, Tx } from '../store/store.js';
import { clientIdTaken } from './accounts.js';
import { nextTokenGeneration } from './token-generation.js';

export interface NewCredentials {
  clientId: string;
  /** shown once, in the creation answer; only its hash is stored */
  clientSecret: string;
  secretHash: string;
}

export async function newMerchantCredentials(random: () => number): Promise<NewCredentials> {
  const clientSecret = generateSecret();
  return { clientId: generateClientId('mch', random), clientSecret, secretHash: await hashSecret(clientSecret, 'generated') };
}

/** document_type agrees with the length, and the check digits are right (docs/api.md). */
export function checkMerchantDocument(document: string, type: DocumentType): void {
  const issues = declaredDocumentIssues(document, type);
  if (issues.length > 0) throw new SandboxError('VALIDATION_ERROR', `${issues[0]!.path.slice(1)} ${issues[0]!.message}`, issues);
}

function assertDocumentFree(data: Reads, accountId: string, document: string): void {
  if (data.merchants.findOne('byDocument', documentKey(accountId, document)))
    throw new SandboxError('DOCUMENT_ALREADY_REGISTERED', `a merchant with document ${document} is already registered in this account`, [
      { path: '/document', message: 'is already registered' },
    ]);
}

/** The cheap checks, run before the scrypt hash so that a bad request costs nothing. */
export function precheckMerchant(ctx: AppContext, accountId: string, body: MerchantCreateBody): void {
  checkMerchantDocument(body.document, body.document_type);
  assertDocumentFree(ctx.store, accountId, body.document);
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

export function createMerchant(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  body: MerchantCreateBody,
  creds: Omit<NewCredentials, 'clientSecret'>,
): { merchant: Readonly<Merchant>; wallet: Readonly<Wallet> } {
  checkMerchantDocument(body.document, body.document_type);
  // checked again inside the commit: another request may have taken the document meanwhile
  assertDocumentFree(tx, accountId, body.document);
  if (clientIdTaken(tx, creds.clientId)) throw new Error('generated client_id collides');
  const { merchant, wallet } = merchantRecords(
    {
      id: ctx.newId(),
      walletId: ctx.newId(),
      accountId,
      ...body,
      status: 'ACTIVE',
      clientId: creds.clientId,
      secretHash: creds.secretHash,
      tokenGeneration: nextTokenGeneration(tx),
    },
    ctx.clockOf(accountId).nowIso(),
  );
  return { merchant: tx.put('merchants', merchant), wallet: tx.put('wallets', wallet) };
}

/** A merchant of the account; another account's merchant is 404, never 403 (docs/decisions.md#d2-merchants-are-principals). */
export function merchantOfAccount(data: Reads, accountId: string, merchantId: string): Readonly<Merchant> {
  const m = data.merchants.get(merchantId);
  if (!m || m.accountId !== accountId) throw new SandboxError('NOT_FOUND', `merchant ${merchantId} was not found`);
  return m;
}

export function updateMerchant(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  merchantId: string,
  patch: MerchantPatchBody,
): Readonly<Merchant> {
  const before = merchantOfAccount(tx, accountId, merchantId);
  const after: Merchant = { ...before, updatedAt: ctx.clockOf(before.accountId).nowIso() };
  if (patch.name !== undefined) after.name = patch.name;
  if (patch.email !== undefined) after.email = patch.email;
  if (patch.phone !== undefined) after.phone = patch.phone;
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
