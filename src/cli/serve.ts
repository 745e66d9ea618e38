// `pix-sandbox serve`: its options, each also an environment variable (docs/configuration.md).
import type { Argv } from 'yargs';
import { defaultConfig, envVar, MAX_JOURNAL_SIZE, MAX_SEED, SERVE_OPTIONS, shownDefault, type Config, type ServeFlags } from '../config.js';
import { boot } from '../server.js';
import { ConfigError } from '../config-check.js';
import { StoreFileError } from '../store/data-file.js';
import { FolderLockedError } from '../store/lock.js';
import { SandboxError } from '../domain/errors.js';
import { TlsConfigError } from '../http/tls.js';
import { startupLines } from './banner.js';

export function serveOptions<T>(y: Argv<T>): Argv<T & ServeFlags> {
  // no yargs defaults: a flag that is not given stays undefined, and defaultConfig() fills it in
  let out: Argv<T> = y;
  for (const o of SERVE_OPTIONS)
    out = out.option(o.flag, { type: o.type, describe: `${o.describe} [${envVar(o.flag)}]`, defaultDescription: shownDefault(o) });
  return out as Argv<T & ServeFlags>;
}

export class UsageError extends Error {}

const isPort = (n: number) => Number.isInteger(n) && n >= 0 && n <= 65535;
const list = (raw: string): string[] =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** The flags' own syntax, where it is not the Config value as is. */
const PARSE: { [F in keyof ServeFlags]?: (raw: NonNullable<ServeFlags[F]>) => unknown } = {
  port: (n) => {
    if (!isPort(n)) throw new UsageError(`--port must be a port number (got ${n})`);
    return n;
  },
  'https-port': (raw) => {
    if (raw.toLowerCase() === 'off') return null;
    const n = Number(raw);
    if (!isPort(n) || raw.trim() === '') throw new UsageError(`--https-port must be a port number or "off" (got ${raw})`);
    return n;
  },
  'public-url': (raw) => raw.replace(/\/+$/, ''),
  seed: (n) => {
    if (!Number.isInteger(n) || n < 0 || n > MAX_SEED) throw new UsageError(`--seed must be an integer from 0 to ${MAX_SEED} (got ${n})`);
    return n;
  },
  'journal-size': (n) => {
    if (!Number.isInteger(n) || n < 0 || n > MAX_JOURNAL_SIZE)
      throw new UsageError(`--journal-size must be an integer from 0 to ${MAX_JOURNAL_SIZE} (got ${n})`);
    return n;
  },
  'allowed-hosts': (raw) => list(raw),
  'webhook-hosts': (raw) => list(raw),
  'webhook-retry': (raw) => {
    const schedule = raw.split(',').map((s) => Number(s.trim()));
    if (schedule.some((n) => !Number.isFinite(n) || n < 0))
      throw new UsageError('--webhook-retry must be comma-separated seconds, e.g. 10,30,120');
    return schedule;
  },
};

export function configFromArgs(a: ServeFlags): Config {
  const overrides: Record<string, unknown> = {};
  for (const o of SERVE_OPTIONS) {
    const raw = a[o.flag];
    // an empty value is a setting left out, except the admin token's: an empty one is refused
    // (src/config-check.ts), never taken for an open control API (docs/decisions.md#d69-an-empty-admin-token-refuses-to-start)
    if (raw === undefined || (raw === '' && o.key !== 'adminToken')) continue;
    const parse = PARSE[o.flag] as ((raw: unknown) => unknown) | undefined;
    overrides[o.key] = parse ? parse(raw) : raw;
  }
  // HTTPS follows HTTP unless told otherwise: a free port beside --port 0, so that two sandboxes
  // started with the same flags (--port 0) never collide on the default HTTPS port
  if (overrides.port === 0 && !('httpsPort' in overrides)) overrides.httpsPort = 0;
  return defaultConfig(overrides);
}

export async function serve(config: Config): Promise<void> {
  let running: Awaited<ReturnType<typeof boot>> | undefined;
  let signalled: string | null = null;
  const stop = (why: string) => {
    console.log(`${why}, stopping`);
    const hard = setTimeout(() => {
      console.error('pix-sandbox: could not stop within 5 s');
      process.exit(1);
    }, 4800);
    hard.unref();
    running!.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('pix-sandbox: error while stopping:', e);
        process.exit(1);
      },
    );
  };
  // listened for before the sandbox starts: a signal while it opens its store and its ports (a
  // supervisor giving up, a test stopping it as soon as health answers) stops it cleanly once started
  const onSignal = (why: string) => {
    if (signalled !== null) return;
    signalled = why;
    if (running) stop(why);
  };
  process.on('SIGTERM', () => onSignal('received SIGTERM'));
  process.on('SIGINT', () => onSignal('received SIGINT'));
  try {
    running = await boot(config);
  } catch (e) {
    if (
      e instanceof StoreFileError ||
      e instanceof FolderLockedError ||
      e instanceof SandboxError ||
      e instanceof TlsConfigError ||
      e instanceof ConfigError
    ) {
      console.error(`pix-sandbox: ${e.message}`);
      process.exit(2);
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      console.error(`pix-sandbox: cannot listen: ${(e as Error).message}`);
      process.exit(2);
    }
    console.error('pix-sandbox: failed to start:', e);
    process.exit(1);
  }
  for (const line of startupLines(running, config)) console.log(line);
  if (signalled !== null) return stop(signalled);
  if (process.env.npm_lifecycle_event !== undefined) stopWithNpm(() => onSignal('the npm process that started it is gone'));
}

/**
 * Started through npm (npm start, npx, npm exec), the sandbox runs under the shell npm spawned for the
 * script. npm passes a SIGTERM or SIGINT on to that shell only, and the shell dies without passing it
 * on: the sandbox, re-parented, would keep answering and keep its port. So it watches its parent and
 * stops, as on a signal, when that parent goes. (`npm start` execs the sandbox in place of the shell,
 * so there the signal arrives directly; `npx pix-sandbox` cannot.)
 */
function stopWithNpm(stop: () => void): void {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop();
  }, 200);
  watch.unref();
}
