// Boots a sandbox: store, fixtures, context, workers and listeners. Shared by the CLI's
// `serve` and the programmatic startSandbox(); never exits the process itself.
import http from 'node:http';
import type https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { createClock, realClock } from './clock/clock.js';
import { startTicker } from './clock/ticker.js';
import { dataFile, type Config } from './config.js';
import { checkConfig } from './config-check.js';
import { createContext, type AppContext } from './context.js';
import { loadTls, type TlsMaterial } from './http/tls.js';
import { httpsModule } from './lazy-builtins.js';
import { packageVersion } from './paths.js';
import { hashFixtureSecrets, isEmpty, readFixtures, seed, withConfiguredCredentials } from './services/seed.js';
import { openDataFolder, type DataFolder } from './store/data-folder.js';
import { Store } from './store/store.js';
import { dueWorker } from './services/due-work.js';
import { startWebhooks } from './webhooks/dispatcher.js';

interface Listener {
  url: string;
  server: http.Server | https.Server;
}

export interface Running {
  ctx: AppContext;
  listeners: Listener[];
  dataFile: string | null;
  /** extra lines for the start-up banner (certificate path, ...) */
  notes?: string[];
  /** the HTTPS certificate clients must trust (null when HTTPS is off) */
  certificate?: { path: string; pem: string } | null;
  /** stop accepting, finish in-flight requests, flush, release everything */
  stop(): Promise<void>;
}

/** The data folder taken for this sandbox (none with --memory), and the store opened in it. */
async function openStore(config: Config, now: () => string): Promise<{ store: Store; folder: DataFolder | null }> {
  const file = dataFile(config);
  const folder = file ? await openDataFolder(config.dataDir) : null;
  try {
    return { store: await Store.open({ file, fsync: config.fsync, now }), folder };
  } catch (e) {
    await folder?.release();
    throw e;
  }
}

async function loadFixtures(ctx: AppContext, fixturesFile: string): Promise<void> {
  const fixtures = withConfiguredCredentials(await readFixtures(fixturesFile), ctx.config);
  const hashes = await hashFixtureSecrets(fixtures);
  await ctx.store.commit((tx) => seed(tx, fixtures, hashes, ctx.clock.nowIso(), ctx.newId));
}

function listen(server: http.Server | https.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * What only the project's own tools set, never a user (no flag, no variable, no option of startSandbox()):
 * the bench's baseline process turns the cross-site checks off to measure what they cost.
 */
export interface BootInternals {
  crossSiteChecks?: boolean;
}

export async function boot(config: Config, internals: BootInternals = {}): Promise<Running> {
  checkConfig(config); // a setting it cannot start with stops it before anything is opened
  const startedAtMs = realClock.nowMs();
  let store: Store | null = null;
  const clock = createClock(() => store?.meta.clockOffsetMs ?? 0);
  const opened = await openStore(config, () => clock.nowIso());
  store = opened.store;
  const freshStore = isEmpty(store);
  const ctx = createContext({ config, store, clock, version: packageVersion(), startedAtMs, freshStore });
  let tlsMaterial: TlsMaterial | null = null;
  const listeners: Listener[] = [];
  /** what boot() opened besides the listeners: on stop, and when a start fails half-way */
  const release = async () => {
    try {
      for (const w of ctx.workers) await w.stop();
      await ctx.store.close();
      ctx.readiness.storeOpen = false;
    } finally {
      await opened.folder?.release(); // a store that could not close is no reason to hold the folder
    }
    await tlsMaterial?.cleanup();
  };
  const notes: string[] = [...(opened.folder?.notes ?? [])];
  const urlOf = (scheme: string, addr: AddressInfo) => {
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    return `${scheme}://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${addr.port}`;
  };
  try {
    if (freshStore) await loadFixtures(ctx, config.fixtures);
    ctx.readiness.fixturesLoaded = true;
    // first among the workers, so that the events of due transitions go out in the same runDue()
    ctx.workers.push(dueWorker(ctx));
    notes.push(...(await startWebhooks(ctx)));
    // before anything listens, so that a bad --tls-cert fails start-up cleanly
    tlsMaterial = config.httpsPort === null ? null : await loadTls(config);
    const app = createApp(ctx, internals);
    const server = http.createServer({ keepAliveTimeout: 5000 }, app);
    const url = urlOf('http', await listen(server, config.port, config.host));
    ctx.setPublicUrl(url);
    listeners.push({ url, server });
    if (tlsMaterial && config.httpsPort !== null) {
      const secure = httpsModule().createServer({ cert: tlsMaterial.cert, key: tlsMaterial.key, keepAliveTimeout: 5000 }, app);
      const httpsUrl = urlOf('https', await listen(secure, config.httpsPort, config.host));
      listeners.push({ url: httpsUrl, server: secure });
      // plain HTTP would refuse the charge location, so codes point at the HTTPS listener
      if (config.requireHttps) ctx.setPublicUrl(httpsUrl);
      notes.push(
        `certificate: ${tlsMaterial.certPath}${tlsMaterial.generated ? ' (generated; trust it with NODE_EXTRA_CA_CERTS or curl --cacert)' : ''}`,
      );
    }
  } catch (e) {
    // a start that fails half-way releases what it opened, so that a caller that carries on leaks nothing
    await Promise.all(listeners.map((l) => new Promise<void>((r) => l.server.close(() => r()))));
    await release();
    throw e;
  }
  const ticker = config.tick ? startTicker(ctx) : null;
  ctx.readiness.listening = true;

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      ctx.readiness.stopping = true;
      ctx.readiness.listening = false;
      ctx.changeFeed?.close(); // open change streams would hold their connections until the force timer
      const closing = listeners.map((l) => new Promise<void>((r) => l.server.close(() => r())));
      // keep-alive connections go idle as their last response is sent: close them as they do,
      // so that a drained server exits at once instead of waiting for the force timer
      const sweep = setInterval(() => listeners.forEach((l) => l.server.closeIdleConnections()), 25);
      for (const l of listeners) l.server.closeIdleConnections();
      const force = setTimeout(() => listeners.forEach((l) => l.server.closeAllConnections()), 3000);
      await Promise.all(closing);
      clearInterval(sweep);
      clearTimeout(force);
      await ticker?.stop();
      await release();
    })());
  const certificate = tlsMaterial ? { path: tlsMaterial.certPath, pem: tlsMaterial.cert } : null;
  return { ctx, listeners, dataFile: store.file, notes, certificate, stop };
}
