// Every shipped scenario, none exclusive, 8 at a time against one sandbox, several rounds in a row:
// an `advance` moves only its own scenario's tenant (docs/scenarios.md#advance), so scenarios that
// move the clock run beside the others without expiring their tokens or charges. Rounds:
// SCENARIO_ROUNDS (default 3; the proof ran 20).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAll } from '../../src/scenarios/load.js';
import { runAll } from '../../src/scenarios/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ROUNDS = Math.max(1, Number(process.env.SCENARIO_ROUNDS ?? 3) || 3);

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ tick: true });
});
afterAll(() => sb.stop());

describe('shipped scenarios in parallel', () => {
  it(
    `all pass with --concurrency 8, none exclusive, ${ROUNDS} rounds in a row`,
    async () => {
      const { scenarios, problems } = await loadAll(['scenarios']);
      expect(problems).toEqual([]);
      expect(scenarios.filter((s) => s.scenario.exclusive).map((s) => s.file)).toEqual([]);
      for (let round = 1; round <= ROUNDS; round++) {
        const result = await runAll(scenarios, {
          baseUrl: sb.url,
          adminToken: null,
          concurrency: 8,
          webhookTimeout: 10,
          receiverHost: '127.0.0.1',
          receiverPort: 0,
        });
        const failed = result.scenarios.filter((s) => s.status === 'failed');
        const why = failed.map((s) => `${s.file}: ${JSON.stringify(s.setupFailure ?? s.steps.find((x) => x.status === 'failed'))}`);
        expect(why, `round ${round}`).toEqual([]);
        expect(result.scenarios).toHaveLength(scenarios.length);
        console.log(`[scenarios] round ${round}/${ROUNDS}: ${scenarios.length} passed in ${result.durationMs} ms (concurrency 8)`);
      }
    },
    60_000 + ROUNDS * 30_000,
  );
});
