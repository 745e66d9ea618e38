// Transactions on the wire, exactly as the spec shows them: the creation bodies of cash-in and
// cash-out, the lookup, and the balance envelope. Nothing internal leaks out; each formatter's type is
// its answer's schema (src/schemas/public-responses.ts).
import type { Wire } from '../schemas/from-schema.js';
import type {
  balanceResponseSchema,
  cashInResponseSchema,
  cashOutResponseSchema,
  chargeLocationSchema,
  lookupDataSchema,
  lookupResponseSchema,
} from '../schemas/public-responses.js';
import type { Charge, Party, Transfer } from '../store/model.js';

/** `qrCode` is derived from `pixCode` on the way out and never stored. */
export function formatCashIn(c: Charge, qrCode: string): Wire<typeof cashInResponseSchema> {
  return { transactionId: c.id, amount: c.amount, status: c.status, pixCode: c.pixCode, qrCode, createdAt: c.createdAt };
}

export function formatCashOut(t: Transfer): Wire<typeof cashOutResponseSchema> {
  return { transactionId: t.id, amount: t.amount, status: t.status, createdAt: t.createdAt, 'x-idempotency-key': t.idempotencyKey };
}

const party = (p: Party): Party => ({
  name: p.name,
  document: p.document,
  ispb: p.ispb,
  account_number: p.account_number,
  account_type: p.account_type,
});

/** The fields of a transaction that its lookup shows or decides by (all a lookup reads from the store). */
export const LOOKUP_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'type',
  'status',
  'accountId',
  'merchantId',
  'endToEndId',
  'payer',
  'receiver',
  'error',
]);
type Common = 'id' | 'type' | 'status' | 'accountId' | 'merchantId' | 'endToEndId' | 'error';
export type LookupView = Pick<Charge, Common | 'payer'> | Pick<Transfer, Common | 'receiver'>;

/**
 * The lookup's `data` (docs/decisions.md#d21-the-lookup-shows-four-states): id and status, plus end_to_end_id and payer/receiver when
 * COMPLETED, or error when FAILED. A charge's own states map onto the lookup's four.
 */
function lookupData(t: LookupView): Wire<typeof lookupDataSchema> {
  if (t.type === 'CASH_IN') {
    if (t.status === 'WAITING_PAYMENT') return { id: t.id, status: 'WAITING_PAYMENT' };
    if (t.status === 'PAID') return { id: t.id, status: 'COMPLETED', end_to_end_id: t.endToEndId!, payer: party(t.payer!) };
    const code = t.status === 'EXPIRED' ? 'CHARGE_EXPIRED' : 'CHARGE_CANCELLED';
    return { id: t.id, status: 'FAILED', error: { code: t.error?.code ?? code, message: t.error?.message ?? `the charge is ${t.status}` } };
  }
  if (t.status === 'PROCESSING') return { id: t.id, status: 'PROCESSING' };
  if (t.status === 'COMPLETED') {
    const r = t.receiver!;
    return { id: t.id, status: 'COMPLETED', end_to_end_id: t.endToEndId!, receiver: { ...party(r), key: r.key, keyType: r.keyType } };
  }
  return {
    id: t.id,
    status: 'FAILED',
    error: { code: t.error?.code ?? 'TRANSFER_FAILED', message: t.error?.message ?? 'the transfer failed' },
  };
}

/** The lookup's answer: its `data` in the envelope. */
export function formatLookup(t: LookupView): Wire<typeof lookupResponseSchema> {
  return { statusCode: 200, message: 'Transaction retrieved successfully', data: lookupData(t) };
}

export function formatBalance(balance: number): Wire<typeof balanceResponseSchema> {
  return { statusCode: 200, message: 'Balance retrieved successfully', data: { balance } };
}

/** What a payer's bank reads at the charge's location (not part of the public API's fields). */
export function formatLocation(c: Charge): Wire<typeof chargeLocationSchema> {
  return {
    id: c.id,
    amount: c.amount,
    status: c.status,
    description: c.description,
    createdAt: c.createdAt,
    expiresAt: c.expiresAt,
  };
}
