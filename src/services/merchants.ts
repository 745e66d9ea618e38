// Merchants (spec "Merchant", CONTRACT §1 and §4): sub-accounts of an account, each with one
// main wallet and its own credentials. Secrets are hashed before the commit (scrypt is
// asynchronous and a commit must not await); everything else happens inside it.
import type { AppContext } from '../context.js';
import { generateClientId, generateSecret, hashSecret } from '../domain/credentials.js';
import { declaredDocumentIssues } from '../domain/documents.js';
import { SandboxError } from '../domain/errors.js';
import type { MerchantCreateBody, MerchantListQuery, MerchantPatchBody } from '../schemas/public.js';
import type { Data, Merchant, Wallet } from '../store/model.js';
import type { Tx } from '../store/store.js';

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
export function checkMerchantDocument(document: string, type: 'CPF' | 'CNPJ'): void {
  const issues = declaredDocumentIssues(document, type);
  if (issues.length > 0) throw new SandboxError('VALIDATION_ERROR', `${issues[0]!.path.slice(1)} ${issues[0]!.message}`, issues);
}

function assertDocumentFree(data: { ix: Tx['ix'] }, accountId: string, document: string): void {
  if (data.ix.merchantByDocument.has(`${accountId}:${document}`))
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
}

/** A merchant and its main wallet (the API and fixtures share it). */
export function merchantRecords(f: MerchantFields, now: string): { merchant: Merchant; wallet: Wallet } {
  const merchant: Merchant = {
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
    walletId: f.walletId,
    createdAt: now,
    updatedAt: now,
  };
  const wallet: Wallet = { id: f.walletId, accountId: f.accountId, merchantId: f.id, name: 'main', currency: 'BRL', createdAt: now };
  return { merchant, wallet };
}

export function createMerchant(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  body: MerchantCreateBody,
  creds: Omit<NewCredentials, 'clientSecret'>,
): { merchant: Merchant; wallet: Wallet } {
  checkMerchantDocument(body.document, body.document_type);
  // checked again inside the commit: another request may have taken the document meanwhile
  assertDocumentFree(tx, accountId, body.document);
  if (tx.ix.byClientId.has(creds.clientId)) throw new Error('generated client_id collides');
  const { merchant, wallet } = merchantRecords(
    {
      id: ctx.newId(),
      walletId: ctx.newId(),
      accountId,
      ...body,
      status: 'ACTIVE',
      clientId: creds.clientId,
      secretHash: creds.secretHash,
    },
    ctx.clock.nowIso(),
  );
  tx.put('merchants', merchant);
  tx.put('wallets', wallet);
  return { merchant, wallet };
}

/** A merchant of the account; another account's merchant is 404, never 403 (CONTRACT §1). */
export function merchantOfAccount(data: Readonly<Data>, accountId: string, merchantId: string): Merchant {
  const m = Object.hasOwn(data.merchants, merchantId) ? data.merchants[merchantId] : undefined;
  if (!m || m.accountId !== accountId) throw new SandboxError('NOT_FOUND', `merchant ${merchantId} was not found`);
  return m;
}

export function updateMerchant(tx: Tx, ctx: AppContext, accountId: string, merchantId: string, patch: MerchantPatchBody): Merchant {
  const before = merchantOfAccount(tx.data, accountId, merchantId);
  const after: Merchant = { ...before, updatedAt: ctx.clock.nowIso() };
  if (patch.name !== undefined) after.name = patch.name;
  if (patch.email !== undefined) after.email = patch.email;
  if (patch.phone !== undefined) after.phone = patch.phone;
  tx.put('merchants', after);
  return after;
}

/** The merchant's wallets, main wallet first. */
export function walletsOf(data: Readonly<Data>, merchant: Merchant): Wallet[] {
  const main = data.wallets[merchant.walletId];
  const others = Object.values(data.wallets).filter((w) => w.merchantId === merchant.id && w.id !== merchant.walletId);
  return main ? [main, ...others] : others;
}

const byCreation = (a: Merchant, b: Merchant): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** CONTRACT §4: createdAt ascending, then id; a page past the end is empty with correct totals. */
export function listMerchants(data: Readonly<Data>, accountId: string, q: MerchantListQuery): { items: Merchant[]; total: number } {
  const all = Object.values(data.merchants).filter((m) => m.accountId === accountId && (!q.status || m.status === q.status));
  all.sort(byCreation);
  const start = (q.page - 1) * q.limit;
  return { items: all.slice(start, start + q.limit), total: all.length };
}
