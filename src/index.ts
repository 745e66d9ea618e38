// The package entry: `import { startSandbox } from 'pix-sandbox'` starts a sandbox in-process
// for a test suite (free port, in-memory store, clock ticking) and hands back typed clients.
import { defaultConfig, type Config } from './config.js';
import { boot, type Running } from './server.js';
import { readFixtures } from './services/seed.js';
import { ControlClient } from './client/control-client.js';
import { PixClient, type Credentials } from './client/public-client.js';

export interface StartSandboxOptions {
  /** HTTP port; default 0 (a free one) */
  port?: number;
  /** address to listen on; default 127.0.0.1 */
  host?: string;
  /** also listen on HTTPS: true for a free port, or a port number; default off */
  https?: boolean | number;
  /** refuse plain HTTP on /v1 and /pix (implies https: true); the returned client then uses HTTPS */
  requireHttps?: boolean;
  /** keep the store in this folder (db.json); default: in memory, gone on stop() */
  dataDir?: string;
  /** fixture file loaded into a fresh store; default the package's fixtures/default.json */
  fixtures?: string;
  /** credentials of the default account; default those of the fixtures (sandbox-client / sandbox-secret) */
  credentials?: Partial<Credentials>;
  adminToken?: string;
  webhookUrl?: string;
  /** seconds between webhook attempts, then dead; default 10, 30, 120, 600, 3600 */
  webhookRetrySchedule?: number[];
  publicUrl?: string;
  /** run the background tick (expiries, settlements, webhook retries by real time); default true */
  tick?: boolean;
  /** seed of ids, payers, end-to-end ids and fault probabilities (docs/configuration.md); default none */
  seed?: number;
  /** any other Config field, for the rare case the options above do not cover */
  config?: Partial<Config>;
}

export interface Sandbox {
  /** http://127.0.0.1:<port> */
  url: string;
  /** https://127.0.0.1:<port>, or null when HTTPS is off */
  httpsUrl: string | null;
  /** the HTTPS certificate (PEM), to pass as `ca` to a client; null when HTTPS is off */
  certificate: string | null;
  /** where that certificate is on disk (for NODE_EXTRA_CA_CERTS in a child process) */
  certificatePath: string | null;
  /** the default account's credentials */
  credentials: Credentials;
  /** the public API, authenticated as the default account */
  client: PixClient;
  /** the control API (/_sandbox) */
  control: ControlClient;
  /** the running server (context, store, listeners), for advanced use */
  running: Running;
  stop(): Promise<void>;
}

async function fixtureCredentials(file: string): Promise<{ client_id: string; client_secret?: string }> {
  const first = (await readFixtures(file)).accounts[0]!;
  return { client_id: first.client_id, ...(first.client_secret === undefined ? {} : { client_secret: first.client_secret }) };
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const httpsOpt = options.https ?? (options.requireHttps ? true : false);
  const httpsPort = httpsOpt === false ? null : httpsOpt === true ? 0 : httpsOpt;
  const config = defaultConfig({
    port: options.port ?? 0,
    httpsPort,
    host: options.host ?? '127.0.0.1',
    memory: options.dataDir === undefined,
    dataDir: options.dataDir ?? '.',
    ...(options.fixtures ? { fixtures: options.fixtures } : {}),
    requireHttps: options.requireHttps ?? false,
    adminToken: options.adminToken ?? null,
    webhookUrl: options.webhookUrl ?? null,
    publicUrl: options.publicUrl ?? null,
    clientId: options.credentials?.client_id ?? null,
    clientSecret: options.credentials?.client_secret ?? null,
    ...(options.webhookRetrySchedule ? { webhookRetrySchedule: options.webhookRetrySchedule } : {}),
    tick: options.tick ?? true,
    seed: options.seed ?? null,
    quiet: true,
    ...options.config,
  });
  const fromFixtures = await fixtureCredentials(config.fixtures);
  const secret = config.clientSecret ?? fromFixtures.client_secret;
  // an export keeps the secret's hash only: whoever loads it knows the secret, and says it
  if (secret === undefined)
    throw new Error(
      `the default account of ${config.fixtures} holds no client_secret in clear (an export keeps only its hash): pass credentials: {client_id, client_secret}`,
    );
  const credentials: Credentials = { client_id: config.clientId ?? fromFixtures.client_id, client_secret: secret };
  const running = await boot(config);
  const url = running.listeners[0]!.url;
  const httpsUrl = running.listeners.find((l) => l.url.startsWith('https:'))?.url ?? null;
  const ca = running.certificate?.pem;
  const apiUrl = config.requireHttps && httpsUrl ? httpsUrl : url;
  return {
    url,
    httpsUrl,
    certificate: ca ?? null,
    certificatePath: running.certificate?.path ?? null,
    credentials,
    client: new PixClient({ baseUrl: apiUrl, credentials, ...(ca ? { ca } : {}) }),
    control: new ControlClient({ baseUrl: url, adminToken: config.adminToken }),
    running,
    stop: () => running.stop(),
  };
}

export { PixClient, ControlClient };
export { NetworkError, SandboxApiError, Transport } from './client/transport.js';
export { waitForSandbox } from './client/wait.js';
export type { WaitOptions, WaitResult } from './client/wait.js';
export type { ErrorDetail, Exchange, RawResponse, RequestOptions, SentRequest, TransportOptions } from './client/transport.js';
export type * from './client/public-client.js';
export type * from './client/control-client.js';
export { verifySignature, DEFAULT_TOLERANCE_SECONDS } from './webhooks/verify.js';
export type { VerifySignatureInput } from './webhooks/verify.js';
export type { Config } from './config.js';
export type { Running } from './server.js';
export type { EventType, TransactionStatus, ChargeStatus, TransferStatus, MerchantStatus, PixKeyType } from './store/model.js';
