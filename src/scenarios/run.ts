// Runs a set of validated scenarios against one sandbox, N at a time, each in its own tenant,
// with one webhook receiver shared by the run.
import { ControlClient } from '../client/control-client.js';
import { Transport } from '../client/transport.js';
import type { LoadedScenario } from './load.js';
import { WebhookReceiver } from './receiver.js';
import type { RunResult, ScenarioResult } from './result.js';
import { runScenario } from './runner.js';

/** how long one call of a step may go unanswered */
const CALL_TIMEOUT_MS = 15_000;

export interface RunOptions {
  baseUrl: string;
  adminToken: string | null;
  concurrency: number;
  /** default bound of expectWebhook, seconds */
  webhookTimeout: number;
  /** where the receiver listens, and the URL the sandbox is told to post to (when it differs) */
  receiverHost: string;
  receiverPort: number;
  receiverUrl?: string;
  onScenario?: (r: ScenarioResult, done: number, total: number) => void;
}

export async function runAll(scenarios: LoadedScenario[], opts: RunOptions): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const client = new ControlClient({ baseUrl: opts.baseUrl, adminToken: opts.adminToken, timeoutMs: CALL_TIMEOUT_MS });
  // calls made as a principal carry no admin token
  const api = new Transport({ baseUrl: opts.baseUrl, timeoutMs: CALL_TIMEOUT_MS });
  const needsReceiver = scenarios.some((s) => s.scenario.steps.some((st) => st.expectWebhook !== undefined || st.receiver !== undefined));
  const receiver = needsReceiver ? await WebhookReceiver.start(opts.receiverHost, opts.receiverPort, opts.receiverUrl) : null;
  const results: ScenarioResult[] = new Array<ScenarioResult>(scenarios.length);
  let done = 0;
  // indexes into `scenarios`: the shared ones N at a time, then each exclusive one alone
  const pool = async (queue: number[], width: number) => {
    const worker = async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        const r = await runScenario(scenarios[i]!, { client, api, webhookTimeoutMs: opts.webhookTimeout * 1000 }, receiver);
        results[i] = r;
        opts.onScenario?.(r, ++done, scenarios.length);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(width, queue.length)) }, worker));
  };
  const all = scenarios.map((_, i) => i);
  try {
    await pool(all.filter((i) => !scenarios[i]!.scenario.exclusive), opts.concurrency);
    await pool(all.filter((i) => scenarios[i]!.scenario.exclusive), 1);
  } finally {
    await receiver?.stop();
  }
  return { baseUrl: client.baseUrl, startedAt, durationMs: Math.round(performance.now() - started), concurrency: opts.concurrency, scenarios: results };
}
