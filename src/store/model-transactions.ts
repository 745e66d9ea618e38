// Charges and transfers, and the record of an idempotent cash-out's answer. Part of the one data
// model (./model.ts re-exports it). A transaction is declared once, by its JSON Schema in
// src/schemas/records.ts (the control API shows it as stored); these are its types.
import type { Wire } from '../schemas/from-schema.js';
import type {
  chargeRecordSchema,
  customerSchema,
  idempotencyRecordSchema,
  partySchema,
  scheduledOutcomeSchema,
  splitShareSchema,
  transactionErrorSchema,
  transferDetailsSchema,
  transferRecordSchema,
} from '../schemas/records.js';
import type { StoredAs } from './model-meta.js';

export type Customer = Wire<typeof customerSchema>;
/** A party of a settled PIX payment: the payer of a charge, or the receiver of a transfer. */
export type Party = Wire<typeof partySchema>;
export type TransactionError = Wire<typeof transactionErrorSchema>;
/** A fate decided at creation by an outcome rule (docs/decisions.md#d29-outcome-rules), carried out by the due-work runner. */
export type ScheduledOutcome = Wire<typeof scheduledOutcomeSchema>;
export type SplitShare = Wire<typeof splitShareSchema>;
export type TransferDetails = Wire<typeof transferDetailsSchema>;

export type Charge = StoredAs<typeof chargeRecordSchema>;
export type Transfer = StoredAs<typeof transferRecordSchema>;
export type Transaction = Charge | Transfer;

/** The record of an idempotent cash-out's answer (its schema: src/schemas/records.ts). */
export type IdempotencyRecord = StoredAs<typeof idempotencyRecordSchema>;
