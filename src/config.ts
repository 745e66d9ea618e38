// The sandbox's settings and their defaults, in one place: defaultConfig() holds every default, and
// SERVE_OPTIONS names the flag and environment variable of each one that `serve` takes. The CLI's
// options, their help, and the table of docs/configuration.md#serve-options are read from here (a test
// checks that the table agrees).
import path from 'node:path';
import { packagePath } from './paths.js';

export interface Config {
  port: number;
  /** null when HTTPS is off */
  httpsPort: number | null;
  host: string;
  dataDir: string;
  memory: boolean;
  fixtures: string;
  requireHttps: boolean;
  adminToken: string | null;
  /**
   * Host names the control API and the dashboard answer beside IP addresses, localhost and
   * single-label names (docs/security.md#cross-site-requests): exact, or `*.example.com`
   */
  allowedHosts: string[];
  webhookUrl: string | null;
  /** where webhooks may go (docs/webhooks.md#where-webhooks-may-go): names, `*.` wildcards, IPs, CIDR blocks; null: anywhere */
  webhookHosts: string[] | null;
  /** the scheme+host[:port] that charge locations use; derived from the listener when absent */
  publicUrl: string | null;
  tlsCert: string | null;
  tlsKey: string | null;
  /** overrides of the default (first fixture) account's credentials */
  clientId: string | null;
  clientSecret: string | null;
  /** seconds between webhook attempts, then dead */
  webhookRetrySchedule: number[];
  fsync: boolean;
  /** seed of every id, payer, end-to-end id and fault draw; null: ids are crypto UUIDs, the rest randomly seeded */
  seed: number | null;
  /** run the node-cron tick (off in some tests that drive the clock by hand) */
  tick: boolean;
  /** entries the request journal keeps per tenant (docs/control-api.md#request-journal); 0 turns it off */
  journalSize: number;
  quiet: boolean;
}

/** a journal of more entries per tenant would hold gigabytes (each keeps up to 64 KiB: docs/configuration.md#serve-options) */
export const MAX_JOURNAL_SIZE = 1_000_000;

/** seeds are 32-bit (the generators' state) */
export const MAX_SEED = 2 ** 32 - 1;

export const DEFAULT_RETRY_SCHEDULE = [10, 30, 120, 600, 3600];

const defaultFixturesPath = (): string => packagePath('fixtures', 'default.json');

export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 8080,
    httpsPort: 8443,
    host: '127.0.0.1',
    dataDir: './.pix-sandbox',
    memory: false,
    fixtures: defaultFixturesPath(),
    requireHttps: false,
    adminToken: null,
    allowedHosts: [],
    webhookUrl: null,
    webhookHosts: null,
    publicUrl: null,
    tlsCert: null,
    tlsKey: null,
    clientId: null,
    clientSecret: null,
    webhookRetrySchedule: DEFAULT_RETRY_SCHEDULE,
    fsync: true,
    seed: null,
    tick: true,
    journalSize: 10_000,
    quiet: false,
    ...overrides,
  };
}

export const dataFile = (config: Config): string | null => (config.memory ? null : path.resolve(config.dataDir, 'db.json'));

/** Every serve option is also the environment variable PIX_SANDBOX_<FLAG> (yargs' .env() reads them). */
const ENV_PREFIX = 'PIX_SANDBOX';
export const envVar = (flag: string): string => `${ENV_PREFIX}_${flag.toUpperCase().replace(/-/g, '_')}`;

export interface ServeOption {
  /** kebab-case, without the dashes */
  flag: string;
  /** the Config field it sets */
  key: keyof Config;
  type: 'number' | 'string' | 'boolean';
  describe: string;
  /** the default in words, where defaultConfig()'s value is not what a user reads (null, a computed path) */
  shown?: string;
}

export const SERVE_OPTIONS = [
  { flag: 'port', key: 'port', type: 'number', describe: 'HTTP port (0 picks a free one)' },
  {
    flag: 'https-port',
    key: 'httpsPort',
    type: 'string',
    describe: 'HTTPS port, or "off" (with --port 0, a free port too)',
    shown: '8443; a free port with --port 0',
  },
  { flag: 'host', key: 'host', type: 'string', describe: 'address to listen on' },
  { flag: 'data-dir', key: 'dataDir', type: 'string', describe: 'folder of db.json' },
  { flag: 'memory', key: 'memory', type: 'boolean', describe: 'keep everything in memory, no file' },
  {
    flag: 'fixtures',
    key: 'fixtures',
    type: 'string',
    describe: 'fixture file loaded into a fresh store',
    shown: "the package's fixtures/default.json",
  },
  { flag: 'require-https', key: 'requireHttps', type: 'boolean', describe: 'refuse plain HTTP API calls with 403 HTTPS_REQUIRED' },
  { flag: 'admin-token', key: 'adminToken', type: 'string', describe: 'protect /_sandbox with this x-sandbox-admin-token' },
  {
    flag: 'allowed-hosts',
    key: 'allowedHosts',
    type: 'string',
    describe: 'comma-separated host names the control API and dashboard answer, beyond IPs, localhost and one-label names',
  },
  { flag: 'webhook-url', key: 'webhookUrl', type: 'string', describe: 'register a webhook endpoint for the default account' },
  {
    flag: 'webhook-hosts',
    key: 'webhookHosts',
    type: 'string',
    describe: 'comma-separated hosts, *.wildcards, IPs and CIDR blocks webhooks may reach',
    shown: 'any',
  },
  {
    flag: 'public-url',
    key: 'publicUrl',
    type: 'string',
    describe: 'scheme://host:port clients use (charge locations)',
    shown: "the HTTP listener's URL",
  },
  { flag: 'tls-cert', key: 'tlsCert', type: 'string', describe: 'PEM certificate for HTTPS', shown: 'generated' },
  { flag: 'tls-key', key: 'tlsKey', type: 'string', describe: 'PEM private key for HTTPS', shown: 'generated' },
  {
    flag: 'client-id',
    key: 'clientId',
    type: 'string',
    describe: 'override the default account client_id',
    shown: 'from the fixtures (sandbox-client)',
  },
  {
    flag: 'client-secret',
    key: 'clientSecret',
    type: 'string',
    describe: 'override the default account client_secret',
    shown: 'from the fixtures (sandbox-secret)',
  },
  { flag: 'webhook-retry', key: 'webhookRetrySchedule', type: 'string', describe: 'retry schedule in seconds, comma-separated' },
  { flag: 'fsync', key: 'fsync', type: 'boolean', describe: 'fsync each group commit' },
  {
    flag: 'journal-size',
    key: 'journalSize',
    type: 'number',
    describe: 'requests the journal keeps per tenant, newest first (0 turns the journal off)',
  },
  {
    flag: 'seed',
    key: 'seed',
    type: 'number',
    describe: 'seed of ids, payers, end-to-end ids and fault probabilities: a fresh sandbox then answers the same calls alike',
  },
] as const satisfies readonly ServeOption[];

type FlagValue<O> = O extends { type: 'number' } ? number : O extends { type: 'boolean' } ? boolean : string;
/** What yargs parses from the flags and variables: only what was given (defaults come from defaultConfig). */
export type ServeFlags = { [O in (typeof SERVE_OPTIONS)[number] as O['flag']]?: FlagValue<O> };

/** The default as help and the docs show it. */
export function shownDefault(option: ServeOption): string {
  if (option.shown !== undefined) return option.shown;
  const value = defaultConfig()[option.key];
  if (Array.isArray(value)) return value.length > 0 ? value.join(',') : 'none';
  return value === null || value === undefined ? 'none' : String(value);
}
