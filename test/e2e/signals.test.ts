// Stopping by signal, whichever way the sandbox was started: a CI job or a process manager sends
// SIGTERM (or SIGINT) to the pid it started, and must find no process left and the ports free
// within 5 s, so that the next start does not fail with EADDRINUSE. (The image's stop on SIGTERM
// is checked by scripts/container-check.sh, `npx pix-sandbox serve` by the packed-install test.)
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';
import { launch, leftBehind, listenedPorts, type Launched } from '../helpers/process.js';

const ROOT = packagePath();
const BIN = packagePath('dist', 'bin', 'pix-sandbox.js');
const SERVE = ['--port', '0', '--memory'];
const launched: Launched[] = [];
afterEach(() => launched.splice(0).forEach((l) => l.killGroup()));

async function started(command: string, args: string[]): Promise<{ l: Launched; ports: number[] }> {
  const l = launch(command, args, { cwd: ROOT });
  launched.push(l);
  await l.waitFor(/^data file: /m); // the last line before the certificate's: everything listens
  const ports = listenedPorts(l.out());
  expect(ports, l.out()).toHaveLength(2); // HTTP and, with --port 0, HTTPS on a free port too
  return { l, ports };
}

async function expectAllGone(l: Launched, ports: number[]): Promise<void> {
  const left = await leftBehind(l.pgid, ports, 5000);
  expect(left, l.out()).toEqual({ processes: [], ports: [] });
}

describe('a signal stops the sandbox and leaves nothing behind', () => {
  // a plain `npm start` on a built checkout: the start script finds the build current (scripts/build-state.mjs)
  // and ends; then npm, and the sandbox exec'd in place of npm's shell
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the pid of \`npm start\`: no process left, ports free within 5 s, exit 0`, async () => {
      const { l, ports } = await started('npm', ['start', '--', ...SERVE]);
      process.kill(l.proc.pid!, signal);
      await expectAllGone(l, ports);
      expect(await l.exited).toEqual({ code: 0, signal: null });
      expect(l.out()).toContain(`received ${signal}, stopping`);
    });

    it(`${signal} to the pid of the bin: no process left, ports free within 5 s, exit 0`, async () => {
      const { l, ports } = await started(BIN, ['serve', ...SERVE]);
      process.kill(l.proc.pid!, signal);
      await expectAllGone(l, ports);
      expect(await l.exited).toEqual({ code: 0, signal: null });
    });
  }

  // npx and `npm exec` run the command through a shell that npm spawns: npm passes SIGTERM to that
  // shell, which dies without passing it on; the sandbox notices its parent is gone and stops
  it('SIGTERM to the pid of `npm exec` (npx: npm, a shell, the sandbox): no process left, ports free within 5 s', async () => {
    const { l, ports } = await started('npm', ['exec', '--offline', '-c', `${BIN} serve ${SERVE.join(' ')}`]);
    process.kill(l.proc.pid!, 'SIGTERM');
    await expectAllGone(l, ports);
    expect(l.out()).toContain('the npm process that started it is gone, stopping');
  });

  it('SIGINT to the group of `npm exec`, as Ctrl-C in a terminal sends it: no process left, ports free within 5 s', async () => {
    const { l, ports } = await started('npm', ['exec', '--offline', '-c', `${BIN} serve ${SERVE.join(' ')}`]);
    process.kill(-l.pgid, 'SIGINT');
    await expectAllGone(l, ports);
    expect(l.out()).toContain('received SIGINT, stopping');
  });

  // a supervisor or a test may stop it while it still starts: the signal is heard from before the store
  // opens, and stops the sandbox once it has started (its folder's lock released), not by the signal's default
  it('SIGTERM while it starts (its folder locked, its ports not yet listening): it starts, then stops cleanly, exit 0', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pix-signal-'));
    try {
      const l = launch(BIN, ['serve', '--port', '0', '--data-dir', dir], { cwd: ROOT });
      launched.push(l);
      // its entry in the folder's lock (src/store/lock.ts): written as it takes the folder, before the store opens
      const lock = path.join(dir, 'lock');
      const entries = () => (existsSync(lock) ? readdirSync(lock) : []);
      const deadline = Date.now() + 10_000;
      while (entries().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
      expect(entries(), l.out()).not.toEqual([]);
      expect(l.out(), 'signalled before it printed its start-up lines').not.toMatch(/^data file: /m);
      process.kill(l.proc.pid!, 'SIGTERM');
      expect(await l.exited, l.out()).toEqual({ code: 0, signal: null });
      expect(l.out()).toContain('received SIGTERM, stopping');
      expect(entries(), 'its entry in the lock is removed').toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
