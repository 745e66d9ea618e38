// `npm start` builds only when dist/ is not a build of the sources as they are
// (scripts/build-state.mjs, docs/contributing.md#run): run here in a copy of the script in a temp
// project whose build is a stand-in that counts its runs, so the checks never touch this checkout.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';

let dir: string;
const BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync('builds.txt', 'x');
if (process.env.EDIT_DURING_BUILD) writeFileSync('src/a.ts', 'export const a = 3;\\n');
if (process.env.FAIL_BUILD) process.exit(1);
mkdirSync('dist/bin', { recursive: true });
writeFileSync('dist/bin/pix-sandbox.js', '');
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-build-state-'));
  await mkdir(path.join(dir, 'scripts'));
  await mkdir(path.join(dir, 'src', 'deep'), { recursive: true });
  await copyFile(packagePath('scripts', 'build-state.mjs'), path.join(dir, 'scripts', 'build-state.mjs'));
  await writeFile(path.join(dir, 'scripts', 'stand-in-build.mjs'), BUILD);
  const build = 'node scripts/build-state.mjs begin && node scripts/stand-in-build.mjs && node scripts/build-state.mjs end';
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'stand-in', private: true, scripts: { build } }));
  await writeFile(path.join(dir, 'tsconfig.json'), '{}');
  await writeFile(path.join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(path.join(dir, 'src', 'deep', 'b.ts'), 'export const b = 1;\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `node scripts/build-state.mjs ensure`, as npm start runs it first: its exit code, what it said, and the builds so far. */
async function ensure(env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['scripts/build-state.mjs', 'ensure'], {
    cwd: dir,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const builds = (await readFile(path.join(dir, 'builds.txt'), 'utf8').catch(() => '')).length;
  return { code: r.status, said: r.stderr, builds };
}

describe('build only when the sources changed', () => {
  it('builds when there is no build, then not again while nothing changed', async () => {
    expect(await ensure()).toMatchObject({ code: 0, said: expect.stringContaining('there is no complete build in dist/'), builds: 1 });
    expect(await ensure()).toEqual({ code: 0, said: '', builds: 1 });
  });

  it('builds again, saying why, after a source changed or a file was added in src/, a tsconfig or the build script', async () => {
    let builds = (await ensure()).builds;
    for (const [file, text] of [
      ['src/a.ts', 'export const a = 2;\n'],
      ['src/deep/c.ts', 'export const c = 1;\n'],
      ['tsconfig.json', '{"compilerOptions":{}}'],
      ['scripts/stand-in-build.mjs', `${BUILD}// changed\n`],
    ]) {
      await writeFile(path.join(dir, file!), text!);
      expect(await ensure(), file).toEqual({
        code: 0,
        said: expect.stringContaining('the sources changed since dist/ was built'),
        builds: ++builds,
      });
      expect(await ensure(), file).toEqual({ code: 0, said: '', builds });
    }
  });

  it('a failed build fails the start and is not taken for a build: the next start builds again', async () => {
    await writeFile(path.join(dir, 'src', 'a.ts'), 'export const a = 4;\n');
    const failed = await ensure({ FAIL_BUILD: '1' });
    expect(failed.code).not.toBe(0);
    const next = await ensure();
    expect(next).toMatchObject({ code: 0, builds: failed.builds + 1 });
  });

  it('a build records the sources as they were when it began: an edit made during it is built next time', async () => {
    await writeFile(path.join(dir, 'src', 'a.ts'), 'export const a = 5;\n');
    const during = await ensure({ EDIT_DURING_BUILD: '1' });
    expect(during.code).toBe(0);
    expect(await ensure()).toMatchObject({ code: 0, said: expect.stringContaining('the sources changed'), builds: during.builds + 1 });
  });
});
