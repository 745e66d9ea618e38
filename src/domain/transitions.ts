// The only judge of legal state changes. Anything not in a table is refused with 409 INVALID_STATE.
import { SandboxError } from './errors.js';
import type { ChargeAction, ChargeStatus, MerchantStatus, TransferAction, TransferStatus } from '../store/model.js';
import { MERCHANT_STATUSES } from './vocabulary.js';

export type { ChargeAction, TransferAction };

const CHARGE_TRANSITIONS: Record<ChargeAction, { from: ChargeStatus[]; to: ChargeStatus }> = {
  pay: { from: ['WAITING_PAYMENT'], to: 'PAID' },
  expire: { from: ['WAITING_PAYMENT'], to: 'EXPIRED' },
  cancel: { from: ['WAITING_PAYMENT'], to: 'CANCELLED' },
};

const TRANSFER_TRANSITIONS: Record<TransferAction, { from: TransferStatus[]; to: TransferStatus }> = {
  complete: { from: ['PROCESSING'], to: 'COMPLETED' },
  fail: { from: ['PROCESSING'], to: 'FAILED' },
};

/** Every merchant status may move to any other (an operator decision); moving to itself is refused. */
const MERCHANT_TRANSITIONS = Object.fromEntries(
  MERCHANT_STATUSES.map((s) => [s, MERCHANT_STATUSES.filter((other) => other !== s)]),
) as Record<MerchantStatus, MerchantStatus[]>;

export function chargeTransition(status: ChargeStatus, action: ChargeAction): ChargeStatus {
  const t = CHARGE_TRANSITIONS[action];
  if (!t.from.includes(status))
    throw new SandboxError('INVALID_STATE', `cannot ${action} a charge that is ${status} (only ${t.from.join(', ')})`);
  return t.to;
}

export function transferTransition(status: TransferStatus, action: TransferAction): TransferStatus {
  const t = TRANSFER_TRANSITIONS[action];
  if (!t.from.includes(status))
    throw new SandboxError('INVALID_STATE', `cannot ${action} a transfer that is ${status} (only ${t.from.join(', ')})`);
  return t.to;
}

export function merchantTransition(status: MerchantStatus, to: MerchantStatus): MerchantStatus {
  if (!MERCHANT_TRANSITIONS[status].includes(to)) throw new SandboxError('INVALID_STATE', `the merchant is already ${status}`);
  return to;
}
