// The once-a-second tick (node-cron) that runs every worker's due work on the sandbox clock.
import { schedule, type ScheduledTask } from 'node-cron';
import type { AppContext } from '../context.js';

export function startTicker(ctx: AppContext): { stop(): Promise<void> } {
  // a round slower than a second (webhook attempts) is skipped over, not piled up; node-cron's own
  // noOverlap would do the same but log a warning on every skipped second
  let busy = false;
  const task: ScheduledTask = schedule(
    '* * * * * *',
    async () => {
      if (busy) return;
      busy = true;
      try {
        await ctx.runDue();
      } catch (e) {
        console.error('[pix-sandbox] due work failed:', e);
      } finally {
        busy = false;
      }
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
