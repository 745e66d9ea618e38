// The scenario step `expectReport` (docs/scenarios.md#steps): the integration report of the scenario's
// own tenant, each named check with the outcome asked; a mismatch names the check, its outcome, its
// detail and evidence; a step naming no check or an unknown outcome is refused when the file is read.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenarios/load.js';
import { runAll } from '../../src/scenarios/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let dir: string;
beforeAll(async () => {
  sb = await startTestSandbox();
  dir = await mkdtemp(path.join(os.tmpdir(), 'pix-scenario-report-'));
});
afterAll(async () => {
  await sb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const token = {
  request: {
    method: 'POST',
    path: '/v1/oauth/token',
    body: { grant_type: 'client_credentials', client_id: '${account.client_id}', client_secret: '${account.client_secret}' },
  },
};

async function scenario(name: string, steps: unknown[]) {
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify({ name, steps }));
  return loadScenario(file);
}
const run = async (loaded: NonNullable<Awaited<ReturnType<typeof scenario>>['loaded']>) =>
  (
    await runAll([loaded], {
      baseUrl: sb.url,
      adminToken: null,
      concurrency: 1,
      webhookTimeout: 5,
      receiverHost: '127.0.0.1',
      receiverPort: 0,
    })
  ).scenarios[0]!;

describe('the expectReport step', () => {
  it("passes when the scenario's tenant's checks have the outcomes named, and names the mismatch when not", async () => {
    const { loaded, problems } = await scenario('tokens', [
      token,
      token,
      token,
      token,
      { expectReport: { 'token-reuse': 'fail', polling: 'not-exercised', 'validation-errors': 'pass' } },
      { name: 'a careful app would pass', expectReport: { 'token-reuse': 'pass', 'idempotent-retry': 'not-exercised' } },
    ]);
    expect(problems).toEqual([]);
    const result = await run(loaded!);
    expect(result.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed', 'failed']);
    expect(result.steps[4]!.name).toBe('expect report token-reuse fail, polling not-exercised, validation-errors pass');
    const failure = result.steps[5]!.failure!;
    expect(failure.message).toMatch(
      /^token-reuse is fail, expected pass \(more than 3 tokens within 300 s for client .*\); evidence \d+, \d+, \d+, \d+$/,
    );
    expect(failure.mismatches).toEqual([
      expect.objectContaining({ path: '/checks/token-reuse/outcome', expected: 'pass', actual: 'fail' }),
    ]);
  });

  it('is refused when the file is read: an unknown check or outcome, or no check at all', async () => {
    for (const step of [{ expectReport: { 'token-reuse': 'great' } }, { expectReport: { speed: 'pass' } }, { expectReport: {} }]) {
      const { loaded, problems } = await scenario('bad', [step]);
      expect(loaded).toBeUndefined();
      expect(problems.length).toBeGreaterThan(0);
    }
  });
});
