// Resets under load, SIGKILLed (docs/store.md#reset): a `pix-sandbox serve` child process takes
// cash-ins from several writers while resets follow one another, and is killed at a random instant,
// again and again on the same folder — so kills land before, inside and after a reset's move of the
// files. Every reset answers 200 and no write a 500 (a reset once closed the log under an append:
// EBADF, 500); after every kill the folder opens (never a log of the new data without its snapshot),
// its ledger invariant holds and every index agrees with a scan; every charge answered since the last
// reset, when no reset was under way at the kill, is there; and the restarted sandbox resets at once.
// Size knobs: TORTURE_TRIALS (default 8), TORTURE_WRITERS (4), TORTURE_SEED.
import { describe, expect, it } from 'vitest';
import { call, checkLedger, cpf, int, knob, prng, readStoreDataOffline, killingFolder } from '../helpers/torture.js';
import { collectionsOfData, indexProblems } from '../helpers/store-checks.js';

const TRIALS = knob('TORTURE_TRIALS', 8);
const WRITERS = knob('TORTURE_WRITERS', 4);
const SEED = knob('TORTURE_SEED', 20250611);
const CREDS = { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' };

const folder = killingFolder('pix-torture-reset-kill-');

/** The resets of one process: how many began and how many answered, and what any of them answered besides 200. */
interface Resets {
  begun: number;
  answered: number;
  failures: string[];
}

/** Charges until `stopped()`; each answered one is kept with the reset count it began and ended in (the data it belongs to). */
async function writer(base: string, rand: () => number, resets: Resets, acked: Map<string, number>, odd: string[], stopped: () => boolean) {
  let token: string | null = null;
  while (!stopped()) {
    if (!token) {
      const t = await call(base, 'POST', '/v1/oauth/token', { body: CREDS });
      if (t.status === 200) token = t.body.access_token as string;
      else if (t.status !== 0) odd.push(`token ${t.status} ${JSON.stringify(t.body)}`);
      continue;
    }
    const before = resets.begun;
    const r = await call(base, 'POST', '/v1/banking/cash-in/pix', {
      token,
      body: { amount: int(rand, 100, 9_999), description: 'reset torture', customer: { name: 'Maria Silva', document: cpf(rand) } },
    });
    if (r.status === 201 && resets.begun === before && resets.answered === before) acked.set(r.body.transactionId as string, before);
    else if (r.status === 401)
      token = null; // a reset refused the token
    else if (r.status !== 201 && r.status !== 0) odd.push(`cash-in ${r.status} ${JSON.stringify(r.body)}`);
  }
}

describe('SIGKILL while resets follow one another under load', () => {
  it(
    `opens whole after ${TRIALS} kills, every reset answered 200`,
    async () => {
      const rand = prng(SEED);
      const odd: string[] = [];
      let resetsAnswered = 0;
      let running = await folder.start();
      for (let trial = 1; trial <= TRIALS; trial++) {
        const sb = running;
        // right after a restart, a reset at once: the restart's own work (the due settlements) runs beside it
        const first = await call(sb.url, 'POST', '/_sandbox/reset', { body: {} });
        expect(first.status, `trial ${trial}: reset after restart: ${JSON.stringify(first.body)}\n${sb.output().slice(-2000)}`).toBe(200);
        const resets: Resets = { begun: 0, answered: 0, failures: [] };
        const acked = new Map<string, number>();
        let killed = false;
        const writers = Array.from({ length: WRITERS }, (_, i) =>
          writer(sb.url, prng(SEED * 17 + trial * 7 + i), resets, acked, odd, () => killed),
        );
        const resetting = (async () => {
          while (!killed) {
            await new Promise((r) => setTimeout(r, int(rand, 10, 120)));
            if (killed) break;
            resets.begun++;
            const r = await call(sb.url, 'POST', '/_sandbox/reset', { body: {} });
            if (r.status === 200) resets.answered++;
            else if (r.status !== 0) resets.failures.push(`${r.status} ${JSON.stringify(r.body)}`);
          }
        })();
        await new Promise((r) => setTimeout(r, int(rand, 300, 1_500)));
        sb.child.kill('SIGKILL');
        killed = true;
        await sb.exited;
        await Promise.all([...writers, resetting]);
        expect(resets.failures, `trial ${trial}: resets under load\n${sb.output().slice(-2000)}`).toEqual([]);
        resetsAnswered += resets.answered;

        // the folder opens (a log never without its snapshot), whole and consistent
        const stored = await readStoreDataOffline(folder.dir);
        const data = stored.toData();
        expect(checkLedger(data).problems, `trial ${trial}: ledger invariant`).toEqual([]);
        expect(indexProblems(collectionsOfData(stored)), `trial ${trial}: indexes agree with a scan`).toEqual([]);
        if (resets.begun === resets.answered) {
          // no reset under way at the kill: every charge answered since the last one is kept
          const lost = [...acked].filter(([id, n]) => n === resets.begun && !data.transactions[id]).map(([id]) => id);
          expect(lost, `trial ${trial}: charges answered since the last reset`).toEqual([]);
        }
        running = await folder.start();
      }
      console.log(`reset-kill: ${TRIALS} kills, ${resetsAnswered} resets answered under load`);
      expect(odd).toEqual([]);
      expect(resetsAnswered).toBeGreaterThan(TRIALS); // the kills did land among resets
      // a stop once it serves (a SIGTERM during its start-up lines is not this test's matter)
      expect((await call(running.url, 'GET', '/_sandbox/health')).status).toBe(200);
      running.child.kill('SIGTERM');
      expect(await running.exited).toBe(0);
    },
    Math.max(120_000, TRIALS * 15_000),
  );
});
