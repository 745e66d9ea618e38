// Keeps the webhook log bounded. Finished deliveries (DELIVERED, DEAD) beyond a cap are removed
// oldest first, then events that no delivery refers to, beyond their own cap. Caps by count,
// not by age: the sandbox clock jumps (tests advance it by days), and an age limit on that
// clock would erase the log a test has just produced.
import type { AppContext } from '../context.js';

export const LIMITS = {
  /** finished deliveries kept */
  deliveries: 10_000,
  /** events kept (those a PENDING delivery still needs are always kept) */
  events: 20_000,
  /** removals per commit, so one pass never holds the store for long */
  batch: 5_000,
};

/** Removes what is beyond the caps; records are iterated in insertion order, which is creation order. */
export async function prune(ctx: AppContext, limits = LIMITS): Promise<number> {
  const data = ctx.store.data;
  const deliveryCount = Object.keys(data.deliveries).length;
  const eventCount = Object.keys(data.events).length;
  if (deliveryCount <= limits.deliveries && eventCount <= limits.events) return 0;
  return ctx.store.commit((tx) => {
    let removed = 0;
    let finished = 0;
    for (const d of Object.values(tx.data.deliveries)) if (d.status !== 'PENDING') finished++;
    let excess = finished - limits.deliveries;
    for (const d of Object.values(tx.data.deliveries)) {
      if (excess <= 0 || removed >= limits.batch) break;
      if (d.status === 'PENDING') continue;
      tx.remove('deliveries', d.id);
      excess--;
      removed++;
    }
    const referenced = new Set<string>();
    for (const d of Object.values(tx.data.deliveries)) referenced.add(d.eventId);
    let eventExcess = Object.keys(tx.data.events).length - limits.events;
    for (const e of Object.values(tx.data.events)) {
      if (eventExcess <= 0 || removed >= limits.batch) break;
      if (referenced.has(e.id)) continue;
      tx.remove('events', e.id);
      eventExcess--;
      removed++;
    }
    return removed;
  });
}
