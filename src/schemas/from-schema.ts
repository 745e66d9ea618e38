// A value's TypeScript type, derived from the JSON Schema that validates or describes it (one source
// per shape): json-schema-to-ts reads the schema's literal type (./helpers.ts keeps it literal).
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: 0 };

/**
 * `T` without the `[x: string]: unknown` an object schema without `additionalProperties: false`
 * gives, at every depth: unknown fields are dropped before any handler sees a value
 * (docs/decisions.md#d10-unknown-fields-are-dropped). An object with no named field keeps it.
 */
type Known<T> = T extends readonly unknown[]
  ? { [I in keyof T]: Known<T[I]> }
  : T extends object
    ? [KnownKeys<T>] extends [never]
      ? T
      : { [K in keyof T as string extends K ? never : K]: Known<T[K]> }
    : T;

/** The shape a schema describes: an answer's type, from the schema /openapi.json shows for it. */
export type Wire<S extends JSONSchema> = Known<FromSchema<S>>;

/** The fields a schema refuses outright (`not: {}`: sending one is an error that names it, docs/api.md#update-a-merchant). */
type Refused<S> = S extends { readonly properties: infer P }
  ? { [K in keyof P]: P[K] extends { readonly not: infer N } ? ([keyof N] extends [never] ? K : never) : never }[keyof P]
  : never;

/**
 * The value a handler gets once `schema` has validated it: no unknown field, no refused one. Used
 * where it is exactly the hand-written type it replaced; where a schema says more than the generator
 * reads (a pattern that makes a string a number, a rule of ./checks.ts), the type says less, never
 * something else.
 */
export type Validated<S extends JSONSchema> = [Refused<S>] extends [never] ? Wire<S> : Omit<Wire<S>, Refused<S>>;
