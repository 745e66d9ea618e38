// The one object handed to every route module, service and background worker. It also holds each
// sandbox's runtime state that is not data (journal, random source, caches, the reset lock), so that
// two sandboxes in one process share nothing and a stopped one leaves nothing behind in a module.
import { randomFillSync, randomInt, randomUUID } from 'node:crypto';
import { clockFrom, tenantNowMs, type Clock } from './clock/clock.js';
import { MAX_SEED, type Config } from './config.js';
import { Buckets } from './domain/rate-limit.js';
import { seededSource, type RandomSource } from './domain/random.js';
import type { TokenKeys } from './services/tokens.js';
import { Journal } from './http/journal-log.js';
import type { Store } from './store/store.js';
import type { ChangeFeed } from './control/change-feed.js';
import type { DecodePool } from './control/qr-image.js';

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
interface Readiness {
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
  /** the sandbox-wide clock (real time + the store's offset); tenant time comes from clockOf */
  clock: Clock;
  /**
   * The clock of an account and its merchants (docs/architecture.md#the-clock): the sandbox-wide
   * clock plus the account's own offset, or frozen; held at the step's instant while an advance walks
   * it. An unknown account reads the sandbox-wide clock.
   */
  clockOf: (accountId: string) => Clock;
  /** clockOf(accountId).nowMs() without making a Clock: for the per-request token check */
  nowMsOf: (accountId: string) => number;
  /** the accounts an advance is walking, each held at the instant of its current step */
  walking: Map<string, number>;
  /** the advance under way: the next one waits for it (one walk at a time) */
  advancing: Promise<unknown>;
  /** every id, payer, end-to-end id and fault draw (docs/decisions.md#d49-seeded-randomness) */
  random: RandomSource;
  /** a new record id: random.uuid */
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
  /** the request journal (GET /_sandbox/requests); memory only */
  journal: Journal;
  /** the rate limiter's token buckets per client, on real time (src/http/rate-limit.ts); memory only */
  rateLimits: Buckets;
  /** the webhook dispatcher, once started: a redelivery of an existing delivery wakes it */
  dispatcher: { wake(): void; runFor(accountIds: readonly string[], durable?: boolean): Promise<void> } | null;
  /** the change stream's fan-out (GET /_sandbox/changes), made when the first stream opens */
  changeFeed: ChangeFeed | null;
  /** the image decoders of POST /_sandbox/pix/pay {qrImage}, made when the first image comes */
  qrDecoders: DecodePool | null;
  /** the reset in progress: the next one waits for it (one at a time) */
  resetting: Promise<unknown>;
  /** the token-signing key and the tokens verified with it (services/tokens.ts) */
  tokenKeys: TokenKeys | null;
  /** GET /openapi.json's document, built once for the URL it names (a pure function of the table, version and URL) */
  openApi: { url: string; doc: Record<string, unknown> } | null;
}

/** Numbers in [0, 1) from the OS's generator, drawn a pool at a time (one system call per 256). */
function cryptoRandom(): () => number {
  const pool = new Uint32Array(256);
  let i = pool.length;
  return () => {
    if (i === pool.length) {
      randomFillSync(pool);
      i = 0;
    }
    return pool[i++]! / 4294967296;
  };
}

/**
 * With a seed, a fresh sandbox draws the same ids and values for the same calls. A reopened data file
 * holds the ids of its earlier runs, which the same seed would hand out again: there, as without a
 * seed, ids and values come from the OS's generator, and only fault draws follow the seed.
 */
function randomFor(seed: number | null, freshStore: boolean): RandomSource {
  if (seed !== null && freshStore) return seededSource(seed);
  return seededSource(seed ?? randomInt(MAX_SEED), { uuid: randomUUID, next: cryptoRandom() });
}

export function createContext(parts: {
  config: Config;
  store: Store;
  clock: Clock;
  version: string;
  startedAtMs: number;
  /** the store holds nothing yet (its fixtures are about to be loaded) */
  freshStore: boolean;
}): AppContext {
  const { freshStore, ...rest } = parts;
  let url = parts.config.publicUrl ?? `http://${parts.config.host}:${parts.config.port}`;
  const random = randomFor(parts.config.seed, freshStore);
  const ctx: AppContext = {
    ...rest,
    random,
    newId: () => random.uuid(),
    journal: new Journal(Math.max(0, Math.floor(parts.config.journalSize))),
    rateLimits: new Buckets(),
    dispatcher: null,
    changeFeed: null,
    qrDecoders: null,
    resetting: Promise.resolve(),
    tokenKeys: null,
    openApi: null,
    publicUrl: () => url,
    setPublicUrl: (u) => {
      if (!parts.config.publicUrl) url = u;
    },
    clockOf: (accountId) => clockFrom(() => ctx.nowMsOf(accountId)),
    nowMsOf: (accountId) => ctx.walking.get(accountId) ?? tenantNowMs(ctx.store.accounts.get(accountId)?.clock, ctx.clock.nowMs()),
    walking: new Map(),
    advancing: Promise.resolve(),
    workers: [],
    readiness: { listening: false, storeOpen: true, fixturesLoaded: false, stopping: false },
    runDue: async () => {
      for (const w of ctx.workers) await w.runDue();
    },
  };
  return ctx;
}
