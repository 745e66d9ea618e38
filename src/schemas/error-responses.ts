// JSON Schemas of the error answers (docs/api.md#errors): the one error shape, an operation's error
// at one status with its codes, and the token endpoint's own (RFC 6749 §5.2).
import { OAUTH_ERROR_CODES } from '../domain/vocabulary.js';
import { arrayOf, obj, oneOfWords, str } from './helpers.js';

export const errorDetailSchema = obj({ path: str, message: str });
const anyCode = { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' } as const;
/** Any error answer of the sandbox (docs/api.md#errors): what an injected fault answers on any path. */
export const errorSchema = obj({
  statusCode: { type: 'integer', minimum: 400, maximum: 599 },
  message: str,
  error: obj({ code: anyCode, details: arrayOf(errorDetailSchema) }),
});
// Every 5xx by name, not as a range: a generated client then narrows an error on its statusCode
// (a 422's codes are not mixed with a 5xx's, whose code can be anything a fault names).
const anyServerStatus = { type: 'integer', enum: Array.from({ length: 100 }, (_, i) => 500 + i) } as const;
/**
 * One operation's error answer at one status: `statusCode` that status (null: any 5xx) and
 * `error.code` one of `codes` (null: any code, as an injected fault may carry).
 */
export function errorAnswerSchema(status: number | null, codes: readonly string[] | null, codeNote?: string) {
  const code = codes ? ({ type: 'string', enum: [...codes] } as const) : anyCode;
  return obj({
    statusCode: status === null ? anyServerStatus : { const: status },
    message: str,
    error: obj({ code: codeNote ? { ...code, description: codeNote } : code, details: arrayOf(errorDetailSchema) }),
  });
}
const fault = 'the code an injected fault names (with x-sandbox-fault)';
/** 429: the rate limiter (TOO_MANY_REQUESTS), or an injected fault. */
export const tooManyRequestsSchema = errorAnswerSchema(429, null, `TOO_MANY_REQUESTS (the rate limit), or ${fault}`);
/** Any 5xx where a fault can answer: INTERNAL_ERROR on an unexpected failure, or the fault's code. */
export const serverErrorSchema = errorAnswerSchema(null, null, `INTERNAL_ERROR on an unexpected failure, or ${fault}`);
/** Any 5xx where no fault reaches: INTERNAL_ERROR only. */
export const internalErrorSchema = errorAnswerSchema(null, ['INTERNAL_ERROR']);
/** RFC 6749 §5.2, the token endpoint's own error shape. */
export const oauthErrorSchema = obj({ error: oneOfWords(OAUTH_ERROR_CODES), error_description: str }, ['error_description']);
