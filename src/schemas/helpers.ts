// The building blocks every JSON Schema of the sandbox is written with. Each keeps its schema's
// literal type (nothing widens to Record<string, unknown>), so the type of a value comes from the
// very object ajv validates and /openapi.json shows (Wire and Validated, ./from-schema.ts): a
// formatter or a client that strays from its schema is a compile error.
import type { JSONSchema } from 'json-schema-to-ts';

/** Any JSON Schema, where only its being one matters (the operation table, the OpenAPI builder). */
export type JsonSchema = Record<string, unknown>;

type Props = Readonly<Record<string, JSONSchema>>;
type Flat<T> = { [K in keyof T]: T[K] };

/** A closed object: its properties, those of them required, and nothing else. */
export type ObjectSchema<P extends Props = Props, R extends string = string> = {
  readonly type: 'object';
  readonly required: readonly R[];
  readonly additionalProperties: false;
  readonly properties: P;
};

const requiredOf = (properties: Props, optional: readonly string[]) => Object.keys(properties).filter((k) => !optional.includes(k));
const optionalOf = (s: ObjectSchema) => Object.keys(s.properties).filter((k) => !s.required.includes(k));
const isIn = (keys: readonly string[]) => (k: string) => keys.includes(k);

/** A closed object: every property required but those named `optional`. */
export function obj<const P extends Props, const O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
): ObjectSchema<P, Exclude<keyof P & string, O>> {
  const required = requiredOf(properties, optional) as Exclude<keyof P & string, O>[];
  return { type: 'object', required, additionalProperties: false, properties };
}

// Projections: a shape made of another's fields says so, and its type follows the one it comes from.

/** `s` with only `keys`, in that order (each as required as it was). */
export function pick<S extends ObjectSchema, const K extends keyof S['properties'] & string>(
  s: S,
  keys: readonly K[],
): ObjectSchema<Flat<Pick<S['properties'], K>>, S['required'][number] & K> {
  const properties = Object.fromEntries(keys.map((k) => [k, s.properties[k]!]));
  return obj(properties, optionalOf(s).filter(isIn(keys))) as never;
}

/** `s` without `keys`. */
export function omit<S extends ObjectSchema, const K extends keyof S['properties'] & string>(
  s: S,
  keys: readonly K[],
): ObjectSchema<Flat<Omit<S['properties'], K>>, Exclude<S['required'][number], K>> {
  const properties = Object.fromEntries(Object.entries(s.properties).filter(([k]) => !keys.includes(k as K)));
  return obj(properties, optionalOf(s)) as never;
}

/** `s` with more properties, each required but those named `optional`. */
export function extend<S extends ObjectSchema, const P extends Props, const O extends keyof P & string = never>(
  s: S,
  properties: P,
  optional: readonly O[] = [],
): ObjectSchema<Flat<S['properties'] & P>, S['required'][number] | Exclude<keyof P & string, O>> {
  return obj({ ...s.properties, ...properties }, [...optionalOf(s), ...optional]);
}

type Nullable<S extends { readonly type: string }> = Flat<
  { readonly [K in Exclude<keyof S, 'enum'>]: K extends 'type' ? readonly [S['type'], 'null'] : S[K] } & (S extends {
    readonly enum: readonly unknown[];
  }
    ? { readonly enum: readonly [...S['enum'], null] }
    : unknown)
>;

/** `s`, or null (an enum takes null among its values too). */
export function nullable<const S extends { readonly type: string; readonly enum?: readonly unknown[] }>(s: S): Nullable<S> {
  return { ...s, type: [s.type, 'null'], ...(s.enum ? { enum: [...s.enum, null] } : {}) } as never;
}

export const arrayOf = <const I extends JSONSchema>(items: I) => ({ type: 'array', items }) as const;

/** One of a closed list of words (a const array of src/domain/vocabulary.ts). */
export const oneOfWords = <const W extends readonly string[]>(words: W) => ({ type: 'string', enum: words }) as const;

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** A CPF (11 digits) or a CNPJ (14), digits only. */
export const DOCUMENT_PATTERN = '^[0-9]{11}$|^[0-9]{14}$';

// ---- fields of answers ----
export const uuid = { type: 'string', pattern: UUID_PATTERN } as const;
export const str = { type: 'string' } as const;
export const int = { type: 'integer' } as const;
export const cents = { type: 'integer', minimum: 0 } as const;
export const num = { type: 'number' } as const;
export const bool = { type: 'boolean' } as const;
export const time = { type: 'string', format: 'date-time' } as const;
export const documentDigits = { type: 'string', pattern: DOCUMENT_PATTERN } as const;
export const endToEndId = { type: 'string', pattern: '^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$' } as const;
export const dataUrlPng = { type: 'string', pattern: '^data:image/png;base64,' } as const;

// ---- fields of requests: the validator's message names the rule ----
export const uuidParam = { type: 'string', pattern: UUID_PATTERN, 'x-message': 'must be a UUID' } as const;
export const errorCode = {
  type: 'string',
  pattern: '^[A-Z][A-Z0-9_]{1,63}$',
  'x-message': 'must be an upper-case code like INSUFFICIENT_FUNDS',
} as const;
