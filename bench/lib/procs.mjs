// Child processes for the bench: servers started from built code, waited for until they
// answer, measured from outside (/proc) and stopped. Node's own start-up is part of what
// some figures measure, so every server, the sandbox and its baselines alike, is its own process.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { DEFAULT_CLIENT, ROOT } from './harness.mjs';

/**
 * Starts `node <args>` (or `command <args>`, such as npm) and resolves once it prints a URL
 * ("listening on http://…"), or once `url` answers when the program prints none. Output is kept for
 * error messages.
 */
export function startNode(args, { env = {}, url = null, timeoutMs = 120_000, command = process.execPath, baseEnv = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: ROOT, env: { ...baseEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let done = false;
    const finish = (value, err) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (err) {
        child.kill('SIGKILL');
        reject(err);
      } else resolve(value);
    };
    const handle = (base) => ({
      child,
      url: base,
      startedMs: performance.now() - started,
      output: () => out,
      stop: () => stop(child),
    });
    const timer = setTimeout(() => finish(null, new Error(`${args.join(' ')} did not start within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && !url) finish(handle(m[1]));
    });
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => finish(null, new Error(`${args.join(' ')} exited (${code}) before it answered:\n${out}`)));
    if (url)
      waitForOk(url, timeoutMs).then(
        () => finish(handle(new URL(url).origin)),
        (e) => finish(null, e),
      );
  });
}

/** `npm <args>` in the repository, as a user types it: without the npm_* variables of the `npm run bench` around it. */
export function startNpm(args, opts = {}) {
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_')));
  return startNode(args, { ...opts, command: 'npm', baseEnv });
}

export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(t);
}

/** An access token of the default account from the sandbox at `url`. */
export async function tokenOf(url) {
  const r = await fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEFAULT_CLIENT),
  });
  if (r.status !== 200) throw new Error(`token: ${r.status} ${await r.text()}`);
  return (await r.json()).access_token;
}

/** Polls `url` every 5 ms until it answers 200. */
export async function waitForOk(url, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A TCP port that nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Resident memory (and its peak) of a process, in MB, from /proc; null where there is no /proc. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** The machine, for the record. */
export function machine() {
  const cpu = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1] ?? 'unknown CPU';
  const memKb = Number(readFileSync('/proc/meminfo', 'utf8').match(/^MemTotal:\s+(\d+)/m)?.[1] ?? 0);
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return { cpu, memGb: memKb / 1048576, load };
}
