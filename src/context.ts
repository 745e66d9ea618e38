// The one object handed to every route module, service and background worker.
import { randomUUID } from 'node:crypto';
import type { Clock } from './clock/clock.js';
import type { Config } from './config.js';
import type { Store } from './store/store.js';

/** Background work that other modules plug in (due-work runner, webhook dispatcher). */
export interface Worker {
  /** runs whatever is due now; resolves when it is committed */
  runDue(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What GET /_sandbox/health reports as readiness (ready when the three checks hold). boot() sets them as
 * start-up and stop go: a sandbox that answers is not necessarily one that is ready for tests.
 */
export interface Readiness {
  /** every listener (HTTP, and HTTPS when on) accepts connections; false again once stop() begins */
  listening: boolean;
  /** the store is open (false once stop() has closed it) */
  storeOpen: boolean;
  /** the fixtures are in the store: loaded into a fresh store, or kept in a reused data file */
  fixturesLoaded: boolean;
  /** stop() has begun */
  stopping: boolean;
}

export interface AppContext {
  config: Config;
  store: Store;
  clock: Clock;
  newId: () => string;
  /** the scheme://host[:port] clients reach the sandbox at (charge locations are built from it) */
  publicUrl: () => string;
  /** set by main/startSandbox once listeners are up */
  setPublicUrl: (url: string) => void;
  /** run every worker's due work now (clock advance, ticks) */
  runDue: () => Promise<void>;
  workers: Worker[];
  /** process start, real time (uptime) */
  startedAtMs: number;
  version: string;
  readiness: Readiness;
}

export function createContext(parts: { config: Config; store: Store; clock: Clock; version: string; startedAtMs: number }): AppContext {
  let url = parts.config.publicUrl ?? `http://${parts.config.host}:${parts.config.port}`;
  const ctx: AppContext = {
    ...parts,
    newId: randomUUID,
    publicUrl: () => url,
    setPublicUrl: (u) => {
      if (!parts.config.publicUrl) url = u;
    },
    workers: [],
    readiness: { listening: false, storeOpen: true, fixturesLoaded: false, stopping: false },
    runDue: async () => {
      for (const w of ctx.workers) await w.runDue();
    },
  };
  return ctx;
}
