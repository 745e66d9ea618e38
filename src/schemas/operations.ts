// Every operation of the public and control APIs: which request schema validates it (the same
// objects the routes pass to ajv) and what it answers. src/schemas/openapi.ts turns this table
// into /openapi.json; errors every operation of a kind can answer (401, 413, 415, ...) are added
// there from `auth`, `body` and the path, so this table names only each operation's own.
import {
  accountCreateSchema,
  accountPatchSchema,
  chargePaySchema,
  clockAdvanceSchema,
  creditSchema,
  faultSchema,
  merchantListControlQuerySchema,
  merchantStatusSchema,
  pixKeySchema,
  PIX_PAY_BODY_LIMIT,
  pixPaySchema,
  requestsQuerySchema,
  resetSchema,
  ruleInputSchema,
  transactionListQuerySchema,
  transferFailSchema,
} from './control.js';
import {
  cashInSchema,
  cashOutSchema,
  merchantCreateSchema,
  merchantListQuerySchema,
  merchantPatchSchema,
  tokenRequestSchema,
} from './public.js';
import type { ErrorCode } from '../domain/errors.js';
import { REPLAYED_HEADER } from '../domain/idempotency.js';
import { pageQuerySchema, paged } from './paging.js';
import * as R from './responses.js';
import type { JsonSchema } from './responses.js';
import {
  deliveriesQuerySchema,
  fireInputSchema,
  webhookEndpointInputSchema,
  webhookEndpointListQuerySchema,
  webhookEndpointsQuerySchema,
} from './webhooks.js';
import { WEBHOOK_FAULT_OPERATIONS } from './webhook-fault-operations.js';

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
  /** bearer: an access token; admin: x-sandbox-admin-token when configured; client: the token endpoint; none */
  auth: 'bearer' | 'admin' | 'client' | 'none';
  body?: JsonSchema;
  /** the body may be omitted (control actions with optional data) */
  bodyOptional?: boolean;
  /** a JSON body limit other than the 1 MiB of every other route */
  bodyLimitBytes?: number;
  query?: JsonSchema;
  /** path parameters that are not UUIDs (UUIDs are the default) */
  params?: Record<string, JsonSchema>;
  headers?: { name: string; required: boolean; description: string; schema: JsonSchema }[];
  responses: Record<number, Answer>;
}

const ok = (schema: JsonSchema, description = 'OK'): Answer => ({ schema, description });
const created = (schema: JsonSchema, description = 'Created'): Answer => ({ schema, description });
/** An error answer: the codes this operation answers at that status (src/domain/errors.ts gives each code's status), and when. */
const e = (code: ErrorCode | ErrorCode[], when?: string): Answer => {
  const codes = Array.isArray(code) ? code : [code];
  return { codes, description: when ? `${codes.join(', ')}: ${when}` : codes.join(', ') };
};
const noContent: Answer = { description: 'Done (no body)' };
const header = (description: string, schema: JsonSchema): ResponseHeader => ({ description, required: true, schema });
const noStore = { 'Cache-Control': header('Tokens are never cached', { const: 'no-store' }) };
const revalidate = { 'Cache-Control': header('Asked again on each use', { const: 'no-cache' }) };
const dashboardFile = {
  ...revalidate,
  'X-Content-Type-Options': header('The declared type is the type', { const: 'nosniff' }),
  'Referrer-Policy': header('No referrer leaves the dashboard', { const: 'no-referrer' }),
};
const list = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

const NOT_FOUND = e('NOT_FOUND', 'no such resource');
const INVALID_STATE = e('INVALID_STATE', 'the current state forbids this transition (nothing changed)');
const INSUFFICIENT = e('INSUFFICIENT_FUNDS', 'the balance would go below zero (nothing changed)');

const B = 'Banking';
const M = 'Merchants';
export const PUBLIC_OPERATIONS: Operation[] = [
  {
    method: 'post',
    path: '/v1/oauth/token',
    tag: 'OAuth',
    auth: 'client',
    summary: 'Issue an access token (client_credentials; JSON or form body, or HTTP Basic)',
    body: tokenRequestSchema,
    bodyOptional: true,
    responses: {
      200: {
        ...ok(R.tokenResponseSchema, 'A bearer token valid 300 seconds (by the sandbox clock)'),
        headers: { ...noStore, Pragma: header('For HTTP/1.0 caches (RFC 6749 §5.1)', { const: 'no-cache' }) },
      },
      400: {
        schema: R.oauthErrorSchema,
        description: 'RFC 6749 §5.2: invalid_request, unsupported_grant_type, unauthorized_client (merchant not ACTIVE)',
        headers: noStore,
      },
      401: {
        schema: R.oauthErrorSchema,
        description: 'RFC 6749 §5.2: invalid_client',
        headers: {
          ...noStore,
          'WWW-Authenticate': header('Basic realm="pix-sandbox" when the client authenticated with HTTP Basic, else Bearer realm', {
            type: 'string',
            enum: ['Basic realm="pix-sandbox"', 'Bearer realm="pix-sandbox"'],
          }),
        },
      },
    },
  },
  {
    method: 'post',
    path: '/v1/banking/cash-in/pix',
    tag: B,
    auth: 'bearer',
    summary: 'Create a PIX charge (cash-in)',
    body: cashInSchema,
    responses: {
      201: created(R.cashInResponseSchema, 'The charge, WAITING_PAYMENT, with its copy-and-paste code and QR image'),
      403: e('SPLIT_NOT_ENABLED'),
      422: e(['SPLIT_EXCEEDS_AMOUNT', 'WALLET_NOT_FOUND', 'WALLET_NOT_ACTIVE']),
    },
  },
  {
    method: 'post',
    path: '/v1/banking/cash-out/pix',
    tag: B,
    auth: 'bearer',
    summary: 'Create a PIX transfer (cash-out)',
    body: cashOutSchema,
    headers: [
      {
        name: 'x-idempotency-key',
        required: true,
        description: 'A UUID; the same key with the same body replays the first answer',
        schema: { type: 'string', format: 'uuid' },
      },
    ],
    responses: {
      201: {
        ...created(R.cashOutResponseSchema, 'The transfer, PROCESSING (a replay answers the first answer again)'),
        headers: {
          [REPLAYED_HEADER]: {
            description: 'Only on a replay: the first answer to this key and body, again',
            required: false,
            schema: { const: 'true' },
          },
        },
      },
      400: e(['MISSING_IDEMPOTENCY_KEY', 'INVALID_IDEMPOTENCY_KEY'], 'the x-idempotency-key header is missing or not a UUID'),
      422: e(['INSUFFICIENT_FUNDS', 'IDEMPOTENCY_KEY_REUSED']),
    },
  },
  {
    method: 'get',
    path: '/v1/banking/transactions/{transactionId}',
    tag: B,
    auth: 'bearer',
    summary: 'Look up a transaction',
    responses: { 200: ok(R.lookupResponseSchema) },
  },
  {
    method: 'get',
    path: '/v1/banking/balance',
    tag: B,
    auth: 'bearer',
    summary: "The principal's balance (account main balance, or a merchant's main wallet)",
    responses: { 200: ok(R.balanceResponseSchema) },
  },
  {
    method: 'post',
    path: '/v1/merchants',
    tag: M,
    auth: 'bearer',
    summary: 'Create a merchant (account token)',
    body: merchantCreateSchema,
    responses: { 201: created(R.merchantCreatedSchema), 403: e('FORBIDDEN', 'a merchant token'), 409: e('DOCUMENT_ALREADY_REGISTERED') },
  },
  {
    method: 'get',
    path: '/v1/merchants',
    tag: M,
    auth: 'bearer',
    summary: 'List merchants (account token)',
    query: merchantListQuerySchema,
    responses: { 200: ok(R.merchantListSchema), 403: e('FORBIDDEN', 'a merchant token') },
  },
  {
    method: 'get',
    path: '/v1/merchants/balance',
    tag: M,
    auth: 'bearer',
    summary: "The authenticated merchant's main wallet balance (merchant token)",
    responses: { 200: ok(R.merchantBalanceSchema), 403: e('FORBIDDEN', 'an account token') },
  },
  {
    method: 'get',
    path: '/v1/merchants/{merchantId}',
    tag: M,
    auth: 'bearer',
    summary: 'Read a merchant with its wallets (account token)',
    responses: { 200: ok(R.merchantSchema), 403: e('FORBIDDEN', 'a merchant token') },
  },
  {
    method: 'patch',
    path: '/v1/merchants/{merchantId}',
    tag: M,
    auth: 'bearer',
    summary: 'Update a merchant: name, email, phone (account token)',
    body: merchantPatchSchema,
    responses: {
      200: ok(R.merchantUpdatedSchema),
      403: e('FORBIDDEN', 'a merchant token'),
      405: e('METHOD_NOT_ALLOWED', 'the merchantId "balance": that path is GET /v1/merchants/balance'),
    },
  },
  {
    method: 'get',
    path: '/pix/qr/v2/{id}',
    tag: 'Charge location',
    auth: 'none',
    summary: "A charge's location (the URL inside its BR Code), as a payer's bank reads it",
    responses: { 200: ok(R.chargeLocationSchema), 404: NOT_FOUND },
  },
];

const C = (name: string) => `Control: ${name}`;
const adminOp = (o: Omit<Operation, 'auth'>): Operation => ({ ...o, auth: 'admin' });
const ruleId = { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,64}$' };

export const CONTROL_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/_sandbox/health',
    tag: C('sandbox'),
    auth: 'none',
    summary: 'Readiness (open even with an admin token): 200 once listening, store open and fixtures loaded',
    responses: { 200: ok(R.healthSchema, 'ready'), 503: ok(R.healthSchema, 'starting or stopping: not ready') },
  },
  adminOp({
    method: 'post',
    path: '/_sandbox/reset',
    tag: C('sandbox'),
    summary: 'Back to the fixtures (or another set: a shipped name or an inline fixture object)',
    body: resetSchema,
    bodyOptional: true,
    responses: { 200: ok(R.resetResultSchema) },
  }),
  adminOp({ method: 'get', path: '/_sandbox/clock', tag: C('clock'), summary: 'The sandbox clock', responses: { 200: ok(R.clockSchema) } }),
  adminOp({
    method: 'post',
    path: '/_sandbox/clock/advance',
    tag: C('clock'),
    summary: 'Advance the clock and run everything that fell due',
    body: clockAdvanceSchema,
    responses: { 200: ok(R.clockSchema) },
  }),

  adminOp({
    method: 'get',
    path: '/_sandbox/accounts',
    tag: C('accounts'),
    summary: 'Every account, oldest first (pages of up to 1,000)',
    query: pageQuerySchema,
    responses: { 200: paged(R.accountSchema) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/accounts',
    tag: C('accounts'),
    summary: 'Create an isolated account (its client_secret is shown this once)',
    body: accountCreateSchema,
    responses: { 201: created(R.accountSchema) },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/accounts/{id}',
    tag: C('accounts'),
    summary: 'One account',
    responses: { 200: ok(R.accountSchema) },
  }),
  adminOp({
    method: 'patch',
    path: '/_sandbox/accounts/{id}',
    tag: C('accounts'),
    summary: "Change an account's settings",
    body: accountPatchSchema,
    responses: { 200: ok(R.accountSchema) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/accounts/{id}/credit',
    tag: C('accounts'),
    summary: "Move money into (or, negative, out of) an account's main balance",
    body: creditSchema,
    responses: { 200: ok(R.accountSchema), 422: INSUFFICIENT },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/wallets/{walletId}',
    tag: C('accounts'),
    summary: 'One merchant wallet',
    responses: { 200: ok(R.walletSchema) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/wallets/{walletId}/credit',
    tag: C('accounts'),
    summary: 'Move money into (or out of) a wallet',
    body: creditSchema,
    responses: { 200: ok(R.walletSchema), 422: INSUFFICIENT },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/merchants',
    tag: C('accounts'),
    summary: "Every account's merchants, with wallets, oldest first (pages of up to 1,000)",
    query: merchantListControlQuerySchema,
    responses: { 200: paged(R.controlMerchantSchema) },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/merchants/{id}',
    tag: C('accounts'),
    summary: 'One merchant',
    responses: { 200: ok(R.controlMerchantSchema) },
  }),
  adminOp({
    method: 'patch',
    path: '/_sandbox/merchants/{id}',
    tag: C('accounts'),
    summary: "Set a merchant's status",
    body: merchantStatusSchema,
    responses: { 200: ok(R.controlMerchantSchema), 409: INVALID_STATE },
  }),

  adminOp({
    method: 'get',
    path: '/_sandbox/transactions',
    tag: C('transactions'),
    summary: 'Transactions, newest first (by creation), a page at a time',
    query: transactionListQuerySchema,
    responses: { 200: paged(R.transactionSchema) },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/transactions/{id}',
    tag: C('transactions'),
    summary: 'One transaction with its QR image, ledger entries and events',
    responses: { 200: ok(R.transactionDetailSchema) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/charges/{id}/pay',
    tag: C('transactions'),
    summary: 'Pay a charge now (WAITING_PAYMENT → PAID)',
    body: chargePaySchema,
    bodyOptional: true,
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/charges/{id}/expire',
    tag: C('transactions'),
    summary: 'Expire a charge now',
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/charges/{id}/cancel',
    tag: C('transactions'),
    summary: 'Cancel a charge',
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/pix/pay',
    tag: C('transactions'),
    summary: 'Pay whichever charge a copy-and-paste code, or the QR code in an image (PNG or JPEG), belongs to',
    body: pixPaySchema,
    bodyLimitBytes: PIX_PAY_BODY_LIMIT,
    responses: {
      200: ok(R.transactionSchema, 'The charge, PAID (the same answer and events as POST /_sandbox/charges/{id}/pay)'),
      400: e(
        'VALIDATION_ERROR',
        'neither or both of pixCode and qrImage; a code that is not a dynamic PIX charge code; qrImage not base64, ' +
          'not a PNG or JPEG, an image that cannot be decoded, or one in which no QR code is found (nothing changed)',
      ),
      404: e('NOT_FOUND', 'the code (typed or read from the image) leads to no charge of this sandbox (nothing changed)'),
      409: INVALID_STATE,
      413: e('PAYLOAD_TOO_LARGE', 'qrImage over 5 MiB decoded or over 40 million pixels (nothing changed)'),
    },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/transfers/{id}/complete',
    tag: C('transactions'),
    summary: 'Complete a transfer now, whatever the key directory says',
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/transfers/{id}/fail',
    tag: C('transactions'),
    summary: 'Fail a transfer now with a code and message (the amount goes back)',
    body: transferFailSchema,
    responses: { 200: ok(R.transactionSchema), 409: INVALID_STATE },
  }),

  adminOp({
    method: 'get',
    path: '/_sandbox/pix-keys',
    tag: C('pix keys'),
    summary: 'The PIX key directory, oldest first (pages of up to 1,000)',
    query: pageQuerySchema,
    responses: { 200: paged(R.pixKeyViewSchema) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/pix-keys',
    tag: C('pix keys'),
    summary: 'Add a key (201) or replace its entry (200)',
    body: pixKeySchema,
    responses: { 200: ok(R.pixKeyViewSchema, 'Replaced'), 201: created(R.pixKeyViewSchema) },
  }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/pix-keys',
    tag: C('pix keys'),
    summary: 'Clear the directory',
    responses: { 204: noContent },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/pix-keys/{key}',
    tag: C('pix keys'),
    summary: 'One key',
    params: { key: { type: 'string' } },
    responses: { 200: ok(R.pixKeyViewSchema), 404: NOT_FOUND },
  }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/pix-keys/{key}',
    tag: C('pix keys'),
    summary: 'Remove one key',
    params: { key: { type: 'string' } },
    responses: { 204: noContent, 404: NOT_FOUND },
  }),

  adminOp({
    method: 'get',
    path: '/_sandbox/rules',
    tag: C('rules'),
    summary: 'Outcome rules, in evaluation order',
    responses: { 200: ok(list(R.ruleViewSchema)) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/rules',
    tag: C('rules'),
    summary: 'Append a rule (201) or replace the rule of the same id (200)',
    body: ruleInputSchema,
    responses: { 200: ok(R.ruleViewSchema, 'Replaced'), 201: created(R.ruleViewSchema) },
  }),
  adminOp({ method: 'delete', path: '/_sandbox/rules', tag: C('rules'), summary: 'Remove every rule', responses: { 204: noContent } }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/rules/{id}',
    tag: C('rules'),
    summary: 'Remove one rule',
    params: { id: ruleId },
    responses: { 204: noContent, 400: e('VALIDATION_ERROR', 'not a rule id'), 404: NOT_FOUND },
  }),

  adminOp({
    method: 'get',
    path: '/_sandbox/webhooks',
    tag: C('webhooks'),
    summary: 'Webhook endpoints (secrets included), oldest first (pages of up to 1,000)',
    query: webhookEndpointListQuerySchema,
    responses: { 200: paged(R.webhookEndpointSchema) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/webhooks',
    tag: C('webhooks'),
    summary: 'Register an endpoint',
    body: webhookEndpointInputSchema,
    responses: { 201: created(R.webhookEndpointSchema), 404: e('NOT_FOUND', 'no such account') },
  }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/webhooks',
    tag: C('webhooks'),
    summary: 'Remove every endpoint (or one account’s)',
    query: webhookEndpointsQuerySchema,
    responses: { 204: noContent },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/webhooks/deliveries',
    tag: C('webhooks'),
    summary: 'The delivery log, newest first (by creation), a page at a time',
    query: deliveriesQuerySchema,
    responses: { 200: paged(R.deliverySchema) },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/webhooks/deliveries/{id}',
    tag: C('webhooks'),
    summary: 'One delivery with the body its attempts send',
    responses: { 200: ok(R.deliveryDetailSchema) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/webhooks/deliveries/{id}/redeliver',
    tag: C('webhooks'),
    summary: 'Redeliver: a new delivery for a finished one (201), or the next attempt now (200)',
    responses: {
      200: ok(R.deliverySchema),
      201: created(R.deliverySchema),
      409: e('INVALID_STATE', 'its endpoint was deleted or its event pruned'),
    },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/webhooks/fire',
    tag: C('webhooks'),
    summary: 'Send an event for a transaction now',
    body: fireInputSchema,
    responses: { 201: created(R.fireResultSchema), 404: NOT_FOUND },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/webhooks/{id}',
    tag: C('webhooks'),
    summary: 'One endpoint',
    responses: { 200: ok(R.webhookEndpointSchema) },
  }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/webhooks/{id}',
    tag: C('webhooks'),
    summary: 'Remove one endpoint (its waiting deliveries become DEAD)',
    responses: { 204: noContent },
  }),
  ...WEBHOOK_FAULT_OPERATIONS,

  adminOp({
    method: 'get',
    path: '/_sandbox/requests',
    tag: C('diagnostics'),
    summary: 'The journal of recent API requests, newest first (secrets redacted)',
    query: requestsQuerySchema,
    responses: { 200: ok(list(R.journalEntrySchema)) },
  }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/requests',
    tag: C('diagnostics'),
    summary: 'Empty the journal',
    responses: { 204: noContent },
  }),
  adminOp({
    method: 'get',
    path: '/_sandbox/faults',
    tag: C('diagnostics'),
    summary: 'Injected faults',
    responses: { 200: ok(list(R.faultViewSchema)) },
  }),
  adminOp({
    method: 'post',
    path: '/_sandbox/faults',
    tag: C('diagnostics'),
    summary: 'Inject a fault (an error status, a latency, or both)',
    body: faultSchema,
    responses: { 201: created(R.faultViewSchema) },
  }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/faults',
    tag: C('diagnostics'),
    summary: 'Remove every fault',
    responses: { 204: noContent },
  }),
  adminOp({
    method: 'delete',
    path: '/_sandbox/faults/{id}',
    tag: C('diagnostics'),
    summary: 'Remove one fault',
    responses: { 204: noContent },
  }),

  {
    method: 'get',
    path: '/_sandbox/ui',
    tag: C('dashboard'),
    auth: 'none',
    summary: 'The dashboard page',
    responses: {
      200: {
        description: 'HTML',
        mediaTypes: ['text/html'],
        headers: { ...dashboardFile, 'Content-Security-Policy': header('The page talks only to its own origin', { type: 'string' }) },
      },
    },
  },
  {
    method: 'get',
    path: '/_sandbox/ui/{file}',
    tag: C('dashboard'),
    auth: 'none',
    summary: "The dashboard's scripts and styles",
    params: { file: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*\\.(js|css|svg)$' } },
    responses: {
      200: { description: 'JavaScript, CSS or SVG', mediaTypes: ['text/javascript', 'text/css', 'image/svg+xml'], headers: dashboardFile },
      404: NOT_FOUND,
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: C('sandbox'),
    auth: 'none',
    summary: 'This document',
    responses: { 200: { ...ok(R.openApiDocumentSchema), headers: revalidate } },
  },
];

export const OPERATIONS: Operation[] = [...PUBLIC_OPERATIONS, ...CONTROL_OPERATIONS];
