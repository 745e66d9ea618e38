// One ajv instance for bodies (no coercion: the cash-out amount must stay a string) and one
// for query strings (coerced, since every query value arrives as a string). Each schema is turned
// into a function once, on first use, and cached by identity. The build compiles every schema the
// sandbox validates ahead of time (scripts/precompile-schemas.mjs writes ajv's standalone code for
// the schemas listed in ./validated.ts into dist/), so a built sandbox finds its functions in
// PRECOMPILED and never runs ajv's compiler at start-up (the fixture schema alone cost ~30 ms of it);
// anything not found there (tests running from src/, a schema added without a build) is compiled here.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { SandboxError, type ErrorDetail } from '../domain/errors.js';
import type { BodyCheck } from './checks.js';
import { PRECOMPILED } from './precompiled.js';

type JsonSchema = Record<string, unknown>;
export type SchemaKind = 'body' | 'query';

// ajv's compiler is loaded only when a schema must be compiled here (never in a built sandbox,
// whose schemas are all precompiled): synchronously, by require, so that validation stays synchronous.
const load = createRequire(import.meta.url);

/** The one ajv configuration, shared with the build-time compiler (which adds `code.source`). */
export function makeAjv(kind: SchemaKind, extra: Options = {}): Ajv {
  const { Ajv } = load('ajv') as typeof import('ajv');
  const addFormats = (load('ajv-formats') as { default: (ajv: Ajv) => void }).default;
  // no meta-schema check at each compile: the test suite checks every schema against JSON Schema 2020-12 (openapi tests)
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes: kind === 'query',
    useDefaults: true,
    verbose: true,
    strict: true,
    validateSchema: false,
    meta: false,
    ...extra,
  });
  addFormats(ajv);
  // annotations: a human message for the rule, and OpenAPI-only fields
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-immutable', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
}

/** The name of a schema's precompiled function: a digest of its kind and its JSON text. */
export function precompiledName(schema: JsonSchema, kind: SchemaKind): string {
  return `v${createHash('sha256')
    .update(`${kind}\n${JSON.stringify(schema)}`)
    .digest('hex')
    .slice(0, 20)}`;
}

const ajvs: Partial<Record<SchemaKind, Ajv>> = {};
const cache: Record<SchemaKind, WeakMap<object, ValidateFunction>> = { body: new WeakMap(), query: new WeakMap() };

function compiled(schema: JsonSchema, kind: SchemaKind): ValidateFunction {
  let fn = cache[kind].get(schema);
  if (!fn) {
    fn = (PRECOMPILED[precompiledName(schema, kind)] as ValidateFunction | undefined) ?? (ajvs[kind] ??= makeAjv(kind)).compile(schema);
    cache[kind].set(schema, fn);
  }
  return fn;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};
const FORMAT_NAMES: Record<string, string> = {
  email: 'an e-mail address',
  'date-time': 'a date and time (ISO 8601, e.g. 2026-01-31T12:00:00Z)',
  date: 'a date (YYYY-MM-DD)',
  uri: 'an absolute URL',
  url: 'an absolute URL',
  uuid: 'a UUID',
};
/** The allowed string within two edits of a misspelt value (cashin.payed → cashin.paid), if exactly one is. */
function closest(value: string, allowed: unknown[]): string | null {
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length]!;
  };
  const near = allowed.filter((v): v is string => typeof v === 'string' && distance(value.toLowerCase(), v.toLowerCase()) <= 2);
  return near.length === 1 ? near[0]! : null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A rule a value broke, in the sandbox's words (ajv's own, "must NOT have fewer than 1 characters", never reach a client). */
export function ownWords(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const n = Number(p.limit);
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type': {
      const types = String(p.type).split(',');
      return `must be ${types.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}`;
    }
    case 'minLength':
      return n === 1 ? 'must not be empty' : `must be at least ${plural(n, 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(n, 'character')} long`;
    case 'minimum':
      return `must be at least ${n}`;
    case 'maximum':
      return `must be at most ${n}`;
    case 'exclusiveMinimum':
      return `must be more than ${n}`;
    case 'exclusiveMaximum':
      return `must be less than ${n}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'minItems':
      return n === 1 ? 'must not be empty' : `must hold at least ${plural(n, 'item')}`;
    case 'maxItems':
      return `must hold at most ${plural(n, 'item')}`;
    case 'uniqueItems':
      return `must not repeat an item (items ${Math.min(Number(p.i), Number(p.j))} and ${Math.max(Number(p.i), Number(p.j))} are the same)`;
    case 'minProperties':
      return n === 1 ? 'must not be empty' : `must have at least ${plural(n, 'field')}`;
    case 'maxProperties':
      return `must have at most ${plural(n, 'field')}`;
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      const near = typeof e.data === 'string' ? closest(e.data, allowed) : null;
      return `must be one of ${allowed.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}${near ? `; did you mean ${near}?` : ''}`;
    }
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return `must be ${FORMAT_NAMES[String(p.format)] ?? `in the ${String(p.format)} format`}`;
    case 'pattern':
      return 'is not in the expected format';
    case 'not':
      return 'is not allowed here';
    case 'dependentRequired':
    case 'dependencies':
      return `needs ${String(p.missingProperty)} too (with ${String(p.property)})`;
    default:
      return 'is not valid here';
  }
}

function toDetails(errors: ErrorObject[] | null | undefined, prefix = ''): ErrorDetail[] {
  const seen = new Set<string>();
  const out: ErrorDetail[] = [];
  for (const e of errors ?? []) {
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    let path = `${prefix}${e.instancePath}`;
    if (e.keyword === 'required') path += `/${(e.params as { missingProperty: string }).missingProperty}`;
    if (e.keyword === 'additionalProperties') path += `/${(e.params as { additionalProperty: string }).additionalProperty}`;
    const custom: unknown = e.parentSchema?.['x-message'];
    const message = e.keyword !== 'required' && typeof custom === 'string' ? custom : ownWords(e);
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path: path || '/', message });
  }
  return out;
}

function sentence(details: ErrorDetail[], what: string): string {
  const first = details[0];
  if (!first) return `the ${what} is invalid`;
  const field = first.path.split('/').filter(Boolean).join('.') || what;
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''})` : '';
  return `${field} ${first.message}${more}`;
}

/**
 * Validates (and fills defaults into) a request body; throws a VALIDATION_ERROR listing every
 * violation: the schema's, and those of `check` (rules a schema cannot say), in one answer.
 */
export function validateBody<T>(schema: JsonSchema, body: unknown, check?: BodyCheck): T {
  const fn = compiled(schema, 'body');
  const details = fn(body) ? [] : toDetails(fn.errors);
  if (check && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    // a field the schema already faults is not faulted twice
    const faulted = new Set(details.map((d) => d.path));
    for (const d of check(body as Record<string, unknown>)) if (!faulted.has(d.path)) details.push(d);
  }
  if (details.length > 0) throw new SandboxError('VALIDATION_ERROR', sentence(details, 'body'), details);
  return body as T;
}

/** Digits only, no sign, point, exponent or space: what a query integer may be written as (16 digits keep it exact). */
const QUERY_INTEGER = /^[0-9]{1,16}$/;
const integerParams = new WeakMap<object, [string, JsonSchema][]>();

/** The query parameters a schema declares as integers (once per schema). */
function integersOf(schema: JsonSchema): [string, JsonSchema][] {
  let found = integerParams.get(schema);
  if (!found) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const isInteger = (p: JsonSchema) => p.type === 'integer' || (Array.isArray(p.type) && p.type.includes('integer'));
    found = Object.entries(props).filter(([, p]) => isInteger(p));
    integerParams.set(schema, found);
  }
  return found;
}

/**
 * Validates a query object, coercing strings to the schema's types. An integer parameter is read
 * strictly first (docs/decisions.md#d72-strict-query-integers): ajv's coercion would take `1e400` or
 * `Infinity` for a number past every bound, and `+5`, ` 5`, `1.0` or `0x10` for integers.
 */
export function validateQuery<T>(schema: JsonSchema, query: unknown): T {
  const copy = { ...(query as object) } as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const [name, param] of integersOf(schema)) {
    const raw = copy[name];
    if (typeof raw !== 'string' || QUERY_INTEGER.test(raw)) continue;
    const custom = param['x-message'];
    const range = typeof param.maximum === 'number' ? ` from ${Number(param.minimum ?? 0)} to ${param.maximum}` : '';
    details.push({ path: `/query/${name}`, message: typeof custom === 'string' ? custom : `must be an integer${range}, in digits only` });
    delete copy[name]; // told once, by this rule
  }
  const fn = compiled(schema, 'query');
  if (!fn(copy)) details.push(...toDetails(fn.errors, '/query').filter((d) => !details.some((x) => x.path === d.path)));
  if (details.length > 0) throw new SandboxError('VALIDATION_ERROR', sentence(details, 'query'), details);
  return copy as T;
}

/**
 * The variant of a oneOf/anyOf that describes `value` (an array or an object), when the schema is
 * made of variants; undefined when it has its own properties (an anyOf of `required` lists only adds rules).
 */
function variantFor(schema: JsonSchema, value: object): JsonSchema | null | undefined {
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (!variants || schema.properties) return undefined;
  const kind = Array.isArray(value) ? 'array' : 'object';
  return variants.find((v) => v.type === kind) ?? variants.find((v) => v.type === undefined) ?? null;
}

/** Returns the JSON-pointer paths of body fields that the schema does not know (they are ignored). */
export function unknownFields(schema: JsonSchema, value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const variant = variantFor(schema, value);
  if (variant !== undefined) return variant ? unknownFields(variant, value, path) : [];
  const out: string[] = [];
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    if (items) value.forEach((v, i) => out.push(...unknownFields(items, v, `${path}/${i}`)));
    return out;
  }
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props || schema.additionalProperties === false) return [];
  for (const [k, v] of Object.entries(value)) {
    const sub = Object.hasOwn(props, k) ? props[k] : undefined;
    if (!sub) out.push(`${path}/${k}`);
    else out.push(...unknownFields(sub, v, `${path}/${k}`));
  }
  return out;
}

/** A copy of `value` holding only the fields the schema knows; objects the schema leaves free-form are kept whole. */
export function withoutUnknownFields(schema: JsonSchema, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const variant = variantFor(schema, value);
  if (variant !== undefined) return variant ? withoutUnknownFields(variant, value) : value;
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items ? value.map((v) => withoutUnknownFields(items, v)) : value;
  }
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props || schema.additionalProperties === false) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (Object.hasOwn(props, k)) out[k] = withoutUnknownFields(props[k]!, v);
  return out;
}
