// The README's "Programmatic use" example is what test/integration/programmatic.test.ts runs:
// the two must not drift apart (only the import path differs).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('the README programmatic example is exactly the code of the programmatic integration test', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Programmatic use'), readme.indexOf('\n## ', readme.indexOf('## Programmatic use') + 3));
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  expect(example, 'a ```ts block in "Programmatic use"').toBeDefined();
  expect(example).toContain("from 'pix-sandbox'");
  const test = readFileSync(new URL('../integration/programmatic.test.ts', import.meta.url), 'utf8');
  const body = test.slice(test.indexOf('\n') + 1); // past the first comment line
  expect(body).toBe(example!.replace("from 'pix-sandbox'", "from '../../src/index.js'"));
});
