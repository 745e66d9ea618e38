// The operation table (src/operations.ts; docs/contributing.md#add-an-endpoint): one entry per
// method and path, and no entry whose schema its handler could leave unused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations.js';
import { packagePath } from '../../src/paths.js';
import { TOKEN_PATH } from '../../src/http/tenant.js';

describe('the operation table', () => {
  it('has one entry per method and path', () => {
    const keys = OPERATIONS.map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('reads the body by its schema exactly where the entry has one (the token endpoint reads its own)', () => {
    const wrong = OPERATIONS.filter((o) => !o.parser && (o.body !== undefined) !== /\breadBody\(\)/.test(o.handle.toString())).map(
      (o) => `${o.method.toUpperCase()} ${o.path}`,
    );
    expect(wrong).toEqual([]);
  });

  it('gives every path parameter a schema: a UUID unless `params` names another', () => {
    for (const o of OPERATIONS)
      for (const [, name] of o.path.matchAll(/\{(\w+)\}/g)) {
        const own = o.params?.[name!];
        if (own) expect(own, `${o.path} {${name}}`).toHaveProperty('type', 'string');
        else
          expect(o.handle.toString(), `${o.method} ${o.path} checks {${name}} as a UUID`).toMatch(
            new RegExp(`uuidParam\\)?\\(req, ["']${name}["']\\)`),
          );
      }
  });

  it('has every path on a page of docs/', () => {
    const docs = ['api.md', 'control-api.md', 'webhooks.md', 'dashboard.md']
      .map((f) => readFileSync(packagePath('docs', f), 'utf8'))
      .join('\n');
    expect(OPERATIONS.filter((o) => !docs.includes(o.path)).map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual([]);
  });

  it("is shown in contributing.md's walk-through as the code has it", () => {
    const page = readFileSync(packagePath('docs/contributing.md'), 'utf8');
    const section = page.slice(page.indexOf('## Add an endpoint'));
    const example = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const source = readFileSync(packagePath('src/control/health.ts'), 'utf8');
    const missing = example
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !source.includes(l));
    expect(missing).toEqual([]);
  });
});

describe('the tenant of a request', () => {
  it('knows the token endpoint by the path of the one entry that authenticates clients', () => {
    expect(OPERATIONS.filter((o) => o.auth === 'client').map((o) => o.path)).toEqual([TOKEN_PATH]);
  });
});
