// Charges (cash-in, docs/decisions.md#d20-how-charges-end) as plain data: the new record, and the record after each
// transition. Legality of a transition is decided by transitions.ts; this module only builds.
import type { ErrorDetail } from './errors.js';
import { documentIssues } from './documents.js';
import { ISPBS } from './end-to-end.js';
import { chargeTransition, type ChargeAction } from './transitions.js';
import type { Charge, Customer, New, Party, ScheduledOutcome, SplitShare, TransactionError } from '../store/model.js';

const DEFAULT_EXPIRATION_SECONDS = 86_400;
/** The merchant city of every BR Code the sandbox emits (the spec has no field for it). */
export const MERCHANT_CITY = 'SAO PAULO';

export interface CashInInput {
  amount: number;
  description: string;
  customer: Customer;
  externalId?: string;
  expiration?: number;
}

/** Rules the schema cannot say: a customer document must have valid check digits. */
export function cashInIssues(input: Pick<CashInInput, 'customer'>): ErrorDetail[] {
  return documentIssues(input.customer.document, '/customer/document');
}

/** The charge's location for BR Code item 26/25: host[:port] and path, without scheme. */
export function chargeLocation(publicUrl: string, id: string): string {
  const hostAndPath = publicUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '');
  return `${hostAndPath}/pix/qr/v2/${id}`;
}

function addSeconds(at: Date, seconds: number): string {
  return new Date(at.getTime() + seconds * 1000).toISOString();
}

/** The account's automatic payment, when no outcome rule decided the charge's fate first. */
export function autoPayOutcome(seconds: number, now: Date): ScheduledOutcome {
  return { ruleId: 'account.autoPayAfterSeconds', action: 'pay', at: addSeconds(now, seconds) };
}

export interface NewCharge {
  id: string;
  accountId: string;
  merchantId: string | null;
  input: CashInInput;
  pixCode: string;
  split: SplitShare[];
  outcome?: ScheduledOutcome;
  now: Date;
}

export function buildCharge(n: NewCharge): New<Charge> {
  const at = n.now.toISOString();
  const expiration = n.input.expiration ?? DEFAULT_EXPIRATION_SECONDS;
  const customer: Customer = { name: n.input.customer.name, document: n.input.customer.document };
  if (n.input.customer.email !== undefined) customer.email = n.input.customer.email;
  if (n.input.customer.phone !== undefined) customer.phone = n.input.customer.phone;
  const charge: New<Charge> = {
    id: n.id,
    type: 'CASH_IN',
    accountId: n.accountId,
    merchantId: n.merchantId,
    amount: n.input.amount,
    description: n.input.description,
    status: 'WAITING_PAYMENT',
    customer,
    expiration,
    expiresAt: addSeconds(n.now, expiration),
    pixCode: n.pixCode,
    split: n.split,
    createdAt: at,
    updatedAt: at,
  };
  if (n.input.externalId !== undefined) charge.externalId = n.input.externalId;
  if (n.outcome) charge.outcome = n.outcome;
  return charge;
}

function digits(random: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(Math.min(9, Math.floor(random() * 10)));
  return s;
}

/** Who paid, when the payer is not given: the charge's customer, at a real bank. */
export function defaultPayer(charge: Readonly<New<Charge>>, given: Partial<Party> | undefined, random: () => number): Party {
  const banks = Object.keys(ISPBS);
  return {
    name: given?.name ?? charge.customer.name,
    document: given?.document ?? charge.customer.document,
    ispb: given?.ispb ?? banks[Math.min(banks.length - 1, Math.floor(random() * banks.length))]!,
    account_number: given?.account_number ?? `${digits(random, 6)}-${digits(random, 1)}`,
    account_type: given?.account_type ?? 'CACC',
  };
}

export function paidCharge(charge: Readonly<New<Charge>>, payer: Party, endToEndId: string, at: string): New<Charge> {
  const status = chargeTransition(charge.status, 'pay');
  return { ...charge, status, payer, endToEndId, paidAt: at, updatedAt: at };
}

/** The actions that close a charge unpaid. */
export type ClosingAction = Exclude<ChargeAction, 'pay'>;

const CLOSING_ERRORS: Record<ClosingAction, TransactionError> = {
  expire: { code: 'CHARGE_EXPIRED', message: 'the charge expired before it was paid' },
  cancel: { code: 'CHARGE_CANCELLED', message: 'the charge was cancelled before it was paid' },
};

/** EXPIRED or CANCELLED, with the error that the lookup reports. */
export function closedCharge(charge: Readonly<New<Charge>>, action: ClosingAction, at: string): New<Charge> {
  const status = chargeTransition(charge.status, action);
  return { ...charge, status, error: { ...CLOSING_ERRORS[action] }, updatedAt: at };
}

/** The cents that stay with the charge's receiver once every split share is taken out. */
export function receiverShare(charge: Readonly<New<Charge>>): number {
  return charge.amount - charge.split.reduce((sum, s) => sum + s.share, 0);
}
