// `pix-sandbox serve`: its options, each also an environment variable (docs/configuration.md).
import type { Argv } from 'yargs';
import { defaultConfig, type Config } from '../config.js';
import { boot } from '../server.js';
import { StoreFileError } from '../store/wal-adapter.js';
import { SandboxError } from '../domain/errors.js';
import { TlsConfigError } from '../http/tls.js';
import { startupLines } from './banner.js';

export function serveOptions<T>(y: Argv<T>) {
  return y
    .option('port', { type: 'number', default: 8080, describe: 'HTTP port (0 picks a free one) [PIX_SANDBOX_PORT]' })
    .option('https-port', {
      type: 'string',
      describe: 'HTTPS port, or "off" (default 8443; with --port 0, a free port too) [PIX_SANDBOX_HTTPS_PORT]',
    })
    .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on [PIX_SANDBOX_HOST]' })
    .option('data-dir', { type: 'string', default: './.pix-sandbox', describe: 'folder of db.json [PIX_SANDBOX_DATA_DIR]' })
    .option('memory', { type: 'boolean', default: false, describe: 'keep everything in memory, no file [PIX_SANDBOX_MEMORY]' })
    .option('fixtures', { type: 'string', describe: 'fixture file loaded into a fresh store [PIX_SANDBOX_FIXTURES]' })
    .option('require-https', {
      type: 'boolean',
      default: false,
      describe: 'refuse plain HTTP API calls with 403 HTTPS_REQUIRED [PIX_SANDBOX_REQUIRE_HTTPS]',
    })
    .option('admin-token', { type: 'string', describe: 'protect /_sandbox with this x-sandbox-admin-token [PIX_SANDBOX_ADMIN_TOKEN]' })
    .option('webhook-url', { type: 'string', describe: 'register a webhook endpoint for the default account [PIX_SANDBOX_WEBHOOK_URL]' })
    .option('public-url', { type: 'string', describe: 'scheme://host:port clients use (charge locations) [PIX_SANDBOX_PUBLIC_URL]' })
    .option('tls-cert', { type: 'string', describe: 'PEM certificate for HTTPS (generated when absent) [PIX_SANDBOX_TLS_CERT]' })
    .option('tls-key', { type: 'string', describe: 'PEM private key for HTTPS [PIX_SANDBOX_TLS_KEY]' })
    .option('client-id', { type: 'string', describe: 'override the default account client_id [PIX_SANDBOX_CLIENT_ID]' })
    .option('client-secret', { type: 'string', describe: 'override the default account client_secret [PIX_SANDBOX_CLIENT_SECRET]' })
    .option('webhook-retry', {
      type: 'string',
      describe: 'retry schedule in seconds, comma-separated (default 10,30,120,600,3600) [PIX_SANDBOX_WEBHOOK_RETRY]',
    })
    .option('fsync', { type: 'boolean', default: true, describe: 'fsync each group commit [PIX_SANDBOX_FSYNC]' })
    .option('seed', { type: 'number', default: 1, describe: 'seed of fault-injection randomness [PIX_SANDBOX_SEED]' });
}

type ServeArgs = Awaited<ReturnType<typeof serveOptions>['argv']>;

export class UsageError extends Error {}

/**
 * HTTPS follows HTTP unless told otherwise: 8443 beside a fixed --port, a free port beside --port 0,
 * so that two sandboxes started with the same flags (--port 0) never collide on 8443.
 */
export function httpsPortDefault(port: number): string {
  return port === 0 ? '0' : '8443';
}

export function configFromArgs(a: ServeArgs): Config {
  const httpsRaw = String(a['https-port'] ?? httpsPortDefault(a.port)).toLowerCase();
  const httpsPort = httpsRaw === 'off' ? null : Number(httpsRaw);
  if (httpsPort !== null && (!Number.isInteger(httpsPort) || httpsPort < 0 || httpsPort > 65535))
    throw new UsageError(`--https-port must be a port number or "off" (got ${a['https-port']})`);
  if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535) throw new UsageError(`--port must be a port number (got ${a.port})`);
  let schedule: number[] | undefined;
  if (a['webhook-retry']) {
    schedule = String(a['webhook-retry'])
      .split(',')
      .map((s) => Number(s.trim()));
    if (schedule.some((n) => !Number.isFinite(n) || n < 0))
      throw new UsageError('--webhook-retry must be comma-separated seconds, e.g. 10,30,120');
  }
  return defaultConfig({
    port: a.port,
    httpsPort,
    host: a.host,
    dataDir: a['data-dir'],
    memory: a.memory,
    ...(a.fixtures ? { fixtures: a.fixtures } : {}),
    requireHttps: a['require-https'],
    adminToken: a['admin-token'] ?? null,
    webhookUrl: a['webhook-url'] ?? null,
    publicUrl: a['public-url']?.replace(/\/+$/, '') ?? null,
    tlsCert: a['tls-cert'] ?? null,
    tlsKey: a['tls-key'] ?? null,
    clientId: a['client-id'] ?? null,
    clientSecret: a['client-secret'] ?? null,
    ...(schedule ? { webhookRetrySchedule: schedule } : {}),
    fsync: a.fsync,
    seed: a.seed,
  });
}

export async function serve(config: Config): Promise<void> {
  let running;
  try {
    running = await boot(config);
  } catch (e) {
    if (e instanceof StoreFileError || e instanceof SandboxError || e instanceof TlsConfigError) {
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

  let signalled = false;
  const onSignal = (why: string) => {
    if (signalled) return;
    signalled = true;
    console.log(`${why}, stopping`);
    const hard = setTimeout(() => {
      console.error('pix-sandbox: could not stop within 5 s');
      process.exit(1);
    }, 4800);
    hard.unref();
    running.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error('pix-sandbox: error while stopping:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('received SIGTERM'));
  process.on('SIGINT', () => onSignal('received SIGINT'));
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
