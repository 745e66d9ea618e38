// Every schema the sandbox validates input with, and how (bodies as sent, query strings coerced):
// the request schemas of every operation, and the fixture file with its rules. The build compiles
// each ahead of time (scripts/precompile-schemas.mjs); one left out still works, compiled on first use.
import { fixturesSchema } from './fixtures.js';
import { ruleInputSchema } from './control.js';
import type { Operation } from './operation.js';
import type { SchemaKind } from './validator.js';

/** `operations`: the table of src/operations.ts. */
export function validatedSchemas(operations: readonly Operation[]): { kind: SchemaKind; schema: Record<string, unknown> }[] {
  const out: { kind: SchemaKind; schema: Record<string, unknown> }[] = [
    { kind: 'body', schema: fixturesSchema },
    { kind: 'body', schema: ruleInputSchema },
  ];
  for (const op of operations) {
    if (op.body) out.push({ kind: 'body', schema: op.body });
    if (op.query) out.push({ kind: 'query', schema: op.query });
  }
  return out;
}
