// The validation functions the build compiles ahead of time (dist/src/schemas/precompiled.js) are
// the ones the shipped sandbox uses: each must exist for every schema of validated.ts and judge
// every input exactly as ajv compiling the same schema at run time does (verdict, errors, defaults).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { validatedSchemas } from '../../src/schemas/validated.js';
import { OPERATIONS } from '../../src/operations.js';
import { makeAjv, precompiledName } from '../../src/schemas/validator.js';

const { PRECOMPILED } = (await import(pathToFileURL(packagePath('dist', 'src', 'schemas', 'precompiled.js')).href)) as {
  PRECOMPILED: Record<string, ValidateFunction>;
};
const fixture = (name: string) => JSON.parse(readFileSync(packagePath('fixtures', `${name}.json`), 'utf8'));

const INPUTS: unknown[] = [
  {},
  [],
  null,
  'text',
  42,
  { amount: 12345, description: 'x', customer: { name: 'Maria', document: '52998224725' } },
  { amount: -1, customer: { document: '123' }, splits: [{ walletId: 'nope', amount: 'x' }] },
  { type: 'pix_key', amount: '1.00', description: 'x', details: { name: 'A', key: '52998224725', keyType: 'CPF' } },
  { type: 'bank_account', amount: 1, details: { key: 7 } },
  { limit: '5', offset: 'x', status: 'PAID', type: 'nope' },
  { limit: '1000000', from: '2026-01-01T00:00:00Z', to: 'yesterday' },
  { seconds: 60 },
  { name: 'x'.repeat(300), email: 'not-an-email', document: '11222333000181', document_type: 'CNPJ' },
  JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}'),
  fixture('default'),
  fixture('example-marketplace'),
];

const shape = (errors: ErrorObject[] | null | undefined) => (errors ?? []).map((e) => [e.instancePath, e.keyword, e.params, e.message]);

describe('precompiled validators', () => {
  const all = validatedSchemas(OPERATIONS);

  it('exist for every validated schema', () => {
    expect(all.length).toBeGreaterThan(20);
    const missing = all.filter(({ kind, schema }) => typeof PRECOMPILED[precompiledName(schema, kind)] !== 'function');
    expect(missing).toEqual([]);
  });

  it('judge every input as ajv compiling the schema at run time does', () => {
    const runtime = { body: makeAjv('body'), query: makeAjv('query') };
    let compared = 0;
    for (const { kind, schema } of all) {
      const ahead = PRECOMPILED[precompiledName(schema, kind)]!;
      const now = runtime[kind].compile(schema);
      for (const input of INPUTS) {
        const a = structuredClone(input);
        const b = structuredClone(input);
        const verdict = ahead(a);
        expect(now(b)).toBe(verdict);
        expect(shape(ahead.errors)).toEqual(shape(now.errors));
        expect(a).toEqual(b); // the same defaults filled in
        compared++;
      }
    }
    expect(compared).toBe(all.length * INPUTS.length);
  });

  it('accept the shipped fixture sets and refuse a broken one', () => {
    const name = precompiledName(all[0]!.schema, 'body');
    expect(PRECOMPILED[name]!(fixture('default'))).toBe(true);
    expect(PRECOMPILED[name]!({ accounts: [] })).toBe(false);
  });
});
