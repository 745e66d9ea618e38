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
    runDue: async () => {
      for (const w of ctx.workers) await w.runDue();
    },
  };
  return ctx;
}
