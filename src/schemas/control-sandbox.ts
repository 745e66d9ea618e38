// JSON Schemas of the control API's requests about the sandbox itself (docs/control-api.md): its
// clock, reset, injected HTTP faults and the request journal's query.
import type { Validated } from './from-schema.js';
import { isoInstant, scopeAccountId } from './control.js';
import { errorCode, uuidParam } from './helpers.js';

export const MAX_ADVANCE_SECONDS = 2_592_000;
const clockAccountId = { ...uuidParam, description: 'the tenant whose clock it is; absent: the sandbox-wide clock (every tenant)' };

/** How far to move: `seconds`, or `to` an instant after the clock's now (checked by the service). */
export const clockAdvanceSchema = {
  type: 'object',
  properties: {
    seconds: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_ADVANCE_SECONDS,
      'x-message': 'must be an integer of seconds from 1 to 2592000 (30 days)',
    },
    to: isoInstant,
    accountId: clockAccountId,
  },
} as const;
export type ClockAdvanceBody = Validated<typeof clockAdvanceSchema>;
/** Exactly one of seconds and to (a schema's oneOf would not name the field). */
export const clockAdvanceCheck = (b: Record<string, unknown>): { path: string; message: string }[] => {
  if (b.seconds === undefined && b.to === undefined) return [{ path: '/seconds', message: 'is required (or give to, an instant)' }];
  if (b.seconds !== undefined && b.to !== undefined) return [{ path: '/to', message: 'cannot be given with seconds: give one of them' }];
  return [];
};

/** freeze / unfreeze bodies and GET /_sandbox/clock's query: one tenant, or (absent) every tenant */
export const clockTargetSchema = { type: 'object', properties: { accountId: clockAccountId } } as const;
export type ClockTargetBody = Validated<typeof clockTargetSchema>;

const FIXTURE_NAME_PATTERN = '^[a-z0-9][a-z0-9-]{0,63}$';

export const resetSchema = {
  type: 'object',
  properties: {
    fixtures: {
      // a fixture set shipped in the package's fixtures/ folder, by name, or a whole fixture object
      oneOf: [
        {
          type: 'string',
          pattern: FIXTURE_NAME_PATTERN,
          'x-message': 'must be the name of a shipped fixture set (e.g. "example-marketplace") or a fixture object',
        },
        { type: 'object', 'x-message': 'must be a fixture object or the name of a shipped fixture set' },
      ],
    },
  },
} as const;
export type ResetBody = Validated<typeof resetSchema>;

export const faultSchema = {
  type: 'object',
  required: ['path'],
  properties: {
    method: {
      type: 'string',
      pattern: '^([Gg][Ee][Tt]|[Pp][Oo][Ss][Tt]|[Pp][Aa][Tt][Cc][Hh]|[Pp][Uu][Tt]|[Dd][Ee][Ll][Ee][Tt][Ee]|[Hh][Ee][Aa][Dd])$',
      'x-message': 'must be GET, POST, PATCH, PUT, DELETE or HEAD',
    },
    path: {
      type: 'string',
      pattern: '^/[^?#\\s]{0,299}$',
      'x-message': 'must be a path starting with / (segments may be *, ** or :name), without query string',
    },
    status: { type: 'integer', minimum: 400, maximum: 599, 'x-message': 'must be an HTTP error status from 400 to 599' },
    code: errorCode,
    message: { type: 'string', minLength: 1, maxLength: 500 },
    latencyMs: { type: 'integer', minimum: 0, maximum: 60_000, 'x-message': 'must be an integer of milliseconds from 0 to 60000' },
    times: { type: 'integer', minimum: 1, maximum: 1_000_000, 'x-message': 'must be a positive integer (omit it for no limit)' },
    probability: { type: 'number', exclusiveMinimum: 0, maximum: 1, 'x-message': 'must be a number above 0 and at most 1' },
    retryAfterSeconds: { type: 'integer', minimum: 1, maximum: 3600, 'x-message': 'must be an integer of seconds from 1 to 3600' },
    accountId: scopeAccountId,
  },
  allOf: [
    { not: { type: 'object', properties: { status: false, latencyMs: false } }, 'x-message': 'needs a status, a latencyMs, or both' },
    {
      // not (retryAfterSeconds without a status of 429 or 503)
      not: {
        type: 'object',
        properties: { retryAfterSeconds: {} },
        required: ['retryAfterSeconds'],
        not: { properties: { status: { enum: [429, 503] } }, required: ['status'] },
      },
      'x-message': 'retryAfterSeconds goes with a status of 429 or 503 only',
    },
  ],
} as const;
export type FaultBody = Validated<typeof faultSchema>;

export const requestsQuerySchema = {
  type: 'object',
  properties: {
    accountId: { ...scopeAccountId, description: "one tenant's requests; absent: every tenant's (with a tenant's token: its own)" },
    limit: { type: 'integer', minimum: 1, maximum: 10_000, default: 100 },
    method: { type: 'string', minLength: 1, maxLength: 10 },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    path: { type: 'string', minLength: 1, maxLength: 300 },
    requestId: { type: 'string', minLength: 1, maxLength: 128 },
  },
} as const;
export type RequestsQuery = Validated<typeof requestsQuerySchema>;

// ---- named snapshots (docs/control-api.md#snapshots) ----
const SNAPSHOT_NAME_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
const snapshotName = {
  type: 'string',
  pattern: SNAPSHOT_NAME_PATTERN,
  'x-message': 'must be 1-64 letters, digits, or . _ -',
} as const;

export const snapshotSaveSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: snapshotName,
    accountId: { ...uuidParam, description: 'the tenant to save; absent: the whole sandbox' },
    replace: { type: 'boolean', description: 'replace a snapshot of the same name (else 409 CONFLICT)' },
  },
} as const;
export type SnapshotSaveBody = Validated<typeof snapshotSaveSchema>;

export const snapshotListQuerySchema = {
  type: 'object',
  properties: { accountId: { ...uuidParam, description: "only this tenant's snapshots" } },
} as const;
export type SnapshotListQuery = Validated<typeof snapshotListQuerySchema>;
