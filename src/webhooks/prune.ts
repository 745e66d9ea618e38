// Keeps the webhook log bounded. Finished deliveries (DELIVERED, DEAD, DROPPED) beyond a cap are removed
// oldest first, then events that no delivery refers to, beyond their own cap. Caps by count,
// not by age: the sandbox clock jumps (tests advance it by days), and an age limit on that
// clock would erase the log a test has just produced. Counts come from the indexes; a pass reads
// only what it removes (and the events it keeps because a delivery still needs them).
import type { AppContext } from '../context.js';
import { mergeBySeq } from '../store/page.js';

export const LIMITS = {
  /** finished deliveries kept */
  deliveries: 10_000,
  /** events kept (those a delivery still refers to are always kept) */
  events: 20_000,
  /** removals per commit, so one pass never holds the store for long */
  batch: 5_000,
};

/** Removes what is beyond the caps, oldest first (creation order). */
export async function prune(ctx: AppContext, limits = LIMITS): Promise<number> {
  const { deliveries, events } = ctx.store;
  const finished = deliveries.size - deliveries.count('byStatus', 'PENDING');
  if (finished <= limits.deliveries && events.size <= limits.events) return 0;
  return ctx.store.commit((tx) => {
    let removed = 0;
    let excess = finished - limits.deliveries;
    const oldest = mergeBySeq(
      [
        tx.deliveries.find('byStatus', 'DELIVERED', { order: 'oldest' }),
        tx.deliveries.find('byStatus', 'DEAD', { order: 'oldest' }),
        tx.deliveries.find('byStatus', 'DROPPED', { order: 'oldest' }),
      ],
      'oldest',
    );
    for (const d of oldest) {
      if (excess <= 0 || removed >= limits.batch) break;
      tx.remove('deliveries', d.id);
      excess--;
      removed++;
    }
    let eventExcess = tx.events.size - limits.events;
    for (const e of tx.events.scan({ order: 'oldest' })) {
      if (eventExcess <= 0 || removed >= limits.batch) break;
      if (tx.deliveries.count('byEvent', e.id) > 0) continue; // still needed (a hash shared by chance only keeps one more)
      tx.remove('events', e.id);
      eventExcess--;
      removed++;
    }
    return removed;
  });
}
