// The package as a team installs it: the repository cloned (only committed files count), packed
// with `npm pack` (which builds it: prepack), the tarball installed into an empty project, and there
// the bin through npx, `pix-sandbox wait`, the import, a type-check with skipLibCheck: false, and the
// Testcontainers module against a container engine. Run by the container phase of CI (npm run
// test:install from scripts/container-check.sh, once the image is built and podman serves its
// Docker-compatible API), not by npm test: it needs the image. Needs PIX_SANDBOX_IMAGE and DOCKER_HOST.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { cleanEnv, launch, leftBehind, listenedPorts, type Launched } from '../helpers/process.js';

const exec = promisify(execFile);
const ROOT = packagePath();
const CONSUMER = path.join(ROOT, 'test/install/consumer');
const keep = process.env.PIX_SANDBOX_KEEP_INSTALL_DIR === '1';
let work: string;
let app: string;
let tarball: string;
const launched: Launched[] = [];

/** A command in a folder, with the output kept for the failure message; rejects on a non-zero exit. */
async function sh(cwd: string, command: string, args: string[], env: Record<string, string> = {}) {
  try {
    const r = await exec(command, args, { cwd, env: cleanEnv(env), maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
    return r.stdout + r.stderr;
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`, {
      cause: e,
    });
  }
}

/** The version of a dev dependency as installed here, so the consumer gets the same from the npm cache. */
async function installedVersion(name: string): Promise<string> {
  const { version } = JSON.parse(await sh(ROOT, 'node', ['-p', `JSON.stringify(require('${name}/package.json'))`])) as { version: string };
  return version;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'pix-sandbox-install-'));
  const clone = path.join(work, 'clone');
  const head = (await sh(ROOT, 'git', ['rev-parse', 'HEAD'])).trim();
  await sh(work, 'git', ['clone', '--quiet', '--no-checkout', ROOT, clone]);
  await sh(clone, 'git', ['checkout', '--quiet', '--detach', head]);
  // the npm cache that `npm ci` filled answers; the registry is there for anything missing
  await sh(clone, 'npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error']);
  const packed = await sh(clone, 'npm', ['pack', '--pack-destination', work, '--loglevel=error']);
  tarball = path.join(work, packed.trim().split('\n').pop()!.trim());
  app = path.join(work, 'app');
  await sh(work, 'mkdir', [app]);
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }, null, 2));
  for (const f of ['tsconfig.json', 'app.ts', 'containers.ts']) await copyFile(path.join(CONSUMER, f), path.join(app, f));
  const [ts, node, tc] = await Promise.all(['typescript', '@types/node', 'testcontainers'].map(installedVersion));
  await sh(app, 'npm', [
    'install',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    tarball,
    `typescript@${ts}`,
    `@types/node@${node}`,
    `testcontainers@${tc}`,
  ]);
}, 900_000);

afterAll(async () => {
  await Promise.all(launched.splice(0).map((l) => l.stopGroup()));
  if (keep) console.log(`[install] kept ${work}`);
  else if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed package, installed into an empty project', () => {
  it('the tarball holds the build (dist/), the data files and no sources or tests', async () => {
    const list = await sh(work, 'tar', ['-tzf', tarball]);
    for (const f of [
      'package/dist/src/index.js',
      'package/dist/src/index.d.ts',
      'package/dist/bin/pix-sandbox.js',
      'package/dist/src/testcontainers/index.js',
      'package/fixtures/default.json',
      'package/scenarios/charge-paid.yaml',
      'package/ui/index.html',
    ])
      expect(list).toContain(f);
    expect(list).not.toMatch(/^package\/(src|test|bench)\//m);
    expect(await readdir(path.join(app, 'node_modules', 'pix-sandbox', 'dist'))).toEqual(['bin', 'src']);
  });

  it('`npx pix-sandbox serve --port 0` starts, `npx pix-sandbox wait` sees it ready, the shipped scenarios run, SIGTERM to npx leaves nothing', async () => {
    const l = launch('npx', ['--no-install', 'pix-sandbox', 'serve', '--port', '0', '--memory'], { cwd: app });
    launched.push(l);
    const [, url] = await l.waitFor(/listening on (http:\/\/\S+)/);
    const ready = await sh(app, 'npx', ['--no-install', 'pix-sandbox', 'wait', '--base-url', url!, '--timeout', '30']);
    expect(ready).toContain(`${url!} is ready`);
    await l.waitFor(/^data file: /m);
    const ports = listenedPorts(l.out());
    expect(ports).toHaveLength(2);
    const run = await sh(app, 'npx', ['--no-install', 'pix-sandbox', 'scenario', 'run', '--shipped', '--base-url', url!]);
    expect(run).toMatch(/(\d+) passed, 0 failed, \1 total/);
    process.kill(l.proc.pid!, 'SIGTERM');
    expect(await leftBehind(l.pgid, ports, 5000), l.out()).toEqual({ processes: [], ports: [] });
  });

  it('`pix-sandbox wait` against nothing exits 1 after the timeout, saying what it saw', async () => {
    await expect(
      sh(app, 'npx', ['--no-install', 'pix-sandbox', 'wait', '--base-url', 'http://127.0.0.1:9', '--timeout', '1']),
    ).rejects.toThrow(/was not ready after 1 s .*last seen: connection refused/);
  });

  it("a TypeScript consumer type-checks with skipLibCheck: false (both entry points), and `import { startSandbox } from 'pix-sandbox'` runs", async () => {
    await sh(app, 'npx', ['--no-install', 'tsc', '-p', '.']);
    const out = JSON.parse((await sh(app, 'node', ['out/app.js'])).trim()) as Record<string, unknown>;
    expect(out).toEqual({ ready: true, balance: expect.any(Number), clock: 'string' });
  });

  it('the Testcontainers module starts the image, waits for readiness, and webhooks reach a server on the host', async () => {
    const image = process.env.PIX_SANDBOX_IMAGE;
    expect(image, 'PIX_SANDBOX_IMAGE names the image to test (scripts/container-check.sh sets it)').toBeTruthy();
    expect(process.env.DOCKER_HOST, 'DOCKER_HOST names the engine (podman system service in CI)').toBeTruthy();
    await sh(app, 'npx', ['--no-install', 'tsc', '-p', '.']); // out/containers.js, should this test run alone
    const passOn = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k === 'DOCKER_HOST' || k.startsWith('TESTCONTAINERS_') || k === 'SSHD_CONTAINER_IMAGE'),
    ) as Record<string, string>;
    const out = JSON.parse(
      (await sh(app, 'node', ['out/containers.js'], { ...passOn, PIX_SANDBOX_IMAGE: image! })).trim().split('\n').pop()!,
    ) as Record<string, unknown>;
    console.log(`[install] Testcontainers: started and ready in ${String(out.startMs)} ms`);
    expect(out).toMatchObject({
      credentials: 'install-client',
      webhook: 'cashin.created',
      controlWithout: 401,
      controlWith: 200,
      httpsStatus: 200,
    });
    expect(out.webhookUrl).toMatch(/^http:\/\/host\.testcontainers\.internal:\d+\/hooks$/);
  });
});
