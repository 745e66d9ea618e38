// A data folder belongs to one sandbox at a time (docs/decisions.md#d55-one-sandbox-per-data-folder).
// Each sandbox that opens the folder writes an entry of its own into `<folder>/lock/`: who it is
// (pid, the process's start, its pid namespace and the machine's boot) and whether it holds the
// folder or is still taking it. A start lists the other entries and judges each:
//   - a process of this pid namespace: alive, and the same process (its start time in /proc, so a
//     pid given again to another process does not count), or gone (a killed process its parent has
//     not reaped yet, a zombie, is gone). Our own pid is ours only if the
//     entry is of this very process (another sandbox in it); otherwise it was a process before us
//     that had this pid (a container started again gets the same pid 1).
//   - a process of another pid namespace (a container beside the host, another container, another
//     machine sharing the folder): its pid says nothing here. Every holder touches its entry every
//     2 s; an entry that has not changed for 5 s is left by a process that is gone.
// Gone entries are removed (they are unique to their process, so a removed one never comes back).
// The folder is ours when no other entry is alive. Two starters that find each other at the same
// moment both step back for a random while and look again; one that finds a holder refuses.
// Entries appear whole (written aside, then renamed), and each starter lists after its own entry
// exists, so of two starters at least one sees the other: never two holders.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, readlink, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FILE_MODE } from './data-file.js';

/** Who holds (or is taking) a data folder. */
export interface Holder {
  pid: number;
  host: string;
  /** the process's start in clock ticks since boot (/proc/<pid>/stat); null where there is no /proc */
  processStart: string | null;
  /** the process's own start instant (performance.timeOrigin): tells this process from an earlier one with its pid */
  timeOrigin: number;
  bootId: string | null;
  pidNamespace: string | null;
  since: string;
  held: boolean;
}

/** Another sandbox holds the folder: the start is refused (exit 2). */
export class FolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: Holder,
  ) {
    const who = holder.pid === process.pid && holder.timeOrigin === performance.timeOrigin ? 'this process' : 'another sandbox';
    super(
      `the data folder ${folder} is in use by ${who} (pid ${holder.pid} on ${holder.host}, since ${holder.since}): ` +
        'give each sandbox a folder of its own (--data-dir), or --memory',
    );
  }
}

export interface FolderLock {
  readonly entry: string;
  release(): Promise<void>;
}

export interface LockTiming {
  /** how often a holder touches its entry */
  heartbeatMs: number;
  /** how long an entry of another pid namespace must stay untouched to count as left behind */
  watchMs: number;
}

const TIMING: LockTiming = { heartbeatMs: 2000, watchMs: 5000 };
const ATTEMPTS = 8;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const readOr = <T>(read: Promise<T>, fallback: T) => read.catch(() => fallback);

/** The state and the start of process `pid`, as /proc tells them (fields 3 and 22 of its stat line, after the command name). */
async function procStat(pid: number): Promise<{ state: string; start: string } | null> {
  const stat = await readOr(readFile(`/proc/${pid}/stat`, 'utf8'), '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.length > 19 ? { state: fields[0]!, start: fields[19]! } : null;
}

async function me(held: boolean): Promise<Holder> {
  return {
    pid: process.pid,
    host: os.hostname(),
    processStart: (await procStat(process.pid))?.start ?? null,
    timeOrigin: performance.timeOrigin,
    bootId: (await readOr(readFile('/proc/sys/kernel/random/boot_id', 'utf8'), '')).trim() || null,
    pidNamespace: await readOr(readlink('/proc/self/ns/pid'), null),
    since: new Date().toISOString(),
    held,
  };
}

type Verdict = 'alive' | 'gone' | 'foreign';

/** Whether the process of an entry is alive, judged from this process (see the top of this file). */
async function judge(h: Holder, self: Holder): Promise<Verdict> {
  if (!Number.isSafeInteger(h.pid) || h.pid <= 0) return 'gone'; // not an entry a sandbox wrote
  if (h.bootId !== self.bootId || h.pidNamespace !== self.pidNamespace) return 'foreign';
  if (h.pid === self.pid) return h.timeOrigin === self.timeOrigin ? 'alive' : 'gone';
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return 'gone'; // EPERM: alive, another user's
  }
  // killed but not yet reaped by its parent (a zombie), or a pid given again to another process
  const now = await procStat(h.pid);
  if (now && (now.state === 'Z' || now.state === 'X')) return 'gone';
  return now && h.processStart !== null && now.start !== h.processStart ? 'gone' : 'alive';
}

/** Writes an entry whole: aside first, then renamed into place (a reader never sees half of it). */
async function writeEntry(file: string, holder: Holder): Promise<void> {
  await writeFile(`${file}.tmp`, JSON.stringify(holder), { mode: FILE_MODE });
  await rename(`${file}.tmp`, file);
}

/** The other entries, judged; null when one vanished while being read (look again). */
async function others(dir: string, mine: string, self: Holder, timing: LockTiming): Promise<Holder[] | null> {
  const alive: Holder[] = [];
  const foreign: { file: string; holder: Holder; mtimeMs: number }[] = [];
  for (const name of await readdir(dir)) {
    const file = path.join(dir, name);
    if (file === mine || !name.endsWith('.json')) continue;
    let holder: Holder;
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(file)).mtimeMs;
      holder = JSON.parse(await readFile(file, 'utf8')) as Holder;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      holder = { pid: 0 } as Holder; // unreadable: not an entry of a sandbox
      mtimeMs = 0;
    }
    const verdict = await judge(holder, self);
    if (verdict === 'alive') alive.push(holder);
    else if (verdict === 'foreign') foreign.push({ file, holder, mtimeMs });
    else await unlink(file).catch(() => undefined);
  }
  if (foreign.length > 0 && alive.length === 0) {
    await sleep(timing.watchMs);
    for (const f of foreign) {
      const now = await readOr(stat(f.file), null);
      if (now === null) return null;
      if (now.mtimeMs !== f.mtimeMs) alive.push(f.holder);
      else await unlink(f.file).catch(() => undefined);
    }
  }
  return alive;
}

/**
 * Takes the data folder `folder` for this sandbox, or throws FolderLockedError naming the holder.
 * Released by release() (at stop); after a crash the next start finds the entry gone (see above).
 */
export async function lockFolder(folder: string, timing: LockTiming = TIMING): Promise<FolderLock> {
  const dir = path.join(folder, 'lock');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const self = await me(false);
  const entry = path.join(dir, `${self.pid}-${randomBytes(6).toString('hex')}.json`);
  await writeEntry(entry, self);
  const heartbeat = setInterval(() => {
    const now = new Date();
    void utimes(entry, now, now).catch(() => undefined);
  }, timing.heartbeatMs);
  heartbeat.unref();
  const release = async () => {
    clearInterval(heartbeat);
    await unlink(entry).catch(() => undefined);
  };
  try {
    for (let attempt = 1; ; attempt++) {
      const alive = await others(dir, entry, self, timing);
      if (alive === null) {
        await sleep(10); // an entry changed while it was read: look again
        continue;
      }
      if (alive.length === 0) {
        await writeEntry(entry, { ...self, held: true });
        return { entry, release };
      }
      const holder = alive.find((h) => h.held);
      if (holder || attempt === ATTEMPTS) throw new FolderLockedError(folder, holder ?? alive[0]!);
      // another sandbox is taking the folder at this very moment: step back, and look again after a while
      await unlink(entry);
      await sleep(20 + Math.random() * 100 * attempt);
      await writeEntry(entry, self);
    }
  } catch (e) {
    await release();
    throw e;
  }
}
