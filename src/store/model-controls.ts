// What testers set up to steer the sandbox: the PIX key directory, outcome rules, and HTTP faults.
// Part of the one data model (./model.ts re-exports it). Keys and rules are declared by their
// JSON Schemas in src/schemas/records.ts (the control API shows them from the same schemas).
import type { pixKeyRecordSchema, ruleRecordSchema } from '../schemas/records.js';
import type { Stored, StoredAs } from './model-meta.js';

export type PixKeyEntry = StoredAs<typeof pixKeyRecordSchema>;

export type Rule = StoredAs<typeof ruleRecordSchema>;
export type RuleMatch = Rule['match'];

/** An injected HTTP fault (docs/control-api.md#faults); the control API shows it reshaped (src/format/control.ts). */
export interface Fault extends Stored {
  id: string;
  /** the tenant whose requests it answers (docs/control-api.md#scoped-arrangements); absent: every tenant's */
  accountId?: string;
  method: string | null;
  path: string;
  /** 0: no error, the fault only adds latency */
  status: number;
  code: string;
  message: string;
  latencyMs: number;
  /** the Retry-After of its answer (429 and 503 only; a 429's is 1 when not given); absent: none */
  retryAfterSeconds?: number;
  /** how many more times it fires; null = unlimited */
  remaining: number | null;
  probability: number;
  hits: number;
  createdAt: string;
}
