// The GitHub Actions workflows (.github/workflows): what issue-level promises they keep (the README's
// test command on every supported Node.js line, the container check, a release that tests first and
// publishes with provenance a multi-architecture image and the changelog's notes, secrets by name
// only), and the workflow linter of `npm run lint` (scripts/lint-workflows.mjs, actionlint) passing
// on them and failing on planted mistakes, so that a linter that stopped checking would be noticed.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packagePath } from '../../src/paths.js';

const exec = promisify(execFile);
const ROOT = packagePath();
const CI = '.github/workflows/ci.yml';
const RELEASE = '.github/workflows/release.yml';

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  uses?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  strategy?: { matrix: Record<string, unknown[]> };
  steps?: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const read = async (file: string) => readFile(path.join(ROOT, file), 'utf8');
const workflow = async (file: string) => parse(await read(file)) as Workflow;
const runs = (job: Job) => (job.steps ?? []).map((s) => s.run ?? '').join('\n');

async function lint(...files: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await exec('node', ['scripts/lint-workflows.mjs', ...files], {
      cwd: ROOT,
      timeout: 60_000,
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

describe('ci.yml', () => {
  it("runs the README's test command on each supported Node.js line, on pull requests and pushes", async () => {
    const ci = await workflow(CI);
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['pull_request', 'push', 'workflow_call']));
    const readme = await read('README.md');
    expect(readme).toContain('npm ci && npm test');
    const test = ci.jobs.test!;
    expect(runs(test)).toMatch(/npm ci\b.*&& npm test/);
    // engines says >=20.19: every major line from 20 to the current LTS
    const { engines } = JSON.parse(await read('package.json')) as { engines: { node: string } };
    expect(engines.node).toBe('>=20.19.0');
    expect(test.strategy!.matrix.node).toEqual([20, 22]);
    expect(runs(test)).toContain('scripts/install-test-tools.sh');
  });

  it('runs the container check (which runs the packed-install test)', async () => {
    const ci = await workflow(CI);
    expect(runs(ci.jobs.container!)).toContain('npm run container:check');
    expect(await read('scripts/container-check.sh')).toContain('npm run --silent test:install');
  });
});

describe('release.yml', () => {
  it('on a version tag: checks the version, runs the CI workflow, then publishes; never before the tests pass', async () => {
    const rel = await workflow(RELEASE);
    expect(rel.on).toEqual({ push: { tags: [expect.stringMatching(/^v/)] } });
    expect(rel.jobs.test!.uses).toBe('./.github/workflows/ci.yml');
    for (const job of ['npm', 'image']) expect(rel.jobs[job]!.needs).toEqual(expect.arrayContaining(['version', 'test']));
    expect(rel.jobs['github-release']!.needs).toEqual(expect.arrayContaining(['npm', 'image']));
    expect(runs(rel.jobs.version!)).toContain('node scripts/changelog-section.mjs');
  });

  it('npm publish with provenance, signed by the workflow identity (id-token: write)', async () => {
    const npm = (await workflow(RELEASE)).jobs.npm!;
    expect(npm.permissions).toMatchObject({ 'id-token': 'write' });
    expect(runs(npm)).toMatch(/npm publish --provenance/);
  });

  it('an amd64 and arm64 image on ghcr.io, tagged with the version, with OCI labels', async () => {
    const image = (await workflow(RELEASE)).jobs.image!;
    expect(image.permissions).toMatchObject({ packages: 'write' });
    const meta = image.steps!.find((s) => s.uses?.startsWith('docker/metadata-action@'))!;
    expect(String(meta.with!.images)).toMatch(/^ghcr\.io\//);
    expect(String(meta.with!.tags)).toContain('type=semver,pattern={{version}}');
    const push = image.steps!.find((s) => s.uses?.startsWith('docker/build-push-action@'))!;
    expect(String(push.with!.platforms).split(',').sort()).toEqual(['linux/amd64', 'linux/arm64']);
    expect(push.with).toMatchObject({ push: true, labels: '${{ steps.meta.outputs.labels }}', tags: '${{ steps.meta.outputs.tags }}' });
  });

  it("the GitHub release's notes are the changelog's section of the version", async () => {
    const job = (await workflow(RELEASE)).jobs['github-release']!;
    expect(runs(job)).toMatch(/node scripts\/changelog-section\.mjs .*> "\$RUNNER_TEMP\/notes\.md"/);
    expect(runs(job)).toMatch(/gh release create .*--notes-file "\$RUNNER_TEMP\/notes\.md"/);
  });
});

describe('both workflows', () => {
  it('name secrets only (NPM_TOKEN, GITHUB_TOKEN), never hold one, and read-only by default', async () => {
    for (const file of [CI, RELEASE]) {
      const text = await read(file);
      const named = [...text.matchAll(/secrets\.(\w+)/g)].map((m) => m[1]);
      expect(named.filter((n) => !['NPM_TOKEN', 'GITHUB_TOKEN'].includes(n!))).toEqual([]);
      expect(text).not.toMatch(/\b(ghp_|gho_|github_pat_|npm_[A-Za-z0-9]{20})/);
      expect((await workflow(file)).permissions).toEqual({ contents: 'read' });
    }
  });
});

describe('the workflow linter (scripts/lint-workflows.mjs, in npm run lint)', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'pix-workflows-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('passes on both workflows, silently', async () => {
    expect(await lint()).toEqual({ code: 0, out: '' });
  }, 60_000);

  it('fails on planted mistakes, naming each: a matrix key, a permission, a job output, an action input, a job', async () => {
    const plant = async (file: string, name: string, edits: [string, string][]) => {
      let text = await read(file);
      for (const [from, to] of edits) {
        expect(text, `the planted edit finds ${from}`).toContain(from);
        text = text.replace(from, to);
      }
      const out = path.join(tmp, name);
      await writeFile(out, text);
      return out;
    };
    const ci = await plant(CI, 'ci.yml', [['node: [20, 22]', 'nodes: [20, 22]']]);
    const rel = await plant(RELEASE, 'release.yml', [
      ['id-token: write', 'id-token: writ'],
      ['needs.version.outputs.version', 'needs.version.outputs.versoin'],
      ['registry-url: https://registry.npmjs.org', 'registry_url: https://registry.npmjs.org'],
      ['needs: [version, npm, image]', 'needs: [version, npm, images]'],
    ]);
    const r = await lint(ci, rel);
    expect(r.code).toBe(1);
    expect(r.out).toContain('property "node" is not defined in object type {nodes: number}');
    expect(r.out).toContain('"writ" is invalid for permission of scope "id-token"');
    expect(r.out).toContain('property "versoin" is not defined in object type {version: string}');
    expect(r.out).toContain('input "registry_url" is not defined in action "actions/setup-node@v4"');
    expect(r.out).toContain('job "github-release" needs job "images" which does not exist in this workflow');
    expect(r.out).toMatch(/lint-workflows: \d+ problem\(s\) in 2 workflow file\(s\)/);
  }, 60_000);

  it('fails when a workflow it is given is missing, rather than linting nothing', async () => {
    const r = await lint(path.join(tmp, 'no-such.yml'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('cannot read');
  }, 60_000);
});
