// What a release would publish, rehearsed here (docs/versioning.md#releasing): `npm publish --dry-run`
// lists the package's files, which must be the build, the data files and the docs a user needs, no
// tests, sources, source maps or test fixtures, within a size budget; and CHANGELOG.md's latest
// version must be package.json's, with a section the release workflow can take its notes from.
// Needs dist/ (npm test builds before it runs the tests); the dry run skips prepack, so it never
// rebuilds dist/ under the feet of the other tests.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';

const exec = promisify(execFile);
const ROOT = packagePath();

/** What the published tarball may hold: anything else (a test, a map, a source file) fails the test. */
const ALLOWED = [
  /^(README\.md|LICENSE|CHANGELOG\.md|package\.json)$/,
  /^dist\/src\/[\w/-]+\.(js|d\.ts)$/,
  /^dist\/bin\/[\w-]+\.js$/,
  /^fixtures\/[\w-]+\.json$/,
  /^scenarios\/([\w-]+\/)?[\w-]+\.yaml$/,
  /^ui\/[\w-]+\.(html|js|css)$/,
];
/**
 * the budget, with room for growth: the 0.1.0 tarball without source maps was 383 files, 1.03 MB packed,
 * 4.2 MB unpacked; with tenants' worlds, snapshots, verify, the report and rate limits, 506 files,
 * 1.30 MB packed, 6.07 MB unpacked (the bundle and the precompiled validators grow with every schema)
 */
const BUDGET = { packedBytes: 1_500_000, unpackedBytes: 7_000_000, files: 580 };

interface DryRun {
  name: string;
  version: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

async function dryRun(): Promise<DryRun> {
  expect(existsSync(`${ROOT}/dist/bin/pix-sandbox.js`), 'dist/ is built (npm run build)').toBe(true);
  const { stdout } = await exec('npm', ['publish', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], {
    cwd: ROOT,
    timeout: 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const parsed = JSON.parse(stdout) as DryRun | Record<string, DryRun>;
  // npm 11 keys the answer by the package's name; npm 10 answers the package itself
  return 'files' in parsed ? (parsed as DryRun) : parsed['pix-sandbox']!;
}

async function changelog(...args: string[]): Promise<string> {
  return (await exec('node', ['scripts/changelog-section.mjs', ...args], { cwd: ROOT, timeout: 30_000 })).stdout.trim();
}

describe('npm publish --dry-run', () => {
  it('publishes the build, the data files, README, LICENSE and CHANGELOG, and nothing else, within the budget', async () => {
    const r = await dryRun();
    const paths = r.files.map((f) => f.path).sort();
    expect(paths.filter((p) => !ALLOWED.some((re) => re.test(p)))).toEqual([]);
    expect(paths.filter((p) => /\.map$|(^|\/)(test|tests|__tests__|bench)\/|\.test\.|^src\//.test(p))).toEqual([]);
    for (const p of [
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'package.json',
      'dist/bin/pix-sandbox.js',
      'dist/src/index.js',
      'dist/src/index.d.ts',
    ])
      expect(paths).toContain(p);
    expect(paths).toContain('dist/src/testcontainers/index.js');
    expect(paths.filter((p) => p.startsWith('fixtures/'))).toEqual(['fixtures/default.json', 'fixtures/example-marketplace.json']);
    console.log(`[publish] ${r.name}@${r.version}: ${r.entryCount} files, ${r.size} bytes packed, ${r.unpackedSize} unpacked`);
    expect({ packedBytes: r.size, unpackedBytes: r.unpackedSize, files: r.entryCount }).toSatisfy(
      (got: typeof BUDGET) =>
        got.packedBytes <= BUDGET.packedBytes && got.unpackedBytes <= BUDGET.unpackedBytes && got.files <= BUDGET.files,
      `within ${JSON.stringify(BUDGET)}`,
    );
  }, 90_000);
});

describe('CHANGELOG.md', () => {
  it("its latest version is package.json's, and that version's section has entries (the release notes)", async () => {
    const { version } = JSON.parse(await readFile(`${ROOT}/package.json`, 'utf8')) as { version: string };
    expect(await changelog('--latest')).toBe(version);
    const notes = await changelog(version);
    expect(notes).toMatch(/^### (Added|Changed|Deprecated|Removed|Fixed|Security)$/m);
    expect(notes).not.toMatch(/^## /m);
  });

  it('keeps an Unreleased section above the versions, and each version has a date', async () => {
    const text = await readFile(`${ROOT}/CHANGELOG.md`, 'utf8');
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(headings[0]).toBe('[Unreleased]');
    for (const h of headings.slice(1)) expect(h).toMatch(/^\[\d+\.\d+\.\d+(-[\w.]+)?\] - \d{4}-\d{2}-\d{2}$/);
  });

  it('a version without a section is refused, naming the versions there are (the release workflow stops on it)', async () => {
    await expect(changelog('99.0.0')).rejects.toThrow(/the section "## \[99\.0\.0\]" is missing \(it has: /);
  });
});
