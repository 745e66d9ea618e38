// Starting the sandbox the ways users do (npm start, npx, the bin) as real processes, each in a
// process group of its own, and checking what a stop leaves behind: processes of that group, and
// the ports it listened on.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface Launched {
  proc: ChildProcess;
  /** the process group: the launcher and everything it started */
  pgid: number;
  out(): string;
  /** resolves with the first match once the output shows it; rejects if the process ends first or time runs out */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to the whole group (clean-up after a failed test) */
  killGroup(): void;
  /** SIGTERM to the whole group, SIGKILL after 5 s: a clean stop leaves no temporary files behind */
  stopGroup(): Promise<void>;
}

/** A clean environment: no PIX_SANDBOX_* of the caller, and no npm lifecycle variables of `npm test`. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_') && !k.startsWith('npm_')));
  return { ...env, ...extra };
}

export function launch(command: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Launched {
  // detached: a group of its own, as a CI job or a process manager gives it, so that what it
  // leaves behind can be counted and a SIGINT can go to the group as a terminal sends it
  const proc = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? cleanEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    proc.once('exit', (code, signal) => r({ code, signal })),
  );
  let ended = false;
  void exited.then(() => (ended = true));
  return {
    proc,
    pgid: proc.pid!,
    out: () => out,
    async waitFor(re, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(out);
        if (m) return m;
        if (ended) throw new Error(`the process ended before printing ${re}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`no ${re} within ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    exited,
    killGroup,
    async stopGroup() {
      if (ended) return;
      try {
        process.kill(-proc.pid!, 'SIGTERM');
      } catch {
        return; // already gone
      }
      const timer = setTimeout(killGroup, 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  function killGroup(): void {
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The processes of a group still running, from /proc (zombies, already dead, are not counted). */
async function groupMembers(pgid: number): Promise<string[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const out: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after its last ")"
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') out.push(`${pid} ${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`);
  }
  return out;
}

function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/**
 * Waits (up to `withinMs`) until no process of the group runs and every port is free again;
 * resolves with what was still there at the end (empty lists when all is gone).
 */
export async function leftBehind(pgid: number, ports: number[], withinMs: number): Promise<{ processes: string[]; ports: number[] }> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const processes = groupAlive(pgid) ? await groupMembers(pgid) : [];
    const taken: number[] = [];
    for (const p of ports) if (!(await portFree(p))) taken.push(p);
    if ((processes.length === 0 && taken.length === 0) || Date.now() > deadline) return { processes, ports: taken };
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The ports of the "listening on <url>" lines of `serve`. */
export function listenedPorts(out: string): number[] {
  return [...out.matchAll(/listening on https?:\/\/[^\s:]+:(\d+)/g)].map((m) => Number(m[1]));
}
