// The data folder's lock (src/store/lock.ts) judged entry by entry: entries left by processes that
// are gone — dead, killed and not yet reaped, a pid given again to another process, an earlier
// process with our own pid (a container started again), a process of another pid namespace that no
// longer touches its entry — never block a start; an entry of a live holder always does, naming it.
// Two sandboxes of the built command on one folder: test/e2e/data-folder.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderLockedError, lockFolder, type FolderLock, type Holder } from '../../src/store/lock.js';

const FAST = { heartbeatMs: 40, watchMs: 250 };
let folder: string;
let self: Holder;
const children: ChildProcess[] = [];

beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'pix-lock-'));
  // this process's own entry, as a template of what a sandbox writes
  const lock = await lockFolder(folder, FAST);
  self = JSON.parse(await readFile(lock.entry, 'utf8')) as Holder;
  await lock.release();
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await rm(folder, { recursive: true, force: true });
});

/** An entry in the folder's lock, as if another process had written it. */
async function plant(over: Partial<Holder>, name = 'other'): Promise<string> {
  const file = path.join(folder, 'lock', `${name}.json`);
  await writeFile(file, JSON.stringify({ ...self, held: true, since: '2030-01-01T00:00:00.000Z', ...over }));
  return file;
}

const entries = async () => (await readdir(path.join(folder, 'lock'))).sort();
const startOf = async (pid: number) => (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[19]!;

function sleeper(): ChildProcess {
  const c = spawn('sleep', ['30'], { stdio: 'ignore' });
  children.push(c);
  return c;
}

async function refusedBy(expectedPid: number): Promise<FolderLockedError> {
  const e = await lockFolder(folder, FAST).then(
    (l) => l.release().then(() => null),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(FolderLockedError);
  const err = e as FolderLockedError;
  expect(err.holder.pid).toBe(expectedPid);
  expect(err.message).toContain(folder);
  expect(err.message).toContain(`pid ${expectedPid}`);
  return err;
}

async function takes(): Promise<FolderLock> {
  const lock = await lockFolder(folder, FAST);
  expect(await entries()).toEqual([path.basename(lock.entry)]);
  return lock;
}

describe('the data folder lock', () => {
  it('is refused to a second sandbox of this very process, and free again once released', async () => {
    const first = await takes();
    const err = await refusedBy(process.pid);
    expect(err.message).toContain('in use by this process');
    expect(await entries()).toEqual([path.basename(first.entry)]); // the refused start leaves nothing
    await first.release();
    expect(await entries()).toEqual([]);
    await (await takes()).release();
  });

  it('lets exactly one of several sandboxes starting at the same moment take the folder', async () => {
    const tries = await Promise.allSettled(Array.from({ length: 4 }, () => lockFolder(folder, FAST)));
    const won = tries.filter((t) => t.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const t of tries) if (t.status === 'rejected') expect(t.reason).toBeInstanceOf(FolderLockedError);
    await (won[0] as PromiseFulfilledResult<FolderLock>).value.release();
    expect(await entries()).toEqual([]);
  });

  it('is refused while the holder lives, naming its pid', async () => {
    const holder = sleeper();
    await plant({ pid: holder.pid!, processStart: await startOf(holder.pid!), timeOrigin: 1 });
    await refusedBy(holder.pid!);
  });

  it('is taken from a holder that is gone: dead, or killed and not yet reaped by its parent', async () => {
    const dead = spawn('true');
    await new Promise((r) => dead.once('exit', r));
    await plant({ pid: dead.pid!, processStart: '1' }, 'dead');
    // a zombie: its parent (this process) has not reaped it yet, so its pid still answers a signal
    const zombie = spawn('sh', ['-c', 'sleep 30 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(zombie);
    const grandchild = Number((await new Promise<Buffer>((r) => zombie.stdout.once('data', r))).toString());
    await plant({ pid: grandchild, processStart: await startOf(grandchild) }, 'zombie-to-be');
    process.kill(grandchild, 'SIGKILL'); // its parent, sleeping, never reaps it
    await new Promise((r) => setTimeout(r, 100));
    expect((await readFile(`/proc/${grandchild}/stat`, 'utf8')).split(') ')[1]![0]).toBe('Z');
    const lock = await takes();
    await lock.release();
  });

  it('is taken from an entry whose pid now belongs to another process (pid reuse)', async () => {
    const other = sleeper();
    await plant({ pid: other.pid!, processStart: String(Number(await startOf(other.pid!)) - 1000) });
    await (await takes()).release();
  });

  it('is taken from an earlier process that had our pid (a container started again: pid 1 again)', async () => {
    await plant({ pid: process.pid, timeOrigin: self.timeOrigin - 60_000 });
    await (await takes()).release();
  });

  it('from another pid namespace: refused while the holder touches its entry, taken once it stopped', async () => {
    const file = await plant({ pid: 1, pidNamespace: 'pid:[4026532999]', host: 'a-container' });
    const heartbeat = setInterval(() => {
      const now = new Date();
      void utimes(file, now, now);
    }, FAST.heartbeatMs);
    try {
      const err = await refusedBy(1);
      expect(err.message).toContain('a-container');
    } finally {
      clearInterval(heartbeat);
    }
    const t0 = Date.now();
    await (await takes()).release();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(FAST.watchMs);
  });

  it('ignores what is not an entry of a sandbox, and removes an entry that does not parse', async () => {
    await mkdir(path.join(folder, 'lock'), { recursive: true });
    await writeFile(path.join(folder, 'lock', 'broken.json'), '{"pid":');
    await writeFile(path.join(folder, 'lock', 'notes.txt'), 'not an entry');
    const lock = await lockFolder(folder, FAST);
    expect(await entries()).toEqual([path.basename(lock.entry), 'notes.txt'].sort());
    await lock.release();
  });
});
