// What one operation of the public or control API is, as the OpenAPI document and the validation
// read it: method, path, request schemas and every answer. The entries themselves live beside their
// handlers (src/api/*.ts, src/control/*.ts: see src/http/operations.ts); this file holds only their
// shape and the helpers that write answers briefly. Errors every operation of a kind can answer
// (401, 413, 415, ...) are added by ./openapi-answers.ts from `auth`, `body` and the path, so an
// entry names only its own.
import type { ErrorCode } from '../domain/errors.js';
import type { BodyCheck } from './checks.js';
import type { JsonSchema } from './helpers.js';

/** Who may make a control call: a tenant for its own records, or only the operator (docs/control-api.md#self-service-control). */
export type ControlScope = 'tenant' | 'sandbox';

export interface ResponseHeader {
  description: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Answer {
  description: string;
  /** JSON body schema; absent for an empty body (and for an error answer, whose schema comes from `codes`) */
  schema?: JsonSchema;
  /** media types other than application/json (the body is then not JSON) */
  mediaTypes?: string[];
  /** an error answer in the sandbox's shape: the codes it can carry */
  codes?: ErrorCode[];
  /** headers of this answer beyond those src/schemas/openapi-answers.ts gives every answer of its kind */
  headers?: Record<string, ResponseHeader>;
}

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI path template, e.g. /v1/merchants/{merchantId} */
  path: string;
  tag: string;
  summary: string;
  /** bearer: an access token; admin: a control call (x-sandbox-admin-token when configured, or a tenant's token); client: the token endpoint; none */
  auth: 'bearer' | 'admin' | 'client' | 'none';
  /**
   * A control call's reach (docs/control-api.md#self-service-control): `tenant` works with a tenant's
   * token, confined to that tenant's records; `sandbox` acts on the whole sandbox and is the operator's
   * only (403 with a tenant's token). Every control entry declares it.
   */
  scope?: ControlScope;
  /** the request body's schema: the router parses a JSON body only where there is one, and validates with it */
  body?: JsonSchema;
  /** rules beyond `body` that a schema cannot say, checked with it (./checks.ts) */
  check?: BodyCheck;
  /** the body may be omitted (control actions with optional data) */
  bodyOptional?: boolean;
  /** a JSON body limit other than the 1 MiB of every other route */
  bodyLimitBytes?: number;
  /** the query string's schema (coerced): the router validates it before the handler runs */
  query?: JsonSchema;
  /** path parameters that are not UUIDs (UUIDs are the default) */
  params?: Record<string, JsonSchema>;
  headers?: { name: string; required: boolean; description: string; schema: JsonSchema }[];
  responses: Record<number, Answer>;
}

export const ok = (schema: JsonSchema, description = 'OK'): Answer => ({ schema, description });
export const created = (schema: JsonSchema, description = 'Created'): Answer => ({ schema, description });
/** An error answer: the codes this operation answers at that status (src/domain/errors.ts gives each code's status), and when. */
export const e = (code: ErrorCode | ErrorCode[], when?: string): Answer => {
  const codes = Array.isArray(code) ? code : [code];
  return { codes, description: when ? `${codes.join(', ')}: ${when}` : codes.join(', ') };
};
export const noContent: Answer = { description: 'Done (no body)' };
export const header = (description: string, schema: JsonSchema): ResponseHeader => ({ description, required: true, schema });
export const noStore = { 'Cache-Control': header('Tokens are never cached', { const: 'no-store' }) };
export const revalidate = { 'Cache-Control': header('Asked again on each use', { const: 'no-cache' }) };
export const list = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

export const NOT_FOUND = e('NOT_FOUND', 'no such resource');
export const INVALID_STATE = e('INVALID_STATE', 'the current state forbids this transition (nothing changed)');
export const INSUFFICIENT = e('INSUFFICIENT_FUNDS', 'the balance would go below zero (nothing changed)');

/** The tag of a control operation in /openapi.json (src/schemas/openapi.ts describes each). */
export const controlTag = (name: string) => `Control: ${name}`;
