// The once-a-second tick (node-cron) that runs every worker's due work on the sandbox clock.
import { schedule, type ScheduledTask } from 'node-cron';
import type { AppContext } from '../context.js';

export function startTicker(ctx: AppContext): { stop(): Promise<void> } {
  const task: ScheduledTask = schedule(
    '* * * * * *',
    async () => {
      try {
        await ctx.runDue();
      } catch (e) {
        console.error('[pix-sandbox] due work failed:', e);
      }
    },
    { name: 'pix-sandbox-tick', noOverlap: true },
  );
  return {
    stop: async () => {
      await task.stop();
      await task.destroy();
    },
  };
}
