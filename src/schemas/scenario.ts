// The JSON Schema of scenario files (YAML or JSON). Every file is checked against it before
// anything runs; unknown fields are errors, so a typo never silently skips an assertion.
// Values that are interpolated at run time (`${...}`) are strings, so numeric fields accept either
// a number or a single `${...}` reference.

import { DOCUMENT_TYPES, EVENT_TYPES, PIX_KEY_TYPES, REPORT_CHECKS, REPORT_OUTCOMES, SEND_SIGNATURES } from '../domain/vocabulary.js';
import { oneOfWords } from './helpers.js';
import { partySchema } from './records.js';

const expr = '^\\$\\{[^}]+\\}$';
const intOrExpr = (min: number, max: number) =>
  ({
    type: ['integer', 'string'],
    minimum: min,
    maximum: max,
    pattern: expr,
    'x-message': `must be an integer from ${min} to ${max} or a \${...} reference`,
  }) as const;
const str = { type: 'string', minLength: 1 } as const;
const saveName = {
  type: 'string',
  pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
  'x-message': 'must be a name of letters, digits and _ (not starting with a digit)',
} as const;

const eventType = oneOfWords(EVENT_TYPES);
/** A scenario's name for a snapshot of its tenant: the sandbox keeps it as `<name>.<run id>` (at most 64 characters). */
const snapshotName = {
  type: 'string',
  pattern: '^[A-Za-z0-9._-]{1,51}$',
  'x-message': 'must be 1-51 letters, digits, or . _ -',
} as const;

/** A matcher: any JSON value (see src/scenarios/matcher.ts). */
const matcher = {} as const;

export const STEP_KINDS = [
  'request',
  'pay',
  'payCode',
  'expire',
  'cancel',
  'complete',
  'fail',
  'advance',
  'credit',
  'addKey',
  'addRule',
  'createMerchant',
  'fire',
  'receiver',
  'expectWebhook',
  'expectNoWebhook',
  'webhookFault',
  'sendWebhook',
  'snapshot',
  'restore',
  'expectReport',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** A party's fields (src/schemas/records.ts), each a non-empty string (or a ${...} reference). */
const partyFields = Object.fromEntries(Object.keys(partySchema.properties).map((k) => [k, str]));
const payer = { type: 'object', additionalProperties: false, properties: partyFields } as const;

/** `pay: <id>` or `pay: {id, payer}` */
const idOr = (extra: Record<string, unknown> = {}, required: string[] = ['id']) =>
  ({
    type: ['string', 'object'],
    minLength: 1,
    required,
    additionalProperties: false,
    properties: { id: str, ...extra },
  }) as const;

const owner = { type: 'object', required: ['name', 'document'], additionalProperties: false, properties: partyFields } as const;

const pixKey = {
  type: 'object',
  required: ['key', 'keyType', 'owner'],
  additionalProperties: false,
  properties: {
    key: str,
    keyType: oneOfWords(PIX_KEY_TYPES),
    owner,
    unknown: { type: 'boolean' },
  },
} as const;

// the rule's own shape is validated by the sandbox (POST /_sandbox/rules); here only its frame
const rule = {
  type: 'object',
  required: ['match', 'outcome'],
  properties: {
    id: str,
    description: { type: 'string' },
    match: { type: 'object', required: ['type'] },
    outcome: { type: 'object', required: ['action'] },
  },
} as const;

const expectation = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: {
      type: ['integer', 'object'],
      minimum: 100,
      maximum: 599,
      'x-message': 'must be an HTTP status or a matcher such as {$gte: 200}',
    },
    body: matcher,
    headers: { type: 'object' },
  },
} as const;

/** What an expectWebhook step waits for (and an expectNoWebhook step waits not to see). */
const webhookExpectation = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: eventType,
    data: matcher,
    within: { type: 'number', exclusiveMinimum: 0, maximum: 300, 'x-message': 'must be a number of seconds (at most 300)' },
  },
} as const;

const stepSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    save: saveName,
    expect: expectation,
    eventually: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 300,
      'x-message': 'must be a number of seconds (at most 300) during which the call is repeated until `expect` holds',
    },
    request: {
      type: 'object',
      required: ['method', 'path'],
      additionalProperties: false,
      properties: {
        method: {
          type: 'string',
          pattern: '^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|get|post|put|patch|delete|head|options)$',
          'x-message': 'must be an HTTP method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS)',
        },
        path: { type: 'string', pattern: '^/', 'x-message': 'must start with / (it is joined to the base URL)' },
        body: {},
        rawBody: { type: 'string' },
        headers: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
        as: {
          type: 'string',
          pattern: '^(account|none|admin|merchant:[A-Za-z_][A-Za-z0-9_]*)$',
          'x-message': 'must be account, none, admin or merchant:<name saved by an earlier step>',
        },
      },
    },
    pay: idOr({ payer }),
    payCode: {
      type: ['string', 'object'],
      minLength: 1,
      required: ['pixCode'],
      additionalProperties: false,
      properties: { pixCode: str, payer },
    },
    expire: idOr(),
    cancel: idOr(),
    complete: idOr(),
    fail: { type: 'object', required: ['id', 'code'], additionalProperties: false, properties: { id: str, code: str, message: str } },
    advance: {
      anyOf: [
        intOrExpr(0, 31_536_000),
        { type: 'object', required: ['seconds'], additionalProperties: false, properties: { seconds: intOrExpr(0, 31_536_000) } },
      ],
      'x-message': 'must be a number of seconds or {seconds}',
    },
    credit: {
      type: 'object',
      required: ['amount'],
      additionalProperties: false,
      properties: { amount: intOrExpr(-1_000_000_000_000, 1_000_000_000_000), wallet: str, account: str, description: { type: 'string' } },
    },
    addKey: pixKey,
    addRule: rule,
    createMerchant: {
      type: 'object',
      additionalProperties: false,
      properties: { name: str, document: str, document_type: oneOfWords(DOCUMENT_TYPES), email: str, phone: str },
    },
    fire: {
      type: ['string', 'object'],
      minLength: 1,
      required: ['transactionId'],
      additionalProperties: false,
      properties: { transactionId: str, type: eventType },
    },
    receiver: {
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      properties: {
        failNext: { type: 'integer', minimum: 0, maximum: 1000 },
        status: { type: 'integer', minimum: 400, maximum: 599 },
        dedupe: { type: 'boolean' },
      },
    },
    expectWebhook: webhookExpectation,
    // the same expectation, with a `within` of its own: how long nothing may arrive
    expectNoWebhook: { ...webhookExpectation, required: ['type', 'within'] },
    // the fault's own rules (an action, seconds for delay only) are checked by the sandbox (POST /_sandbox/webhooks/faults)
    webhookFault: {
      type: 'object',
      required: ['action'],
      additionalProperties: false,
      properties: { action: str, eventType, transactionId: str, times: intOrExpr(1, 1_000_000), seconds: intOrExpr(1, 2_592_000) },
    },
    sendWebhook: {
      type: 'object',
      required: ['body'],
      additionalProperties: false,
      properties: { body: {}, signature: oneOfWords(SEND_SIGNATURES) },
    },
    // a named snapshot of the scenario's tenant, kept under the name and the run's id (docs/scenarios.md#steps)
    snapshot: snapshotName,
    restore: snapshotName,
    // the integration report of the scenario's tenant (docs/report.md): a check id → the outcome it must have
    expectReport: {
      type: 'object',
      minProperties: 1,
      additionalProperties: false,
      properties: Object.fromEntries(REPORT_CHECKS.map((id) => [id, oneOfWords(REPORT_OUTCOMES)])),
      'x-message': `must map check ids (${REPORT_CHECKS.join(', ')}) to an outcome (${REPORT_OUTCOMES.join(', ')})`,
    },
  },
  oneOf: STEP_KINDS.map((k) => ({ required: [k] })),
} as const;

export const scenarioSchema = {
  $id: 'https://pix-sandbox.local/schemas/scenario.json',
  type: 'object',
  required: ['name', 'steps'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    description: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    vars: { type: 'object' },
    webhookTimeout: { type: 'number', exclusiveMinimum: 0, maximum: 300, 'x-message': 'must be a number of seconds (at most 300)' },
    // runs alone, after the others; no longer needed for clock moves (an advance moves only the
    // scenario's own tenant: docs/scenarios.md#advance), still accepted
    exclusive: { type: 'boolean' },
    fixtures: {
      type: 'object',
      additionalProperties: false,
      properties: {
        account: {
          type: 'object',
          additionalProperties: false,
          properties: {
            splitEnabled: { type: 'boolean' },
            balance: { type: 'integer', minimum: 0 },
            settleAfterSeconds: { type: 'integer', minimum: 0 },
            autoPayAfterSeconds: { type: ['integer', 'null'], minimum: 0 },
          },
        },
        pixKeys: { type: 'array', items: pixKey },
        rules: { type: 'array', items: rule },
      },
    },
    steps: { type: 'array', minItems: 1, items: stepSchema },
  },
} as const;

interface Expectation {
  status?: unknown;
  body?: unknown;
  headers?: Record<string, unknown>;
}

/** One step as written (before interpolation). Exactly one kind key is present. */
export type Step = { name?: string; save?: string; expect?: Expectation; eventually?: number } & { [K in StepKind]?: unknown };

interface ScenarioFixtures {
  account?: { splitEnabled?: boolean; balance?: number; settleAfterSeconds?: number; autoPayAfterSeconds?: number | null };
  pixKeys?: Record<string, unknown>[];
  rules?: Record<string, unknown>[];
}

export interface Scenario {
  name: string;
  description?: string;
  tags?: string[];
  vars?: Record<string, unknown>;
  webhookTimeout?: number;
  exclusive?: boolean;
  fixtures?: ScenarioFixtures;
  steps: Step[];
}

export const stepKindOf = (step: Step): StepKind => STEP_KINDS.find((k) => step[k] !== undefined)!;
