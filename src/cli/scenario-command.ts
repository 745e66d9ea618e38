// `pix-sandbox scenario run|validate <files or folders…>`. Every file is validated before anything
// runs (exit 2 naming file, step and field); then each scenario runs in its own tenant against
// --base-url, or against an in-process sandbox with --start. Exit 0 all passed, 1 one failed.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Argv } from 'yargs';
import { defaultConfig } from '../config.js';
import { boot, type Running } from '../server.js';
import { describeProblem, loadAll } from '../scenarios/load.js';
import { consoleReporter } from '../scenarios/reporters/console.js';
import { jsonReport } from '../scenarios/reporters/json.js';
import { junitReport } from '../scenarios/reporters/junit.js';
import { countOf } from '../scenarios/result.js';
import { runAll } from '../scenarios/run.js';
import { ControlClient, NetworkError } from './control-client.js';
import { baseUrlOf, connectionOptions } from './options.js';

function runOptions<T>(y: Argv<T>) {
  return connectionOptions(y)
    .positional('paths', { type: 'string', array: true, demandOption: true, describe: 'scenario files (.yaml, .yml, .json) or folders of them' })
    .option('start', { type: 'boolean', default: false, describe: 'start an in-process sandbox (free port, in-memory store) instead of using --base-url' })
    .option('fixtures', { type: 'string', describe: 'with --start: the fixture set to load (default fixtures/default.json)' })
    .option('reporter', { type: 'string', choices: ['console', 'junit', 'json'], default: 'console', describe: 'report format' })
    .option('out', { type: 'string', describe: 'file for the junit/json report (default: stdout, the progress then goes to stderr)' })
    .option('concurrency', { type: 'number', default: 4, describe: 'scenarios run in parallel, each in its own tenant' })
    .option('webhook-timeout', { type: 'number', default: 5, describe: 'default seconds an expectWebhook step waits' })
    .option('receiver-host', { type: 'string', default: '127.0.0.1', describe: 'address the webhook receiver listens on' })
    .option('receiver-port', { type: 'number', default: 0, describe: 'port of the webhook receiver (0 = a free one)' })
    .option('receiver-url', { type: 'string', describe: 'URL the sandbox posts webhooks to, when it cannot reach the receiver at its address (e.g. from a container)' })
    .check((a) => {
      if (!Number.isInteger(a.concurrency) || a.concurrency < 1) throw new Error('--concurrency must be an integer ≥ 1');
      if (!(a['webhook-timeout'] > 0)) throw new Error('--webhook-timeout must be a positive number of seconds');
      if (a.out && a.reporter === 'console') throw new Error('--out needs --reporter junit or json');
      return true;
    })
    .example('$0 scenario run scenarios --start', 'run every shipped scenario against a throw-away sandbox')
    .example('$0 scenario run scenarios/charge-paid.yaml --base-url http://localhost:8080', 'against a running sandbox')
    .example('$0 scenario run scenarios --start --reporter junit --out reports/scenarios.xml', 'for CI');
}

type RunArgs = Awaited<ReturnType<typeof runOptions>['argv']>;

async function validateFiles(paths: string[]) {
  const { scenarios, problems } = await loadAll(paths);
  for (const p of problems) process.stderr.write(`pix-sandbox: ${describeProblem(p)}\n`);
  return problems.length ? null : scenarios;
}

async function run(a: RunArgs): Promise<number> {
  const scenarios = await validateFiles(a.paths);
  if (!scenarios) return 2;
  let running: Running | null = null;
  let baseUrl = baseUrlOf(a);
  const adminToken = a['admin-token'] || null;
  if (a.start) {
    const config = defaultConfig({ port: 0, httpsPort: null, host: '127.0.0.1', memory: true, tick: true, quiet: true, fsync: false, adminToken, ...(a.fixtures ? { fixtures: path.resolve(a.fixtures) } : {}) });
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
      await new ControlClient(baseUrl, adminToken).call('GET', '/_sandbox/clock');
    } catch (e) {
      const why = e instanceof NetworkError ? `${e.message}; is the sandbox running? (--base-url, PIX_SANDBOX_URL, or --start)` : `the sandbox at ${baseUrl} answered: ${(e as Error).message}`;
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

export function scenarioCommand(y: Argv): Argv {
  return y.command('scenario <command>', 'run or validate scenario files (YAML or JSON)', (s) =>
    s
      .command(
        'run <paths..>',
        'run scenarios; exit 0 when all pass, 1 when one fails, 2 when a file is invalid',
        (c) => runOptions(c),
        async (a) => {
          process.exitCode = await run(a);
          // everything is stopped by now; should a stray handle linger, CI must still get its exit code
          setTimeout(() => process.exit(), 2000).unref();
        },
      )
      .command(
        'validate <paths..>',
        'check scenario files against their schema without running them (exit 0 or 2)',
        (c) => c.positional('paths', { type: 'string', array: true, demandOption: true }),
        async (a) => {
          const ok = await validateFiles(a.paths);
          if (ok) process.stdout.write(`${ok.length} scenario file(s) valid\n`);
          process.exitCode = ok ? 0 : 2;
        },
      )
      .demandCommand(1, 'name a scenario command: run or validate'),
  );
}
