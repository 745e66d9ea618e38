// Builds the OpenAPI 3.1 document (GET /openapi.json) from the operation table (src/operations.ts): request schemas
// are the very objects ajv validates requests with, response schemas those the tests check every
// answer against. What an operation answers beyond its own entry (shared errors, faults, headers)
// comes from ./openapi-answers.ts. Where a validated schema says something in a way OpenAPI tools
// cannot read, the document shows it translated here, never written a second time.
import { EVENT_TYPES } from '../domain/events.js';
import { fixturesSchema } from './fixtures.js';
import { allowedMethods, answersOf, COMMON_HEADERS, headersOf } from './openapi-answers.js';
import type { Answer, Operation } from './operation.js';
import * as R from './responses.js';
import { uuidParam, type JsonSchema } from './helpers.js';
import * as P from './public.js';
import * as C from './control.js';
import * as S from './control-sandbox.js';
import * as W from './webhooks.js';

/** Keywords that only mean something to our ajv set-up; OpenAPI tools would not know them. */
const AJV_ONLY = new Set(['x-immutable']);

/** Schemas shown once under components.schemas and referenced by name. */

const NAMED: Record<string, JsonSchema> = {
  ErrorDetail: R.errorDetailSchema,
  TooManyRequests: R.tooManyRequestsSchema,
  ServerError: R.serverErrorSchema,
  InternalError: R.internalErrorSchema,
  OAuthError: R.oauthErrorSchema,
  TokenRequest: P.tokenRequestSchema,
  TokenResponse: R.tokenResponseSchema,
  CashInRequest: P.cashInSchema,
  CashInResponse: R.cashInResponseSchema,
  CashOutRequest: P.cashOutSchema,
  CashOutResponse: R.cashOutResponseSchema,
  TransactionLookup: R.lookupResponseSchema,
  LookupWaitingPayment: R.lookupWaitingSchema,
  LookupProcessing: R.lookupProcessingSchema,
  LookupPaidCharge: R.lookupPaidChargeSchema,
  LookupCompletedTransfer: R.lookupCompletedTransferSchema,
  LookupFailed: R.lookupFailedSchema,
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
  RuleRequest: C.ruleCreateSchema,
  Fault: R.faultViewSchema,
  FaultRequest: S.faultSchema,
  JournalEntry: R.journalEntrySchema,
  // an inline fixture set is then validated by the fixture schema: the document shows that one
  ResetRequest: { ...S.resetSchema, properties: { fixtures: { oneOf: [S.resetSchema.properties.fixtures.oneOf[0], fixturesSchema] } } },
  ResetResult: R.resetResultSchema,
  Fixtures: fixturesSchema,
  Snapshot: R.snapshotSchema,
  SnapshotRequest: S.snapshotSaveSchema,
  WebhookEndpoint: R.webhookEndpointSchema,
  WebhookEndpointRequest: W.webhookEndpointInputSchema,
  WebhookDelivery: R.deliverySchema,
  WebhookDeliveryDetail: R.deliveryDetailSchema,
  WebhookEvent: R.webhookEventSchema,
  FireRequest: W.fireInputSchema,
  FireResult: R.fireResultSchema,
};
const NAME_OF = new Map<object, string>(Object.entries(NAMED).map(([name, schema]) => [schema, name]));
NAME_OF.set(S.resetSchema, 'ResetRequest');
NAME_OF.set(fixturesSchema, 'Fixtures');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * An immutable field is `not: {}` with its own message for ajv (so that sending it names it); in the
 * document it is `false`, the same rule in the form generators read: a generated client refuses it.
 */
function immutableAsFalse(schema: object): object {
  const props = (schema as { properties?: Record<string, Record<string, unknown>> }).properties;
  const fixed = Object.entries(props ?? {}).filter(([, p]) => p['x-immutable'] === true);
  if (fixed.length === 0) return schema;
  const refused = fixed.map(([k, p]) => `${k} ${String(p['x-message'])}`).join('; ');
  return {
    ...schema,
    description: `Sending one of these fields is a 400 VALIDATION_ERROR: ${refused}.`,
    properties: Object.fromEntries(Object.entries(props!).map(([k, p]) => [k, p['x-immutable'] === true ? false : p])),
  };
}

/** ajv fills a default in before it checks `required` (useDefaults): a field with a default may be left out. */
function defaultsOptional(schema: object): object {
  const { required, properties } = schema as { required?: string[]; properties?: Record<string, object> };
  if (!required || !properties) return schema;
  const optional = (k: string) => properties[k] !== undefined && 'default' in properties[k];
  return required.some(optional) ? { ...schema, required: required.filter((k) => !optional(k)) } : schema;
}

/** A deep copy without ajv-only keywords, with every named schema (below the root) as a $ref. */
function clean(value: unknown, root = true): unknown {
  if (Array.isArray(value)) return value.map((v) => clean(v, false));
  if (value === null || typeof value !== 'object') return value;
  const name = NAME_OF.get(value);
  if (name && !root) return ref(name);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(defaultsOptional(immutableAsFalse(value)))) if (!AJV_ONLY.has(k)) out[k] = clean(v, false);
  return out;
}
const schemaOf = (s: JsonSchema) => clean(s, false);

function responseObject(op: Operation, status: string, a: Answer): Record<string, unknown> {
  const headers = Object.fromEntries(
    Object.entries(headersOf(op, status, a)).map(([name, h]) => [name, typeof h === 'string' ? { $ref: `#/components/headers/${h}` } : h]),
  );
  const schema = a.codes ? R.errorAnswerSchema(Number(status), a.codes) : a.schema;
  const content = a.mediaTypes
    ? Object.fromEntries(a.mediaTypes.map((m) => [m, { schema: { type: 'string' } }]))
    : schema
      ? { 'application/json': { schema: schemaOf(schema) } }
      : undefined;
  return { description: a.description, headers, ...(content ? { content } : {}) };
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

/**
 * The request body of an operation. A named body schema is shown under components.requestBodies,
 * inline there: generators read a `default` inside a request body as "may be omitted" (and inside
 * components.schemas as "always present", which would make a client send `expiration`).
 */
function requestBodyOf(op: Operation, requestBodies: Record<string, unknown>): unknown {
  if (!op.body) return undefined;
  const name = NAME_OF.get(op.body);
  const schema = clean(name ? NAMED[name] : op.body);
  const body = {
    required: !op.bodyOptional,
    content: {
      'application/json': { schema },
      ...(op.auth === 'client' ? { 'application/x-www-form-urlencoded': { schema } } : {}),
    },
  };
  if (!name) return body;
  requestBodies[name] = body;
  return { $ref: `#/components/requestBodies/${name}` };
}

function operationObject(op: Operation, requestBodies: Record<string, unknown>): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name, in: 'path', required: true, schema: clean(op.params?.[name!] ?? uuidParam) });
  const q = op.query as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  for (const [name, s] of Object.entries(q?.properties ?? {}))
    parameters.push({ name, in: 'query', required: q?.required?.includes(name) ?? false, schema: schemaOf(s) });
  for (const h of op.headers ?? [])
    parameters.push({ name: h.name, in: 'header', required: h.required, description: h.description, schema: h.schema });
  const body = requestBodyOf(op, requestBodies);
  const responses = Object.fromEntries(Object.entries(answersOf(op)).map(([status, a]) => [status, responseObject(op, status, a)]));
  return {
    tags: [op.tag],
    summary: op.summary,
    operationId: operationId(op),
    // a tenant's access token reaches the tenant-scoped control calls, within its tenant (docs/control-api.md#self-service-control)
    security: op.auth === 'admin' && op.scope === 'tenant' ? [...SECURITY.admin, { bearerAuth: [] }] : SECURITY[op.auth],
    ...(op.scope ? { 'x-sandbox-scope': op.scope } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

const TAGS: Record<string, string> = {
  OAuth: 'Access tokens (docs/api.md#tokens)',
  Banking: 'Charges (cash-in), transfers (cash-out), lookups and balances (docs/api.md)',
  Merchants: 'Merchants of an account and their wallets (docs/api.md#merchants)',
  'Charge location': "What a payer's bank reads at the URL inside a charge's BR Code (docs/api.md#the-charge-location)",
  'Control: sandbox': 'Health, reset and this document (docs/control-api.md)',
  'Control: snapshots':
    "Named snapshots of a tenant's whole world or of the whole sandbox: save, restore, export (docs/control-api.md#snapshots)",
  'Control: clock': 'The sandbox clock (docs/control-api.md#clock)',
  'Control: accounts': 'Accounts, wallets and merchants as the operator sees them (docs/control-api.md#accounts, #merchants-and-wallets)',
  'Control: transactions':
    'Transactions, and the actions that decide their outcome (docs/control-api.md#transactions, #charges-and-transfers, #paying-a-code)',
  'Control: pix keys': 'The PIX key directory transfers are settled against (docs/control-api.md#pix-key-directory)',
  'Control: rules': 'Outcome rules (docs/control-api.md#outcome-rules)',
  'Control: webhooks': 'Webhook endpoints and deliveries (docs/webhooks.md)',
  'Control: diagnostics': 'The request journal and injected faults (docs/control-api.md#request-journal, #faults)',
  'Control: dashboard': 'The dashboard page (docs/dashboard.md)',
};

/** The document of `operations` (the table of src/operations.ts). */
export function buildOpenApi(opts: { version: string; serverUrl?: string; operations: readonly Operation[] }): Record<string, unknown> {
  const ops = opts.operations;
  const paths: Record<string, Record<string, unknown>> = {};
  const requestBodies: Record<string, unknown> = {};
  for (const op of ops) {
    const allow = allowedMethods(ops, op.path).join(', ');
    paths[op.path] ??= { description: `Other methods answer 405 METHOD_NOT_ALLOWED with Allow: ${allow}; OPTIONS answers 204 with Allow.` };
    paths[op.path]![op.method] = operationObject(op, requestBodies);
  }
  const all = Object.entries(NAMED).map(([name, s]) => [name, clean(s)] as const);
  // a request body stays a schema too only where another schema refers to it (a fixture file's rules)
  const referred = JSON.stringify([paths, requestBodies, all.filter(([name]) => !(name in requestBodies))]);
  const schemas = Object.fromEntries(
    all.filter(([name]) => !(name in requestBodies) || referred.includes(`"#/components/schemas/${name}"`)),
  );
  const signature = 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret>';
  return {
    openapi: '3.1.0',
    info: {
      title: 'pix-sandbox',
      version: opts.version,
      description:
        "A local, stateful simulator of a Brazilian PIX banking API. The public API (/v1, /pix) has the real service's paths and shapes; " +
        'the control API (/_sandbox) forces what the real service decides on its own. Every error outside the token endpoint is {statusCode, message, error: {code, details}}, ' +
        'its error.code one of those listed for the operation and status; an injected fault (docs/control-api.md#faults) may answer any status with a code of its own.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    // in the order of TAGS (then any other), whatever the order of the table
    tags: [...new Set([...Object.keys(TAGS), ...ops.map((o) => o.tag)])]
      .filter((name) => ops.some((o) => o.tag === name))
      .map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    webhooks: {
      transactionEvent: {
        post: {
          operationId: 'transactionEvent',
          summary: `What the sandbox POSTs to registered endpoints on each status change (${EVENT_TYPES.join(', ')})`,
          description: 'The receiver authenticates the sandbox by x-sandbox-signature (docs/webhooks.md), not by a security scheme.',
          security: [],
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
      requestBodies,
      headers: COMMON_HEADERS,
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
