// Flags and environment variables of `serve` (CONTRACT §13), validated once into a Config.
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
  webhookUrl: string | null;
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
  /** seed of the fault-injection random numbers */
  seed: number;
  /** run the node-cron tick (off in some tests that drive the clock by hand) */
  tick: boolean;
  /** entries kept by the request journal (default 500; 0 turns it off) */
  journalSize?: number;
  quiet: boolean;
}

export const DEFAULT_RETRY_SCHEDULE = [10, 30, 120, 600, 3600];

export const defaultFixturesPath = (): string => packagePath('fixtures', 'default.json');

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
    webhookUrl: null,
    publicUrl: null,
    tlsCert: null,
    tlsKey: null,
    clientId: null,
    clientSecret: null,
    webhookRetrySchedule: DEFAULT_RETRY_SCHEDULE,
    fsync: true,
    seed: 1,
    tick: true,
    quiet: false,
    ...overrides,
  };
}

export const dataFile = (config: Config): string | null => (config.memory ? null : path.resolve(config.dataDir, 'db.json'));
