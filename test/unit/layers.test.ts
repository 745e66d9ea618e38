// Dependencies point one way (docs/architecture.md#the-folders): domain ← schemas ← store ← format,
// clock ← services ← webhooks (the delivery worker) ← http ← api, control ← client ← scenarios ← cli.
// A folder imports only from its own rank or below; the domain imports nothing but itself and the
// record types of src/store/model.ts. Files at the root of src/ (app, context, operations, server, …)
// assemble the layers and are left out.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';

const RANK: Record<string, number> = {
  domain: 0,
  schemas: 1,
  store: 2,
  format: 3,
  clock: 3,
  services: 4,
  webhooks: 5,
  http: 6,
  api: 7,
  control: 7,
  client: 8,
  testcontainers: 8,
  scenarios: 9,
  cli: 10,
};

const src = packagePath('src');
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split(path.sep).join('/'));

/** Every relative import and re-export of a file: its target (relative to src/) and whether it is type-only. */
function importsOf(file: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(path.join(src, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)(\s+type)?[^;']*?from\s+'(\.\.?\/[^']+)'/gm)].map((m) => ({
    typeOnly: m[1] !== undefined,
    target: path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2]!)),
  }));
}

const folderOf = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : null);

describe('the layers', () => {
  it('reads the imports of every source file', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(importsOf('app.ts').some((i) => i.target === 'operations.js')).toBe(true);
    expect(importsOf('control/health.ts')).toContainEqual({ target: 'http/operations.js', typeOnly: false });
  });

  it('no folder imports from a folder above it', () => {
    const upward: string[] = [];
    for (const file of files) {
      const from = folderOf(file);
      if (from === null || RANK[from] === undefined) continue;
      for (const { target } of importsOf(file)) {
        const to = folderOf(target);
        if (to !== null && RANK[to] !== undefined && RANK[to] > RANK[from] && !(from === 'domain' && target === 'store/model.js'))
          upward.push(`${file} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the domain imports only itself, and only the types of the store records', () => {
    const outside = files
      .filter((f) => f.startsWith('domain/'))
      .flatMap((f) => importsOf(f).map((i) => ({ f, ...i })))
      .filter((i) => !i.target.startsWith('domain/') && !(i.target === 'store/model.js' && i.typeOnly))
      .map((i) => `${i.f} → ${i.target}`);
    expect(outside).toEqual([]);
  });

  it('a handler module of the public API imports no other: what two share lives in a service or in http', () => {
    const siblings = files
      .filter((f) => f.startsWith('api/'))
      .flatMap((f) => importsOf(f).map((i) => ({ f, ...i })))
      .filter((i) => i.target.startsWith('api/'))
      .map((i) => `${i.f} → ${i.target}`);
    expect(siblings).toEqual([]);
  });
});
