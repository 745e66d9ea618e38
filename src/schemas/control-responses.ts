// JSON Schemas of the control API's answers (docs/control-api.md), closed too, so the document is
// exact. A view of a stored record is a projection of the record's own schema (./records.ts):
// the record without the store's `seq`, or the fields it picks.
import { arrayOf, bool, cents, dataUrlPng, extend, int, nullable, num, obj, omit, pick, str, time, uuid } from './helpers.js';
import { merchantFields } from './public-responses.js';
import {
  chargeRecordSchema,
  ledgerEntrySchema,
  pixKeyRecordSchema,
  ruleRecordSchema,
  savedSnapshotRecordSchema,
  transferRecordSchema,
  webhookEventRecordSchema,
} from './records.js';

export const healthSchema = obj({
  status: { type: 'string', enum: ['ok', 'starting', 'stopping'] },
  ready: bool,
  checks: obj({ listening: bool, storeOpen: bool, fixturesLoaded: bool }),
  version: str,
  uptimeSeconds: cents,
});
export const clockSchema = obj({ accountId: nullable(uuid), now: time, offsetSeconds: num, frozen: bool });

const accountFields = {
  id: uuid,
  name: str,
  client_id: str,
  client_secret: str,
  splitEnabled: bool,
  autoPayAfterSeconds: nullable(cents),
  settleAfterSeconds: cents,
  rateLimit: nullable(obj({ requestsPerSecond: int, burst: int, tokenRequestsPerMinute: int })),
  balance: cents,
  createdAt: time,
  updatedAt: time,
} as const;
/** `client_secret` only in the answer that created the account. */
export const accountSchema = obj(accountFields, ['client_secret']);
export const walletSchema = obj({
  walletId: uuid,
  accountId: uuid,
  merchantId: uuid,
  name: str,
  balance: cents,
  currency: { const: 'BRL' },
  createdAt: time,
});
export const controlMerchantSchema = obj({
  id: uuid,
  accountId: uuid,
  ...merchantFields,
  client_id: str,
  walletId: uuid,
  wallets: arrayOf(walletSchema),
  createdAt: time,
  updatedAt: time,
});

/** A transaction as stored (its record without `seq`): a charge (CASH_IN) or a transfer (CASH_OUT). */
export const transactionSchema = { oneOf: [chargeRecordSchema, transferRecordSchema] } as const;
/** One transaction with what a dashboard shows beside it: a charge's QR image, the ledger entries and events (records without `seq`). */
const beside = { ledger: arrayOf(ledgerEntrySchema), events: arrayOf(webhookEventRecordSchema) } as const;
export const transactionDetailSchema = {
  oneOf: [extend(chargeRecordSchema, { qrCode: dataUrlPng, ...beside }), extend(transferRecordSchema, beside)],
} as const;

/** Whose arrangement it is: a tenant's own, or `null` when it applies to every tenant (docs/control-api.md#scoped-arrangements). */
const scope = { accountId: nullable(uuid) } as const;
export const pixKeyViewSchema = extend(pick(pixKeyRecordSchema, ['key', 'keyType', 'owner', 'unknown', 'createdAt']), scope);
/** The rule as stored (without `seq`), `id` the rule id within its scope. */
export const ruleViewSchema = extend(omit(ruleRecordSchema, ['accountId']), scope);
/** An HTTP fault (src/store/model-controls.ts): `status`, `code`, `message` null for a fault that only adds latency. */
export const faultViewSchema = obj({
  id: uuid,
  ...scope,
  method: nullable(str),
  path: str,
  status: nullable(int),
  code: nullable(str),
  message: nullable(str),
  latencyMs: cents,
  retryAfterSeconds: nullable(int),
  remaining: nullable(cents),
  probability: num,
  hits: cents,
  createdAt: time,
});
/** One exchange of the request journal; `at` in real time (tenants' clocks differ). */
export const journalEntrySchema = obj({
  seq: int,
  /** the tenant whose request it was: the token's account, or the account of the token request's client_id; null when unknown */
  accountId: nullable(uuid),
  at: time,
  method: str,
  path: str,
  status: int,
  durationMs: num,
  requestId: str,
  requestHeaders: { type: 'object', additionalProperties: { anyOf: [str, arrayOf(str)] } },
  requestBody: {},
  responseBody: {},
});
export const resetResultSchema = obj({
  status: { const: 'reset' },
  fixtures: str,
  movedAsideTo: nullable(str),
  accounts: arrayOf(accountSchema),
  pixKeys: cents,
  rules: cents,
  webhookEndpoints: cents,
});

/** A named snapshot (docs/control-api.md#snapshots): the catalog's record, named. */
export const snapshotSchema = obj({
  name: { type: 'string', description: 'its name, unique in the sandbox' },
  ...pick(savedSnapshotRecordSchema, ['accountId', 'createdAt', 'counts', 'bytes']).properties,
});
