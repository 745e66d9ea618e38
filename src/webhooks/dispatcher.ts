// The webhook dispatcher: a Worker that delivers the outbox (PENDING deliveries whose time has
// come by their tenant's clock), records every attempt in its own commit, and schedules retries
// on that clock. It pumps right after a commit that queued deliveries (once that commit is
// durable) and after each finished attempt, so events go out within milliseconds, never inside
// the request that caused them; retries fall due with the tenant's clock (the tick, or a clock
// advance, which walks its tenants' attempts itself through runFor: services/clock-walk.ts).
import { setMaxListeners } from 'node:events';
import { realClock } from '../clock/clock.js';
import type { AppContext, Worker } from '../context.js';
import { tickedAccounts } from '../services/due-work.js';
import type { Delivery } from '../store/model.js';
import type { Op } from '../store/ops.js';
import type { Tx } from '../store/store.js';
import { ensureConfigEndpoint } from '../services/webhook-endpoints.js';
import { releaseHeldDeliveries } from '../services/webhook-faults.js';
import { markedAttempt, signAttempt } from '../domain/webhook-faults.js';
import { afterAttempt, dueHeads, eventBody } from '../domain/deliveries.js';
import { prune } from './prune.js';
import { send, targetPolicyOf, webhookHeaders } from './send.js';

/** attempts in flight at once (a hung receiver holds a slot for up to 5 s) */
const MAX_IN_FLIGHT = 32;
/** rounds of one runDue(): each round can unblock the next event of a transaction */
const MAX_ROUNDS = 50;
/** rounds of one runFor() (an advance's step): until nothing due is left, within reason */
const MAX_WALK_ROUNDS = 100_000;
const PRUNE_EVERY_MS = 10_000;

class Dispatcher implements Worker {
  readonly #ctx: AppContext;
  readonly #inFlight = new Map<string, Promise<void>>();
  /** deliveries whose attempt the store could not record: not tried again in this run */
  readonly #unrecorded = new Set<string>();
  readonly #abort = new AbortController();
  #stopped = false;
  #pumpQueued = false;
  #seenGeneration = -1;
  #seenPending = 0;
  #dataGeneration: number;
  #lastPruneMs = 0;

  constructor(ctx: AppContext) {
    this.#ctx = ctx;
    this.#dataGeneration = ctx.store.generation;
    // every attempt in flight listens for the stop signal
    setMaxListeners(MAX_IN_FLIGHT + 8, this.#abort.signal);
    ctx.dispatcher = this; // the control API wakes it after a redelivery
  }

  /** Listens for commits and sends whatever is already due (deliveries left from the last run). */
  start(): void {
    this.#ctx.store.onChange((ops) => this.#onChange(ops));
    this.#schedulePump();
  }

  /** Delivers everything due now; resolves when those attempts (and the ones they unblock) are recorded. */
  async runDue(): Promise<void> {
    if (this.#stopped) return;
    await this.#ctx.store.sync(); // announce only changes that are on disk
    await this.#afterReset();
    for (let round = 0; round < MAX_ROUNDS && !this.#stopped; round++) {
      const waits = this.#pump();
      if (waits.length === 0) break;
      await Promise.all(waits);
    }
    if (realClock.nowMs() - this.#lastPruneMs > PRUNE_EVERY_MS) {
      this.#lastPruneMs = realClock.nowMs();
      await prune(this.#ctx);
    }
  }

  /**
   * Delivers everything due now for these accounts (an advance's step, its tenants held at the
   * step's instant) and resolves when every attempt it led to is recorded, however many rounds.
   * `durable: false` skips waiting for the store's pending writes (the step emitted no new event).
   */
  async runFor(accountIds: readonly string[], durable = true): Promise<void> {
    if (this.#stopped) return;
    // announce only changes that are on disk; a walk's step that only retries has nothing new to announce
    if (durable) await this.#ctx.store.sync();
    await this.#afterReset();
    for (let round = 0; round < MAX_WALK_ROUNDS && !this.#stopped; round++) {
      const waits = this.#pump(accountIds);
      if (waits.length === 0) break;
      await Promise.all(waits);
    }
  }

  /** Sends what is due soon, without waiting for a commit that adds deliveries (a redelivery brought forward). */
  wake(): void {
    this.#schedulePump();
  }

  /** Aborts attempts in flight (they stay PENDING, in the store, for the next start) and stops. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    await Promise.all(this.#inFlight.values());
  }

  /**
   * Starts every due head that is not in flight yet (within the concurrency limit) and returns
   * the attempts that cover what is due now, in flight before or started here. Never waits.
   */
  #pump(accountIds: readonly string[] = tickedAccounts(this.#ctx)): Promise<void>[] {
    if (this.#stopped) return [];
    const store = this.#ctx.store;
    const waits: Promise<void>[] = [];
    for (const accountId of accountIds) {
      const nowMs = this.#ctx.nowMsOf(accountId);
      const heads = dueHeads(
        store.deliveries.orderedIn('byNextAttempt', accountId, nowMs),
        (transactionId) => store.deliveries.find('byTransaction', transactionId),
        (id) => store.events.get(id),
        new Date(nowMs).toISOString(),
      );
      for (const d of heads) {
        if (this.#unrecorded.has(d.id)) continue;
        const running = this.#inFlight.get(d.id) ?? (this.#inFlight.size < MAX_IN_FLIGHT ? this.#attempt(d) : undefined);
        if (running) waits.push(running);
      }
    }
    return waits;
  }

  #onChange(ops: readonly Op[]): void {
    // Only a commit that added PENDING deliveries (or a reset, or a restore that may bring some back)
    // needs a pump: a finished attempt pumps by itself, and retries fall due with the clock (tick, clock advance).
    const store = this.#ctx.store;
    const pending = store.deliveries.count('byStatus', 'PENDING');
    const grew = store.generation !== this.#seenGeneration || pending > this.#seenPending || ops.some((op) => 'restore' in op);
    this.#seenGeneration = store.generation;
    this.#seenPending = pending;
    if (grew) this.#schedulePump();
  }

  /** One pump per turn of the event loop however many commits asked, after they are durable. */
  #schedulePump(): void {
    if (this.#pumpQueued || this.#stopped) return;
    this.#pumpQueued = true;
    setImmediate(() => {
      this.#pumpQueued = false;
      this.#ctx.store
        .sync()
        .then(() => void this.#pump())
        .catch((e: unknown) => console.error('[pix-sandbox] webhook dispatch failed:', e));
    });
  }

  /** A reset replaces the data: the --webhook-url endpoint comes back with the fixtures. */
  async #afterReset(): Promise<void> {
    if (this.#ctx.store.generation === this.#dataGeneration) return;
    this.#dataGeneration = this.#ctx.store.generation;
    await this.#ctx.store.commit((tx) => ensureConfigEndpoint(tx, this.#ctx));
  }

  #attempt(d: Readonly<Delivery>): Promise<void> {
    const p = this.#deliver(d)
      .catch((e: unknown) => {
        // a failed send is an answer, recorded as a failed attempt (./send.ts); this is the store
        // refusing the record: left alone until the next start rather than tried again at once, forever
        this.#unrecorded.add(d.id);
        console.error(`[pix-sandbox] webhook delivery ${d.id} could not be recorded; it waits for the next start:`, e);
      })
      .finally(() => {
        this.#inFlight.delete(d.id);
        // its successor of the same transaction, or what waited for a free slot (a walk pumps its own tenants)
        if (!this.#ctx.walking.has(d.accountId)) this.#schedulePump();
      });
    this.#inFlight.set(d.id, p);
    return p;
  }

  async #deliver(d: Readonly<Delivery>): Promise<void> {
    const store = this.#ctx.store;
    const clock = this.#ctx.clockOf(d.accountId);
    const endpoint = store.webhookEndpoints.get(d.endpointId);
    const event = store.events.get(d.eventId);
    const at = clock.nowIso();
    // a restore of the tenant meanwhile put its deliveries back as they were: this attempt is not theirs to record
    const restores = store.restoresOf(d.accountId);
    let result: { statusCode: number | null; error: string | null; durationMs: number };
    if (!endpoint || !event) {
      result = { statusCode: null, error: endpoint ? 'the event no longer exists' : 'the endpoint was deleted', durationMs: 0 };
    } else {
      const body = JSON.stringify(eventBody(event));
      // t is transport time (real clock), so that receivers' replay windows hold even after the sandbox clock jumps
      const t = Math.floor(realClock.nowMs() / 1000);
      // a webhook fault may spoil the first attempt's signature
      const headers = webhookHeaders(this.#ctx.version, event.id, signAttempt(d, body, endpoint.secret, t));
      const r = await send(endpoint.url, body, headers, this.#abort.signal, { policy: targetPolicyOf(this.#ctx.config) });
      if (r.aborted) return;
      result = r;
    }
    const schedule = this.#ctx.config.webhookRetrySchedule;
    const record = (tx: Tx): void => {
      const cur = tx.deliveries.get(d.id);
      if (!cur || cur.status !== 'PENDING' || store.restoresOf(d.accountId) !== restores) return; // reset, cleared or restored meanwhile
      const plain = { at, statusCode: result.statusCode, error: result.error, durationMs: result.durationMs };
      const attempt = markedAttempt(plain, cur); // says which webhook fault touched it
      const next =
        endpoint && event
          ? afterAttempt(cur, attempt, schedule, clock.now().getTime())
          : { ...cur, attempts: [...cur.attempts, attempt], status: 'DEAD' as const, nextAttemptAt: null };
      tx.put('deliveries', next);
      // webhook faults: a delivery held back by `reorder` goes right after the next event of its transaction
      if (endpoint) releaseHeldDeliveries(tx, next, clock.nowIso());
    };
    // within an advance's walk the attempt joins the next group commit (the walk's next step, or
    // its final commit, waits for it): one durable write per step, not one per attempt
    if (this.#ctx.walking.has(d.accountId)) store.apply(record);
    else await store.commit(record);
  }
}

/**
 * Webhooks in a booting sandbox: the --webhook-url endpoint made to agree with the configuration, and
 * the dispatcher registered as a worker, which sends at once what an earlier run left pending.
 * Returns the lines of the start-up banner.
 */
export async function startWebhooks(ctx: AppContext): Promise<string[]> {
  const endpoint = await ctx.store.commit((tx) => ensureConfigEndpoint(tx, ctx));
  const dispatcher = new Dispatcher(ctx);
  ctx.workers.push(dispatcher);
  dispatcher.start();
  return endpoint ? [`webhook: ${endpoint.url} (endpoint ${endpoint.id}, secret ${endpoint.secret})`] : [];
}
