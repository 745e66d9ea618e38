// Builds the OpenAPI 3.1 document (GET /openapi.json) from the operation table: request schemas
// are the very objects ajv validates requests with, response schemas those the tests check every
// answer against. Errors shared by a kind of operation are added here, once.
import { EVENT_TYPES } from '../domain/events.js';
import { fixturesSchema } from './fixtures.js';
import { OPERATIONS, type Answer, type Operation } from './operations.js';
import * as R from './responses.js';
import type { JsonSchema } from './responses.js';
import * as P from './public.js';
import * as C from './control.js';
import * as W from './webhooks.js';

/** Keywords that only mean something to our ajv set-up; OpenAPI tools would not know them. */
const AJV_ONLY = new Set(['x-immutable']);

/** Schemas shown once under components.schemas and referenced by name. */
const NAMED: Record<string, JsonSchema> = {
  Error: R.errorSchema,
  OAuthError: R.oauthErrorSchema,
  TokenRequest: P.tokenRequestSchema,
  TokenResponse: R.tokenResponseSchema,
  CashInRequest: P.cashInSchema,
  CashInResponse: R.cashInResponseSchema,
  CashOutRequest: P.cashOutSchema,
  CashOutResponse: R.cashOutResponseSchema,
  TransactionLookup: R.lookupResponseSchema,
  Balance: R.balanceResponseSchema,
  MerchantCreateRequest: P.merchantCreateSchema,
  MerchantCreated: R.merchantCreatedSchema,
  MerchantList: R.merchantListSchema,
  Merchant: R.merchantSchema,
  MerchantUpdateRequest: P.merchantPatchSchema,
  MerchantUpdated: R.merchantUpdatedSchema,
  MerchantBalance: R.merchantBalanceSchema,
  ChargeLocation: R.chargeLocationSchema,
  Health: R.healthSchema,
  Clock: R.clockSchema,
  Account: R.accountSchema,
  AccountCreateRequest: C.accountCreateSchema,
  AccountUpdateRequest: C.accountPatchSchema,
  CreditRequest: C.creditSchema,
  Wallet: R.walletSchema,
  ControlMerchant: R.controlMerchantSchema,
  Transaction: R.transactionSchema,
  TransactionDetail: R.transactionDetailSchema,
  Payer: C.payerSchema,
  PixKey: R.pixKeyViewSchema,
  PixKeyRequest: C.pixKeySchema,
  Rule: R.ruleViewSchema,
  RuleRequest: C.ruleInputSchema,
  Fault: R.faultViewSchema,
  FaultRequest: C.faultSchema,
  JournalEntry: R.journalEntrySchema,
  // an inline fixture set is then validated by the fixture schema: the document shows that one
  ResetRequest: { ...C.resetSchema, properties: { fixtures: { oneOf: [C.resetSchema.properties.fixtures.oneOf[0], fixturesSchema] } } },
  ResetResult: R.resetResultSchema,
  Fixtures: fixturesSchema,
  WebhookEndpoint: R.webhookEndpointSchema,
  WebhookEndpointRequest: W.webhookEndpointInputSchema,
  WebhookDelivery: R.deliverySchema,
  WebhookDeliveryDetail: R.deliveryDetailSchema,
  WebhookEvent: R.webhookEventSchema,
  FireRequest: W.fireInputSchema,
  FireResult: R.fireResultSchema,
};
const NAME_OF = new Map<object, string>(Object.entries(NAMED).map(([name, schema]) => [schema, name]));
NAME_OF.set(C.resetSchema, 'ResetRequest');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A deep copy without ajv-only keywords, with every named schema (below the root) as a $ref. */
function clean(value: unknown, root = true): unknown {
  if (Array.isArray(value)) return value.map((v) => clean(v, false));
  if (value === null || typeof value !== 'object') return value;
  const name = NAME_OF.get(value);
  if (name && !root) return ref(name);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!AJV_ONLY.has(k)) out[k] = clean(v, false);
  return out;
}
const schemaOf = (s: JsonSchema) => clean(s, false);

const err = (description: string): Answer => ({ schema: R.errorSchema, description });

/** The errors every operation of its kind can answer, beyond its own. */
function commonErrors(op: Operation): [number, Answer][] {
  const out: [number, Answer][] = [];
  const uuidParams = [...op.path.matchAll(/\{(\w+)\}/g)].filter((m) => !op.params?.[m[1]!]).length > 0;
  if (/^\/(v1|pix)\//.test(op.path)) out.push([403, err('HTTPS_REQUIRED: plain HTTP while the sandbox requires HTTPS')]);
  if (op.auth === 'bearer') {
    out.push([401, err('UNAUTHORIZED (no or malformed Authorization), INVALID_TOKEN, TOKEN_EXPIRED')]);
    out.push([403, err('MERCHANT_NOT_ACTIVE: the merchant of the token is not ACTIVE')]);
  }
  if (op.auth === 'admin')
    out.push([401, err('UNAUTHORIZED: x-sandbox-admin-token missing or wrong (only when an admin token is configured)')]);
  if (op.body && op.auth !== 'client') {
    out.push([400, err('VALIDATION_ERROR (every violated rule in details), INVALID_JSON')]);
    out.push([413, err('PAYLOAD_TOO_LARGE: a body over 1 MiB')]);
    out.push([415, err('UNSUPPORTED_MEDIA_TYPE: a body that is not application/json')]);
  }
  if (op.query) out.push([400, err('VALIDATION_ERROR: a query parameter is invalid')]);
  if (uuidParams) {
    out.push([400, err('VALIDATION_ERROR: a path id that is not a UUID')]);
    out.push([404, err('NOT_FOUND: no such id (or one of another account)')]);
  }
  return out;
}

/** The operation's answers with the common errors merged in (descriptions joined per status). */
export function answersOf(op: Operation): Record<number, Answer> {
  const all: Record<number, Answer> = { ...op.responses };
  for (const [status, answer] of commonErrors(op)) {
    const have = all[status];
    if (!have) all[status] = answer;
    else if (have.schema === answer.schema && !have.description.includes(answer.description))
      all[status] = { ...have, description: `${have.description}; ${answer.description}` };
  }
  return all;
}

function responseObject(a: Answer): Record<string, unknown> {
  if (a.mediaTypes)
    return { description: a.description, content: Object.fromEntries(a.mediaTypes.map((m) => [m, { schema: { type: 'string' } }])) };
  const headers = a.headers
    ? { headers: Object.fromEntries(Object.entries(a.headers).map(([n, h]) => [n, { description: h.description, schema: h.schema }])) }
    : {};
  if (!a.schema) return { description: a.description, ...headers };
  return { description: a.description, ...headers, content: { 'application/json': { schema: schemaOf(a.schema) } } };
}

const SECURITY: Record<Operation['auth'], unknown[]> = {
  bearer: [{ bearerAuth: [] }],
  admin: [{}, { adminToken: [] }],
  client: [{}, { clientBasic: [] }],
  none: [],
};

const operationId = (op: Operation) =>
  op.method +
  op.path
    .replace(/[{}.]/g, '')
    .split(/[/_-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

function operationObject(op: Operation): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name, in: 'path', required: true, schema: clean(op.params?.[name!] ?? P.uuidParam) });
  const q = op.query as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  for (const [name, s] of Object.entries(q?.properties ?? {}))
    parameters.push({ name, in: 'query', required: q?.required?.includes(name) ?? false, schema: schemaOf(s) });
  for (const h of op.headers ?? [])
    parameters.push({ name: h.name, in: 'header', required: h.required, description: h.description, schema: h.schema });
  const body = op.body
    ? {
        required: !op.bodyOptional,
        content: {
          'application/json': { schema: schemaOf(op.body) },
          ...(op.auth === 'client' ? { 'application/x-www-form-urlencoded': { schema: schemaOf(op.body) } } : {}),
        },
      }
    : undefined;
  const responses = Object.fromEntries(Object.entries(answersOf(op)).map(([status, a]) => [status, responseObject(a)]));
  return {
    tags: [op.tag],
    summary: op.summary,
    operationId: operationId(op),
    security: SECURITY[op.auth],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

export function buildOpenApi(opts: { version: string; serverUrl?: string; operations?: Operation[] }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of opts.operations ?? OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  const schemas = Object.fromEntries(Object.entries(NAMED).map(([name, s]) => [name, clean(s)]));
  const signature = 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret>';
  return {
    openapi: '3.1.0',
    info: {
      title: 'pix-sandbox',
      version: opts.version,
      description:
        "A local, stateful simulator of a Brazilian PIX banking API. The public API (/v1, /pix) has the real service's paths and shapes; " +
        'the control API (/_sandbox) forces what the real service decides on its own. Every error outside the token endpoint has the Error shape.',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    tags: [...new Set((opts.operations ?? OPERATIONS).map((o) => o.tag))].map((name) => ({ name })),
    paths,
    webhooks: {
      transactionEvent: {
        post: {
          summary: `What the sandbox POSTs to registered endpoints on each status change (${EVENT_TYPES.join(', ')})`,
          parameters: [
            { name: 'x-sandbox-event-id', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
            { name: 'x-sandbox-signature', in: 'header', required: true, description: signature, schema: { type: 'string' } },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
          responses: { '2XX': { description: 'Delivered (within 5 s); anything else is retried on the backoff schedule' } },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'POST /v1/oauth/token' },
        adminToken: {
          type: 'apiKey',
          in: 'header',
          name: 'x-sandbox-admin-token',
          description: 'Only when the sandbox runs with --admin-token',
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret, as an alternative to the body' },
      },
    },
  };
}
