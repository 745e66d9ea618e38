// `pix-sandbox serve`: options of CONTRACT §13, each also an environment variable.
import type { Argv } from 'yargs';
import { defaultConfig, type Config } from '../config.js';
import { boot } from '../server.js';
import { defaultAccount } from '../services/accounts.js';
import { StoreFileError } from '../store/wal-adapter.js';
import { SandboxError } from '../domain/errors.js';
import { TlsConfigError } from '../http/tls.js';

export function serveOptions<T>(y: Argv<T>) {
  return y
    .option('port', { type: 'number', default: 8080, describe: 'HTTP port (0 picks a free one) [PIX_SANDBOX_PORT]' })
    .option('https-port', { type: 'string', default: '8443', describe: 'HTTPS port, or "off" [PIX_SANDBOX_HTTPS_PORT]' })
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

export function configFromArgs(a: ServeArgs): Config {
  const httpsRaw = String(a['https-port']).toLowerCase();
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
  const { ctx } = running;
  for (const l of running.listeners) console.log(`listening on ${l.url}`);
  const account = defaultAccount(ctx.store);
  if (account)
    console.log(
      `default account: client_id=${account.clientId} client_secret=${config.clientSecret ?? (config.clientId ? '(configured)' : 'sandbox-secret')}`,
    );
  console.log(`data file: ${running.dataFile ?? '(in memory)'}`);
  for (const line of running.notes ?? []) console.log(line);

  let signalled = false;
  const onSignal = (sig: string) => {
    if (signalled) return;
    signalled = true;
    console.log(`received ${sig}, stopping`);
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
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
