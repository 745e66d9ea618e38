// JSON Schemas of the verification of requests (docs/control-api.md#verifying-requests): what a test
// expects the app to have sent, the rules a schema cannot say (a regular expression that compiles,
// atLeast ≤ atMost), and the two answers: it holds (200), or it does not (422 VERIFICATION_FAILED with
// the nearest misses). An unknown field is a mistake here, not a field to ignore: every object is closed.
import type { ErrorDetail } from '../domain/errors.js';
import { regexIssue } from '../domain/request-match.js';
import { STATUS_CLASSES, alternatives } from '../domain/vocabulary.js';
import type { BodyCheck } from './checks.js';
import { scopeAccountId } from './control.js';
import { errorDetailSchema } from './error-responses.js';
import type { Validated } from './from-schema.js';
import { arrayOf, obj, str } from './helpers.js';

const MAX_WITHIN_SECONDS = 30;

const VALUE = 'must be a string, {"matches": "<regex>"} or {"absent": true}';
/** A header's or query parameter's expected value: the exact text, a regular expression that finds it, or absent. */
const valueMatcher = {
  anyOf: [
    { type: 'string', maxLength: 2000, 'x-message': VALUE },
    {
      type: 'object',
      properties: {
        matches: { type: 'string', minLength: 1, maxLength: 500, 'x-message': 'must be a regular expression of 1 to 500 characters' },
        absent: { const: true, 'x-message': 'must be true' },
      },
      additionalProperties: false,
      minProperties: 1,
      maxProperties: 1,
      'x-message': VALUE,
    },
  ],
} as const;
const valuesOf = (what: string) =>
  ({
    type: 'object',
    maxProperties: 50,
    additionalProperties: valueMatcher,
    description: `${what} by name: the exact text, {"matches": "<regex>"} or {"absent": true}`,
  }) as const;

const STATUS = `must be a status from 100 to 599 or one of ${alternatives(STATUS_CLASSES)}`;
const requestMatcherSchema = obj(
  {
    request: obj(
      {
        method: { type: 'string', pattern: '^[A-Za-z]{1,10}$', 'x-message': 'must be an HTTP method (GET, POST, …)' },
        path: {
          type: 'string',
          pattern: '^/[^?#\\s]{0,299}$',
          'x-message': 'must be a path starting with / (segments may be *, ** or :name), without query string',
        },
        query: valuesOf('Query parameters'),
        headers: valuesOf('Headers (names in any case)'),
        body: { description: 'Any JSON value, matched as a subset: every field given equal, recursively; arrays item by item' },
      },
      ['method', 'path', 'query', 'headers', 'body'],
    ),
    status: {
      anyOf: [
        { type: 'integer', minimum: 100, maximum: 599, 'x-message': STATUS },
        { type: 'string', enum: STATUS_CLASSES, 'x-message': STATUS },
      ],
    },
  },
  ['status'],
);

const within = {
  type: 'number',
  minimum: 0,
  maximum: MAX_WITHIN_SECONDS,
  default: 0,
  'x-message': `must be a number of seconds from 0 to ${MAX_WITHIN_SECONDS}`,
  description: 'How long to wait for it to hold (for requests the app makes asynchronously)',
} as const;
const count = { type: 'integer', minimum: 0, 'x-message': 'must be a whole number from 0' } as const;

export const verifySchema = obj(
  {
    accountId: scopeAccountId,
    ...requestMatcherSchema.properties,
    times: {
      ...obj({ atLeast: count, atMost: count }, ['atLeast', 'atMost']),
      minProperties: 1,
      'x-message': 'must give atLeast, atMost or both',
      description: 'How many matching requests (default {"atLeast": 1}; given, atLeast defaults to 0)',
    },
    within,
  },
  ['accountId', 'status', 'times', 'within'],
);
export type VerifyBody = Validated<typeof verifySchema>;

export const verifySequenceSchema = obj(
  {
    accountId: scopeAccountId,
    requests: { type: 'array', minItems: 1, maxItems: 50, items: requestMatcherSchema },
    within,
  },
  ['accountId', 'within'],
);
export type VerifySequenceBody = Validated<typeof verifySequenceSchema>;

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The regular expressions of one matcher (`at`: its JSON pointer) that do not compile. */
function regexIssues(matcher: unknown, at: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const request = record(record(matcher)?.request);
  for (const part of ['query', 'headers'] as const)
    for (const [name, v] of Object.entries(record(request?.[part]) ?? {})) {
      const source = record(v)?.matches;
      const issue = typeof source === 'string' ? regexIssue(source) : null;
      if (issue) out.push({ path: `${at}/request/${part}/${name}/matches`, message: issue });
    }
  return out;
}

/** POST /_sandbox/verify: the regular expressions compile, and atLeast is not above atMost. */
export const verifyChecks: BodyCheck = (b) => {
  const out = regexIssues(b, '');
  const times = record(b.times);
  if (typeof times?.atLeast === 'number' && typeof times.atMost === 'number' && times.atLeast > times.atMost)
    out.push({ path: '/times/atMost', message: `must not be below atLeast (${times.atLeast})` });
  return out;
};

/** POST /_sandbox/verify/sequence: the regular expressions of every item compile. */
export const verifySequenceChecks: BodyCheck = (b) =>
  Array.isArray(b.requests) ? b.requests.flatMap((item, i) => regexIssues(item, `/requests/${i}`)) : [];

const seqs = arrayOf({ type: 'integer', minimum: 1 });
/** It holds: how many requests matched (a sequence: how many of its items), and their journal `seq`s, newest first (a sequence: one per item, in order). */
export const verificationSchema = obj({ ok: { const: true }, count: { type: 'integer', minimum: 0 }, matches: seqs });

const nearMissSchema = obj({
  seq: { type: 'integer', minimum: 1 },
  method: str,
  path: str,
  status: { type: 'integer' },
  differences: { ...arrayOf(str), description: 'Each field of the matcher that differs: `body.amount: expected "1000", got 1000`' },
});
/** It does not hold: the usual error shape, with the count found and up to 5 near misses. */
export const verificationFailedSchema = obj({
  statusCode: { const: 422 },
  message: str,
  error: obj({
    code: { type: 'string', enum: ['VERIFICATION_FAILED'] },
    details: arrayOf(errorDetailSchema),
    count: { type: 'integer', minimum: 0 },
    nearMisses: arrayOf(nearMissSchema),
  }),
});
