// The change feed behind GET /_sandbox/changes (docs/control-api.md#the-change-stream): it hears
// every store commit (with its ops) and every request-journal entry, and tells each open stream
// which of the topics it watches changed, so that a dashboard reads again only what went stale.
// Costs: with no stream open, a commit costs one size check; with streams open, a commit costs a
// map lookup per op of a watched collection (none for a collection no stream watches), whatever the
// number of streams. Changes are gathered into a batch and sent once the commits in it are durable,
// at most one batch per MIN_GAP_MS: one write per stream per batch is the whole fan-out. An idle
// feed runs no timer but the one shared keep-alive, and none at all without a stream.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context.js';
import { TENANT_CHANGE_TOPICS, type ChangeTopic } from '../domain/vocabulary.js';
import type { CollectionName, LedgerRef } from '../store/model.js';
import type { Op } from '../store/ops.js';

/** The topic of each collection the control API lists; the others (idempotency, events, sends) make none. */
const TOPIC_OF: Partial<Record<CollectionName, ChangeTopic>> = {
  accounts: 'accounts',
  transactions: 'transactions',
  ledger: 'balances',
  merchants: 'merchants',
  wallets: 'merchants',
  webhookEndpoints: 'webhooks',
  deliveries: 'deliveries',
  webhookFaults: 'webhook-faults',
  pixKeys: 'pix-keys',
  rules: 'rules',
  faults: 'faults',
  savedSnapshots: 'snapshots',
};

const TENANT_TOPICS: ReadonlySet<ChangeTopic> = new Set(TENANT_CHANGE_TOPICS);

/** A change of every tenant, or of one the op does not name (a removal carries no record). */
const ANY = '*';
/** transaction ids named by one event; beyond it the event says "any" (null) */
const MAX_IDS = 50;
/**
 * the shortest time between two batches: a busy sandbox sends a stream at most four events a second, so
 * that a dashboard reading on each (a journal of 500 entries, say) costs a bounded share of the server
 */
const MIN_GAP_MS = 250;
/** one comment line to every stream this often, so that proxies and browsers keep an idle stream open */
export const KEEP_ALIVE_MS = 30_000;
/** a stream whose reader stopped reading is closed rather than buffered without end */
const MAX_BUFFERED_BYTES = 1 << 20;

export const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no', // a proxy in front must pass each event on at once
};

interface Stream {
  res: ServerResponse;
  topics: readonly ChangeTopic[];
  /** only this tenant's changes of the tenant topics; null: every tenant's */
  accountId: string | null;
}

/** What changed since the last event. */
class Batch {
  /** per topic, the tenants whose records changed (ANY: every tenant) */
  readonly tenants = new Map<ChangeTopic, Set<string>>();
  readonly transactionIds = new Set<string>();
  tooManyIds = false;
  /** the store was reset: everything changed */
  reset = false;

  add(topic: ChangeTopic, tenant: string): void {
    let set = this.tenants.get(topic);
    if (!set) this.tenants.set(topic, (set = new Set()));
    set.add(tenant);
  }

  addTransaction(id: string | null): void {
    if (id === null || this.tooManyIds) return;
    this.transactionIds.add(id);
    if (this.transactionIds.size > MAX_IDS) this.tooManyIds = true;
  }

  /** The topics of `s` this batch touches. */
  topicsFor(s: Stream): ChangeTopic[] {
    if (this.reset) return [...s.topics];
    return s.topics.filter((t) => {
      const tenants = this.tenants.get(t);
      if (!tenants) return false;
      return s.accountId === null || !TENANT_TOPICS.has(t) || tenants.has(s.accountId) || tenants.has(ANY);
    });
  }
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export class ChangeFeed {
  readonly #ctx: AppContext;
  readonly #streams = new Set<Stream>();
  /** how many open streams watch each topic */
  readonly #watchers = new Map<ChangeTopic, number>();
  #batch: Batch | null = null;
  #scheduled = false;
  #sending = false;
  #gapTimer: NodeJS.Timeout | null = null;
  #keepAlive: NodeJS.Timeout | null = null;
  #lastSentMs = -Infinity;
  #generation: number;
  #closed = false;

  /** Listens to the store and the journal for the rest of the sandbox's life (made at the first stream). */
  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    this.#generation = ctx.store.generation;
    ctx.store.onChange((ops) => this.#onCommit(ops));
    ctx.journal.onChange((accountId) => {
      // an entry of no known tenant, or a clear of every ring, is news to every stream
      if (this.#watches('requests')) this.#pending().add('requests', accountId ?? ANY);
    });
  }

  /** open streams */
  get size(): number {
    return this.#streams.size;
  }

  /** Answers `res` as an event stream of the changes of `topics` (of `accountId` alone, for the tenant topics) until it closes. */
  subscribe(res: ServerResponse, topics: readonly ChangeTopic[], accountId: string | null): void {
    res.writeHead(200, STREAM_HEADERS);
    if (this.#closed) {
      res.end();
      return;
    }
    // a reset while no stream was open is nothing the first new stream must be told
    if (this.#streams.size === 0) this.#generation = this.#ctx.store.generation;
    const stream: Stream = { res, topics, accountId };
    this.#streams.add(stream);
    for (const t of topics) this.#watchers.set(t, (this.#watchers.get(t) ?? 0) + 1);
    res.once('close', () => this.#remove(stream));
    // retry: how long an EventSource waits before it reconnects
    res.write(`retry: 2000\n${sse('ready', { topics, accountId })}`);
    this.#keepAlive ??= setInterval(() => {
      for (const s of this.#streams) this.#write(s, ': keep-alive\n\n');
    }, KEEP_ALIVE_MS).unref();
  }

  /** Ends every stream (the sandbox stops): no connection is left for the shutdown to wait on. */
  close(): void {
    this.#closed = true;
    for (const s of this.#streams) s.res.end();
    this.#streams.clear();
    this.#watchers.clear();
    this.#stopTimers();
  }

  #remove(stream: Stream): void {
    if (!this.#streams.delete(stream)) return;
    for (const t of stream.topics) {
      const n = (this.#watchers.get(t) ?? 1) - 1;
      if (n > 0) this.#watchers.set(t, n);
      else this.#watchers.delete(t);
    }
    if (this.#streams.size === 0) this.#stopTimers();
  }

  #stopTimers(): void {
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    if (this.#gapTimer) clearTimeout(this.#gapTimer);
    this.#keepAlive = this.#gapTimer = null;
    this.#batch = null;
    this.#scheduled = false;
  }

  #watches(topic: ChangeTopic): boolean {
    return this.#watchers.has(topic);
  }

  /** The batch gathering changes now; the first change of a batch schedules its sending. */
  #pending(): Batch {
    if (this.#batch) return this.#batch;
    this.#batch = new Batch();
    this.#schedule();
    return this.#batch;
  }

  #onCommit(ops: readonly Op[]): void {
    if (this.#streams.size === 0) return;
    const store = this.#ctx.store;
    if (store.generation !== this.#generation) {
      this.#generation = store.generation;
      this.#pending().reset = true;
    }
    for (const op of ops) {
      if ('meta' in op) {
        if (op.meta === 'clockOffsetMs' && this.#watches('clock')) this.#pending().add('clock', ANY);
        continue;
      }
      if ('restore' in op) {
        this.#restored(op.restore.scope);
        continue;
      }
      const topic = TOPIC_OF[op.c];
      if (topic === 'accounts' && this.#watches('clock')) this.#pending().add('clock', ANY); // a tenant's clock is on its account
      if (!topic || !this.#watches(topic)) continue;
      const batch = this.#pending();
      if ('del' in op) {
        batch.add(topic, ANY);
        if (topic === 'transactions') batch.addTransaction(op.id);
        continue;
      }
      const record = op.v as { accountId?: string; transactionId?: string | null; from?: LedgerRef; to?: LedgerRef };
      if (topic === 'balances') {
        for (const ref of [record.from, record.to]) {
          const tenant = this.#tenantOf(ref);
          if (tenant) batch.add(topic, tenant);
        }
      } else batch.add(topic, record.accountId ?? ANY);
      if (topic === 'transactions') batch.addTransaction(op.id);
      else if (topic === 'deliveries' || topic === 'balances') batch.addTransaction(record.transactionId ?? null);
    }
  }

  /** A restore (docs/control-api.md#snapshots) changed every list of its tenant, and its clock; the whole sandbox's, everything. */
  #restored(tenant: string | null): void {
    const batch = this.#pending();
    if (tenant === null) {
      batch.reset = true;
      return;
    }
    // every list of its own but the snapshots (a restore changes none)
    for (const topic of new Set([...Object.values(TOPIC_OF), 'clock' as const]))
      if (topic !== 'snapshots' && this.#watches(topic)) batch.add(topic, tenant);
    batch.tooManyIds = true; // any of its transactions
  }

  /** The account whose money a ledger side moves (a wallet's is its merchant's account); null for the world. */
  #tenantOf(ref: LedgerRef | undefined): string | null {
    if (ref?.startsWith('account:')) return ref.slice('account:'.length);
    if (ref?.startsWith('wallet:')) return this.#ctx.store.wallets.get(ref.slice('wallet:'.length))?.accountId ?? ANY;
    return null;
  }

  /** After the change under way (a commit's ops all join one batch), or once MIN_GAP_MS has passed since the last. */
  #schedule(): void {
    if (this.#scheduled || this.#sending) return;
    this.#scheduled = true;
    const wait = this.#lastSentMs + MIN_GAP_MS - performance.now();
    if (wait > 0) this.#gapTimer = setTimeout(() => this.#send(), wait);
    else queueMicrotask(() => this.#send());
  }

  /** Sends the batch once every commit in it is durable (a reader must find what the event announces). */
  #send(): void {
    this.#scheduled = false;
    this.#gapTimer = null;
    const batch = this.#batch;
    this.#batch = null;
    if (!batch) return;
    this.#sending = true;
    // a failed store refuses every later change; what memory holds is what reads answer, so say it
    void this.#ctx.store
      .sync()
      .catch(() => undefined)
      .then(() => {
        this.#sending = false;
        this.#lastSentMs = performance.now();
        const transactionIds = batch.reset || batch.tooManyIds ? null : [...batch.transactionIds];
        for (const s of this.#streams) {
          const topics = batch.topicsFor(s);
          if (topics.length > 0) this.#write(s, sse('change', { topics, transactionIds, reset: batch.reset }));
        }
        if (this.#batch) this.#schedule();
      });
  }

  #write(s: Stream, text: string): void {
    if (s.res.writableLength > MAX_BUFFERED_BYTES) {
      s.res.destroy();
      this.#remove(s);
    } else s.res.write(text);
  }
}
