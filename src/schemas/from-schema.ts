// A request's TypeScript type, derived from the JSON Schema that validates it (one source per shape).
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/** Drops the `[x: string]: unknown` an object schema without `additionalProperties: false` gives. */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/**
 * The value a handler gets once `schema` has validated it: FromSchema's type without the index
 * signature, since unknown fields are dropped before any handler sees the value
 * (docs/decisions.md#d10-unknown-fields-are-dropped). Used where it is exactly the hand-written type it
 * replaced; where a schema says more than the generator reads (oneOf, not, if/then, a pattern that
 * makes a string a number), the type stays written beside its schema.
 */
export type Validated<S extends JSONSchema> = Known<FromSchema<S>>;
