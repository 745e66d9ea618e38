// Every error code of the sandbox, declared once with its HTTP status (docs/api.md#error-codes).
// /openapi.json lists, per operation and status, the codes it answers (the operation table, src/operations.ts, and
// src/schemas/openapi-answers.ts), each checked against its status here when the document is built.
// IDEMPOTENCY_KEY_IN_USE is reserved: a duplicate cash-out in flight waits and replays instead.
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  MISSING_IDEMPOTENCY_KEY: 400,
  INVALID_IDEMPOTENCY_KEY: 400,
  UNAUTHORIZED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  SPLIT_NOT_ENABLED: 403,
  MERCHANT_NOT_ACTIVE: 403,
  HTTPS_REQUIRED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  DOCUMENT_ALREADY_REGISTERED: 409,
  INVALID_STATE: 409,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  VERIFICATION_FAILED: 422,
  INSUFFICIENT_FUNDS: 422,
  SPLIT_EXCEEDS_AMOUNT: 422,
  WALLET_NOT_FOUND: 422,
  WALLET_NOT_ACTIVE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  BUSY: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The Retry-After (seconds) of a 503 BUSY: the sandbox's image decoders are full (docs/control-api.md#paying-a-code). */
export const BUSY_RETRY_AFTER_SECONDS = 1;

export interface ErrorDetail {
  path: string;
  message: string;
}

/** A failure the client caused or asked for; the error middleware turns it into the shape of docs/api.md#errors. */
export class SandboxError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details: ErrorDetail[] = [],
    status?: number,
  ) {
    super(message);
    this.status = status ?? ERROR_STATUS[code as ErrorCode] ?? 400;
  }
}

export const notFound = (what: string): SandboxError => new SandboxError('NOT_FOUND', `${what} was not found`);
