// The package's public types must type-check in a consumer with skipLibCheck: false, which sees
// only the package's dependencies. So every declaration file reachable from an entry point may
// import only Node's modules and packages that ship their own types and that a consumer has:
// dependencies, or the optional peer (testcontainers) for the entry that needs it. (The full check,
// a type-check in an empty project with the packed tarball, runs in the container phase of CI:
// test/install/packed.test.ts.)
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';

const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
  exports: Record<string, string | { types?: string }>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/** Every declaration file reachable from `entry`, and the bare specifiers they import. */
function reachable(entry: string): { files: string[]; bare: Map<string, string> } {
  const seen = new Set<string>();
  const bare = new Map<string, string>(); // specifier → first file importing it
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // not a quoted word "from" in a declared type (a union of field names)
    for (const m of text.matchAll(/(?<!['"\w.])(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) queue.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.d.ts')));
      else if (!bare.has(spec)) bare.set(spec, path.relative(packagePath(), file));
    }
  }
  return { files: [...seen], bare };
}

const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);

function shipsTypes(name: string): boolean {
  const dir = packagePath('node_modules', name);
  if (!existsSync(path.join(dir, 'package.json'))) return false;
  const p = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const main = typeof p.main === 'string' ? p.main.replace(/\.c?js$/, '.d.ts') : 'index.d.ts';
  return Boolean(p.types ?? p.typings) || JSON.stringify(p.exports ?? {}).includes('"types"') || existsSync(path.join(dir, main));
}

describe('the public types need nothing a consumer lacks', () => {
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'string' ? null : target.types;
    if (!types) continue;
    it(`${entry} (${types}) imports only Node's modules and typed dependencies`, () => {
      const file = packagePath(types);
      expect(existsSync(file), `${types} is missing: run npm run build`).toBe(true);
      const { files, bare } = reachable(file);
      expect(files.length).toBeGreaterThan(0);
      const allowed = { ...pkg.dependencies, ...(entry === './testcontainers' ? pkg.peerDependencies : {}) };
      const wrong: string[] = [];
      for (const [spec, from] of bare) {
        const name = packageOf(spec);
        if (spec.startsWith('node:') || builtinModules.includes(name)) continue;
        if (!(name in allowed)) wrong.push(`${from} imports ${spec}, which a consumer does not install`);
        else if (!shipsTypes(name)) wrong.push(`${from} imports ${spec}, whose types are a separate @types package`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
