// The work of `scenario run|validate`, loaded only when such a command runs, so that `serve`
// starts without the scenario runner, its reporters and the YAML parser.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultConfig } from '../config.js';
import { boot, type Running } from '../server.js';
import { describeProblem, loadAll } from '../scenarios/load.js';
import { consoleReporter } from '../scenarios/reporters/console.js';
import { jsonReport } from '../scenarios/reporters/json.js';
import { junitReport } from '../scenarios/reporters/junit.js';
import { countOf } from '../scenarios/result.js';
import { runAll } from '../scenarios/run.js';
import { NetworkError, SandboxApiError } from '../client/transport.js';
import { baseUrlOf, clientOf } from './options.js';
import { scenarioPaths, type RunArgs } from './scenario-command.js';

export async function validateFiles(paths: string[]) {
  const { scenarios, problems } = await loadAll(paths);
  for (const p of problems) process.stderr.write(`pix-sandbox: ${describeProblem(p)}\n`);
  return problems.length ? null : scenarios;
}

export async function run(a: RunArgs): Promise<number> {
  const scenarios = await validateFiles(scenarioPaths(a));
  if (!scenarios) return 2;
  let running: Running | null = null;
  let baseUrl = baseUrlOf(a);
  const adminToken = a['admin-token'] || null;
  if (a.start) {
    const config = defaultConfig({
      port: 0,
      httpsPort: null,
      host: '127.0.0.1',
      memory: true,
      tick: true,
      quiet: true,
      fsync: false,
      adminToken,
      ...(a.fixtures ? { fixtures: path.resolve(a.fixtures) } : {}),
    });
    try {
      running = await boot(config);
    } catch (e) {
      process.stderr.write(`pix-sandbox: cannot start the sandbox: ${(e as Error).message}\n`);
      return 2;
    }
    baseUrl = running.listeners[0]!.url;
  }
  try {
    try {
      // the clock, not health: health stays open when the control API needs an admin token
      await clientOf({ 'base-url': baseUrl, 'admin-token': adminToken ?? undefined }).clock();
    } catch (e) {
      const why =
        e instanceof NetworkError
          ? `${e.message}; is the sandbox running? (--base-url, PIX_SANDBOX_URL, or --start)`
          : e instanceof SandboxApiError
            ? `the sandbox at ${baseUrl} answered: ${e.reason} (HTTP ${e.status}${e.code ? ` ${e.code}` : ''})`
            : `the sandbox at ${baseUrl} answered: ${(e as Error).message}`;
      process.stderr.write(`pix-sandbox: ${why}\n`);
      return 1;
    }
    const toStdout = a.reporter !== 'console' && !a.out;
    const progress = consoleReporter(toStdout ? process.stderr : process.stdout);
    progress.start(scenarios.length, baseUrl, a.concurrency);
    const result = await runAll(scenarios, {
      baseUrl,
      adminToken,
      concurrency: a.concurrency,
      webhookTimeout: a['webhook-timeout'],
      receiverHost: a['receiver-host'],
      receiverPort: a['receiver-port'],
      ...(a['receiver-url'] ? { receiverUrl: a['receiver-url'] } : {}),
      onScenario: (r, done, total) => progress.scenario(r, done, total),
    });
    progress.end(result);
    if (a.reporter !== 'console') {
      const report = a.reporter === 'junit' ? junitReport(result) : jsonReport(result);
      if (a.out) {
        await mkdir(path.dirname(path.resolve(a.out)), { recursive: true });
        await writeFile(a.out, report);
        process.stderr.write(`${a.reporter} report written to ${a.out}\n`);
      } else process.stdout.write(report);
    }
    return countOf(result).failed ? 1 : 0;
  } finally {
    await running?.stop();
  }
}
