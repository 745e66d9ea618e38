// The once-a-second tick (node-cron) that runs every worker's due work on the sandbox clock.
// Each worker has its own round: a slow one (webhook attempts wait up to 5 s for a receiver)
// is skipped over, not piled up, and never holds back another worker's expiries or settlements.
import { schedule, type ScheduledTask } from 'node-cron';
import type { AppContext, Worker } from '../context.js';

export function startTicker(ctx: AppContext): { stop(): Promise<void> } {
  const busy = new Set<Worker>();
  const round = async (w: Worker) => {
    if (busy.has(w)) return;
    busy.add(w);
    try {
      await w.runDue();
    } catch (e) {
      console.error('[pix-sandbox] due work failed:', e);
    } finally {
      busy.delete(w);
    }
  };
  const task: ScheduledTask = schedule(
    '* * * * * *',
    () => {
      for (const w of ctx.workers) void round(w);
    },
    { name: 'pix-sandbox-tick' },
  );
  return {
    stop: async () => {
      await task.stop();
      await task.destroy();
    },
  };
}
