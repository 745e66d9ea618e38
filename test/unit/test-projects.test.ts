// Every test file runs in one of the two projects of vitest.config.ts (docs/contributing.md#test), or
// in the packed-install run (vitest.install.config.ts): a file in a folder that no project includes
// would never run, and nothing would say so.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import config from '../../vitest.config.js';
import install from '../../vitest.install.config.js';

/** The folder of each include pattern, which must read `test/<folder>/**\/*.test.ts`. */
function foldersOf(include: string[] | undefined): string[] {
  return (include ?? []).map((pattern) => {
    const m = /^test\/([\w-]+)\/\*\*\/\*\.test\.ts$/.exec(pattern);
    if (!m) throw new Error(`${pattern}: the projects include whole folders of test/ (test/<folder>/**/*.test.ts)`);
    return m[1]!;
  });
}

const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'node_modules'
        ? []
        : testFiles(path.join(dir, e.name))
      : e.name.endsWith('.test.ts')
        ? [path.join(dir, e.name)]
        : [],
  );

describe('the test projects', () => {
  const projects = (config.test?.projects ?? []) as { test: { name: string; include?: string[] } }[];
  const folders = new Map(projects.map((p) => [p.test.name, foldersOf(p.test.include)]));

  it('are fast (unit and in-process integration) and slow (the built command, browsers, build output, torture)', () => {
    expect(Object.fromEntries(folders)).toEqual({ fast: ['unit', 'integration'], slow: ['e2e', 'build', 'torture'] });
  });

  it('hold every test file of test/, each in one project (test/install runs on its own)', () => {
    const owners = new Map<string, string[]>();
    for (const [name, fs] of [...folders, ['install', foldersOf(install.test?.include)] as const])
      for (const f of fs) owners.set(f, [...(owners.get(f) ?? []), name]);
    const files = testFiles(packagePath('test')).map((f) => path.relative(packagePath('test'), f).split(path.sep));
    expect(files.length).toBeGreaterThan(60);
    const homeless = files.filter(([folder]) => (owners.get(folder!) ?? []).length !== 1).map((parts) => `test/${parts.join('/')}`);
    expect(homeless).toEqual([]);
  });
});
