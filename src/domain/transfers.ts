// Transfers (cash-out, docs/api.md#transfers-cash-out) as plain data: the request read into a record, the owner of
// the destination key (the sandbox's DICT), and the settlement decision.
import { MAX_AMOUNT } from './ledger.js';
import type { ErrorDetail } from './errors.js';
import { documentTypeOf, generateCpf } from './documents.js';
import { ISPBS } from './end-to-end.js';
import { KEY_TYPE_MESSAGE, normalizeKey, normalizeKeyType, validatePixKey } from './pix-keys.js';
import { transferTransition } from './transitions.js';
import type { New, PixKeyEntry, ScheduledOutcome, Transfer, TransferDetails, TransactionError } from '../store/model.js';
import { seededRandom } from './random.js';

export type Receiver = NonNullable<Transfer['receiver']>;

export interface CashOutInput {
  description: string;
  amount: string;
  details: { name: string; document?: string; key: string; keyType: string };
}

/** Rules the schema cannot say about a cash-out amount (its pattern allows ten digits): at most MAX_AMOUNT. */
export function cashOutAmountIssues(raw: string): ErrorDetail[] {
  const amount = Number(raw);
  if (/^[1-9][0-9]*$/.test(raw) && Number.isSafeInteger(amount) && amount <= MAX_AMOUNT) return [];
  return [{ path: '/amount', message: `must be a string of cents from "1" to "${MAX_AMOUNT}"` }];
}

/** Rules the schema cannot say about a recipient: a known key type, a key that fits it, a document's check digits. */
export function transferDetailsIssues(raw: CashOutInput['details']): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  const keyType = normalizeKeyType(raw.keyType);
  if (!keyType) issues.push({ path: '/details/keyType', message: KEY_TYPE_MESSAGE });
  const keyIssue = keyType ? validatePixKey(keyType, raw.key) : null;
  if (keyIssue) issues.push({ path: '/details/key', message: keyIssue });
  if (raw.document !== undefined && !documentTypeOf(raw.document))
    issues.push({ path: '/details/document', message: 'must be a valid CPF or CNPJ (check digits do not match)' });
  return issues;
}

/**
 * The recipient as stored: key type folded to its canonical name, key to its canonical spelling. The
 * details have passed the schema and transferDetailsIssues (the body's check), so the type is known.
 */
export function transferDetailsOf(raw: CashOutInput['details']): TransferDetails {
  const keyType = normalizeKeyType(raw.keyType)!;
  const details: TransferDetails = { name: raw.name, key: normalizeKey(keyType, raw.key), keyType };
  if (raw.document !== undefined) details.document = raw.document;
  return details;
}

export interface NewTransfer {
  id: string;
  accountId: string;
  merchantId: string | null;
  amount: number;
  description: string;
  details: TransferDetails;
  idempotencyKey: string;
  settleAfterSeconds: number;
  outcome?: ScheduledOutcome;
  now: Date;
}

export function buildTransfer(n: NewTransfer): New<Transfer> {
  const at = n.now.toISOString();
  const t: New<Transfer> = {
    id: n.id,
    type: 'CASH_OUT',
    accountId: n.accountId,
    merchantId: n.merchantId,
    amount: n.amount,
    description: n.description,
    status: 'PROCESSING',
    details: n.details,
    idempotencyKey: n.idempotencyKey,
    settleAt: new Date(n.now.getTime() + n.settleAfterSeconds * 1000).toISOString(),
    createdAt: at,
    updatedAt: at,
  };
  if (n.outcome) t.outcome = n.outcome;
  return t;
}

/**
 * The key's owner (docs/decisions.md#d26-settlement-by-the-key-directory): the directory entry when there is one; otherwise a CPF or CNPJ
 * key is owned by that document, and any other key by details.document (or a generated CPF).
 * Bank details the directory does not give are derived from the key, so they never change.
 */
export function keyOwner(details: TransferDetails, entry: Readonly<New<PixKeyEntry>> | null): Receiver {
  const random = seededRandom(`${details.keyType}:${details.key}`);
  const generatedCpf = generateCpf(random);
  const banks = Object.keys(ISPBS);
  const bank = banks[Math.floor(random() * banks.length) % banks.length]!;
  const account = String(100000 + Math.floor(random() * 900000)) + '-' + String(Math.floor(random() * 10) % 10);
  const selfOwned = details.keyType === 'CPF' || details.keyType === 'CNPJ';
  const owner = entry?.owner ?? { name: details.name, document: selfOwned ? details.key : (details.document ?? generatedCpf) };
  return {
    name: owner.name,
    document: owner.document,
    ispb: owner.ispb ?? bank,
    account_number: owner.account_number ?? account,
    account_type: owner.account_type ?? 'CACC',
    key: details.key,
    keyType: details.keyType,
  };
}

export type Settlement = { status: 'COMPLETED'; receiver: Receiver } | { status: 'FAILED'; error: TransactionError };

const DEFAULT_FAILURE: TransactionError = { code: 'TRANSFER_FAILED', message: 'the receiving institution refused the transfer' };

/** What settlement by the clock decides: the outcome rule when one matched, else the directory. */
export function settlementOf(t: Readonly<New<Transfer>>, entry: Readonly<New<PixKeyEntry>> | null): Settlement {
  if (t.outcome?.action === 'complete') return { status: 'COMPLETED', receiver: keyOwner(t.details, entry) };
  if (t.outcome?.action === 'fail')
    return {
      status: 'FAILED',
      error: { code: t.outcome.code ?? DEFAULT_FAILURE.code, message: t.outcome.message ?? DEFAULT_FAILURE.message },
    };
  if (entry?.unknown)
    return { status: 'FAILED', error: { code: 'KEY_NOT_FOUND', message: `the PIX key ${t.details.key} is not registered in DICT` } };
  const receiver = keyOwner(t.details, entry);
  if (t.details.document !== undefined && t.details.document !== receiver.document)
    return {
      status: 'FAILED',
      error: { code: 'DOCUMENT_MISMATCH', message: `the PIX key ${t.details.key} does not belong to the document ${t.details.document}` },
    };
  return { status: 'COMPLETED', receiver };
}

export function completedTransfer(t: Readonly<New<Transfer>>, receiver: Receiver, endToEndId: string, at: string): New<Transfer> {
  const status = transferTransition(t.status, 'complete');
  return { ...t, status, receiver, endToEndId, settledAt: at, updatedAt: at };
}

export function failedTransfer(t: Readonly<New<Transfer>>, error: TransactionError, at: string): New<Transfer> {
  const status = transferTransition(t.status, 'fail');
  return { ...t, status, error: { code: error.code, message: error.message }, settledAt: at, updatedAt: at };
}
