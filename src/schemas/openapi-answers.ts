// Every answer of an operation as /openapi.json shows it: its own (the operation table) merged with
// those its kind gives (from its auth, body, query, path ids and prefix), the 429 and 5xx that an
// injected fault or a failure can give, and the headers each answer carries. An error answer's
// schema comes from its codes: `statusCode` is that status and `error.code` one of exactly those
// codes, each declared once, with its status, in src/domain/errors.ts.
import { ERROR_STATUS, type ErrorCode } from '../domain/errors.js';
import type { Answer, Operation, ResponseHeader } from './operation.js';
import { internalErrorSchema, serverErrorSchema, tooManyRequestsSchema } from './responses.js';

/** Headers shown once under components.headers (by these names) and referenced from each answer. */
export const COMMON_HEADERS: Record<string, ResponseHeader> = {
  'x-request-id': {
    description: 'The id of this request: the x-request-id the client sent when it is 1-128 letters, digits or _ . : -, else a new UUID',
    required: true,
    schema: { type: 'string', pattern: '^[\\w.:-]{1,128}$' },
  },
  'x-sandbox-fault': {
    description: 'The id of the injected fault that delayed or answered this request (docs/control-api.md#faults)',
    required: false,
    schema: { type: 'string', format: 'uuid' },
  },
  'x-sandbox-warnings': {
    description: 'Body fields the sandbox does not know and ignored: "ignored unknown fields: /a, /b"',
    required: false,
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description: 'Bearer realm="pix-sandbox", with error="invalid_token" and error_description for a bad or expired token',
    required: true,
    schema: { type: 'string', pattern: '^Bearer realm="pix-sandbox"' },
  },
  Allow: {
    description: 'The methods this path has',
    required: true,
    schema: { type: 'string' },
  },
  // rate limits (docs/api.md#rate-limits): on every answer to a client of a tenant with a rateLimit
  'Retry-After': {
    description:
      'Whole seconds until a request may succeed: until a token is back in the rate limit bucket, or what an injected fault says',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Limit': {
    description: "The size of the client's bucket: its tenant's rateLimit.burst (token requests: tokenRequestsPerMinute)",
    required: false,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests the client may still make at once, after this one',
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: "Whole seconds until the client's bucket is full again (0: full)",
    required: false,
    schema: { type: 'integer', minimum: 0 },
  },
};

/** Operations whose client is known, so rate limited when its tenant sets rateLimit (src/http/rate-limit.ts). */
const rateLimited = (op: Operation) => op.auth === 'bearer' || op.auth === 'client';
const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** Paths no fault ever answers, so that faults can always be removed and health checks always answer (src/http/faults.ts). */
const FAULT_EXEMPT = /^\/_sandbox\/(faults(\/\{\w+\})?|health)$/;
const faultable = (op: Operation) => !FAULT_EXEMPT.test(op.path);
/** The control API and the dashboard, health aside: what the cross-site checks guard. */
const CROSS_SITE_CHECKED = /^\/_sandbox\/(?!health$)/;
const readsBody = (op: Operation) => op.body !== undefined && op.auth !== 'client';

const e = (codes: ErrorCode[], when: string): Answer => ({ codes, description: `${codes.join(', ')}: ${when}` });

/** The errors every operation of its kind can answer, beyond its own. */
function commonErrors(op: Operation): [number, Answer][] {
  const out: [number, Answer][] = [];
  const uuidParams = [...op.path.matchAll(/\{(\w+)\}/g)].some((m) => !op.params?.[m[1]!]);
  if (/^\/(v1|pix)\//.test(op.path)) out.push([403, e(['HTTPS_REQUIRED'], 'plain HTTP while the sandbox requires HTTPS')]);
  if (op.auth === 'bearer') {
    out.push([401, e(['UNAUTHORIZED', 'INVALID_TOKEN', 'TOKEN_EXPIRED'], 'no, malformed, invalid or expired access token')]);
    out.push([403, e(['MERCHANT_NOT_ACTIVE'], 'the merchant of the token is not ACTIVE')]);
  }
  if (op.auth === 'admin') {
    out.push([
      401,
      e(
        ['UNAUTHORIZED', 'INVALID_TOKEN', 'TOKEN_EXPIRED'],
        'x-sandbox-admin-token missing or wrong (only when an admin token is configured), or a Bearer token that is malformed, invalid or expired',
      ),
    ]);
    out.push([
      403,
      e(
        ['FORBIDDEN'],
        op.scope === 'sandbox'
          ? "a tenant's access token (this call acts on the whole sandbox: the admin's only), or a merchant's"
          : "a merchant's access token (the control API takes an account's)",
      ),
    ]);
    if (op.scope === 'tenant')
      out.push([404, e(['NOT_FOUND'], "with a tenant's token: an id or accountId of another tenant, as if it did not exist")]);
  }
  if (CROSS_SITE_CHECKED.test(op.path)) {
    // src/http/cross-site.ts, in front of routing (docs/security.md#cross-site-requests)
    out.push([403, e(['FORBIDDEN'], 'a Host the sandbox does not serve, or a request another site’s page sent (Origin, Sec-Fetch-Site)')]);
    out.push([415, e(['UNSUPPORTED_MEDIA_TYPE'], 'a Content-Type other than JSON, even without a body')]);
  }
  if (readsBody(op)) {
    out.push([400, e(['VALIDATION_ERROR', 'INVALID_JSON'], 'every violated rule in details, or a body that is not JSON')]);
    out.push([413, e(['PAYLOAD_TOO_LARGE'], `a body over ${(op.bodyLimitBytes ?? 1024 * 1024) / (1024 * 1024)} MiB`)]);
    out.push([415, e(['UNSUPPORTED_MEDIA_TYPE'], 'a body that is not application/json')]);
  }
  if (op.query) out.push([400, e(['VALIDATION_ERROR'], 'a query parameter is invalid')]);
  if (uuidParams) {
    out.push([400, e(['VALIDATION_ERROR'], 'a path id that is not a UUID')]);
    out.push([404, e(['NOT_FOUND'], 'no such id (or one of another account)')]);
  }
  return out;
}

/** 429 and 5xx: what an injected fault (any code it names) or an unexpected failure answers. */
function failureAnswers(op: Operation): [string, Answer][] {
  if (!faultable(op))
    return [['5XX', { schema: internalErrorSchema, description: 'INTERNAL_ERROR: an unexpected failure (see the sandbox log)' }]];
  const limiter = 'TOO_MANY_REQUESTS from the rate limit of the tenant (its rateLimit setting), or ';
  return [
    [
      '429',
      {
        schema: tooManyRequestsSchema,
        description: `${rateLimited(op) ? limiter : 'Only '}from an injected fault (x-sandbox-fault), with the code it names`,
      },
    ],
    [
      '5XX',
      {
        schema: serverErrorSchema,
        description: 'INTERNAL_ERROR on an unexpected failure (see the sandbox log); any 5xx from an injected fault',
      },
    ],
  ];
}

function merge(into: Record<string, Answer>, status: string, answer: Answer): void {
  const have = into[status];
  if (!have) into[status] = answer;
  else if (have.codes && answer.codes && !have.description.includes(answer.description))
    into[status] = {
      ...have,
      codes: [...new Set([...have.codes, ...answer.codes])],
      description: `${have.description}; ${answer.description}`,
    };
}

/** The operation's answers by status ("200", "5XX"), common errors merged in (codes united, descriptions joined). */
export function answersOf(op: Operation): Record<string, Answer> {
  const all: Record<string, Answer> = {};
  for (const [status, answer] of Object.entries(op.responses)) all[status] = answer;
  for (const [status, answer] of commonErrors(op)) merge(all, String(status), answer);
  for (const [status, answer] of failureAnswers(op)) merge(all, status, answer);
  for (const [status, answer] of Object.entries(all))
    for (const code of answer.codes ?? [])
      if (String(ERROR_STATUS[code]) !== status)
        throw new Error(`${op.method} ${op.path}: ${code} is a ${ERROR_STATUS[code]}, not a ${status}`);
  return all;
}

/** The headers of one answer, by name: a name of COMMON_HEADERS, or the answer's own header object. */
export function headersOf(op: Operation, status: string, answer: Answer): Record<string, string | ResponseHeader> {
  const out: Record<string, string | ResponseHeader> = { 'x-request-id': 'x-request-id' };
  if (faultable(op)) out['x-sandbox-fault'] = 'x-sandbox-fault';
  if (readsBody(op)) out['x-sandbox-warnings'] = 'x-sandbox-warnings';
  if (status === '401' && answer.codes) out['WWW-Authenticate'] = 'WWW-Authenticate';
  if (status === '405') out.Allow = 'Allow';
  if (status === '429' && faultable(op)) out['Retry-After'] = 'Retry-After';
  if (status === '5XX' && faultable(op))
    out['Retry-After'] = {
      ...COMMON_HEADERS['Retry-After']!,
      required: false,
      description: 'What an injected fault says (docs/control-api.md#faults)',
    };
  if (rateLimited(op)) for (const name of RATE_HEADERS) out[name] = name;
  return { ...out, ...answer.headers };
}

/** The methods that answer on a path, as the Allow header lists them (GET brings HEAD). */
export function allowedMethods(ops: readonly Operation[], path: string): string[] {
  const methods = ops.filter((o) => o.path === path).map((o) => o.method.toUpperCase());
  return methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
}
