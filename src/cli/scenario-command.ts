// `pix-sandbox scenario run|validate <files or folders…> [--shipped]`. Every file is validated
// before anything runs (exit 2 naming every problem: file, step and field); then each scenario runs
// in its own tenant against --base-url, or against an in-process sandbox with --start. Exit 0 all
// passed, 1 one failed.
import type { Argv } from 'yargs';
import { packagePath } from '../paths.js';
import { connectionOptions } from './options.js';

/** The paths and --shipped of both subcommands. */
function pathOptions<T>(y: Argv<T>) {
  return y
    .positional('paths', { type: 'string', array: true, describe: 'scenario files (.yaml, .yml, .json) or folders of them' })
    .option('shipped', {
      type: 'boolean',
      default: false,
      describe: 'the scenarios shipped with the package (its scenarios/ folder), from whatever folder you are in',
    })
    .check((a) => ((a.paths?.length ?? 0) > 0 || a.shipped ? true : 'name scenario files or folders, or use --shipped'));
}

/** The files the command works on: the paths given, and the package's own folder with --shipped. */
export function scenarioPaths(a: { paths?: string[] | undefined; shipped: boolean }): string[] {
  return [...(a.paths ?? []), ...(a.shipped ? [packagePath('scenarios')] : [])];
}

function runOptions<T>(y: Argv<T>) {
  return connectionOptions(pathOptions(y))
    .option('start', {
      type: 'boolean',
      default: false,
      describe: 'start an in-process sandbox (free port, in-memory store) instead of using --base-url',
    })
    .option('fixtures', { type: 'string', describe: 'with --start: the fixture set to load (default fixtures/default.json)' })
    .option('reporter', { type: 'string', choices: ['console', 'junit', 'json'], default: 'console', describe: 'report format' })
    .option('out', { type: 'string', describe: 'file for the junit/json report (default: stdout, the progress then goes to stderr)' })
    .option('concurrency', { type: 'number', default: 4, describe: 'scenarios run in parallel, each in its own tenant' })
    .option('webhook-timeout', { type: 'number', default: 5, describe: 'default seconds an expectWebhook step waits' })
    .option('receiver-host', { type: 'string', default: '127.0.0.1', describe: 'address the webhook receiver listens on' })
    .option('receiver-port', { type: 'number', default: 0, describe: 'port of the webhook receiver (0 = a free one)' })
    .option('receiver-url', {
      type: 'string',
      describe: 'URL the sandbox posts webhooks to, when it cannot reach the receiver at its address (e.g. from a container)',
    })
    .check((a) => {
      if (!Number.isInteger(a.concurrency) || a.concurrency < 1) throw new Error('--concurrency must be an integer ≥ 1');
      if (!(a['webhook-timeout'] > 0)) throw new Error('--webhook-timeout must be a positive number of seconds');
      if (a.out && a.reporter === 'console') throw new Error('--out needs --reporter junit or json');
      return true;
    })
    .example('$0 scenario run --shipped --start', 'run every shipped scenario against a throw-away sandbox')
    .example('$0 scenario run scenarios/charge-paid.yaml --base-url http://localhost:8080', 'against a running sandbox')
    .example('$0 scenario run test/pix --start --reporter junit --out reports/scenarios.xml', 'your own scenario folder, in CI');
}

export type RunArgs = Awaited<ReturnType<typeof runOptions>['argv']>;

export function scenarioCommand(y: Argv): Argv {
  return y.command('scenario <command>', 'run or validate scenario files (YAML or JSON)', (s) =>
    s
      .command(
        'run [paths..]',
        'run scenarios; exit 0 when all pass, 1 when one fails, 2 when a file is invalid',
        (c) => runOptions(c),
        async (a) => {
          const { run } = await import('./scenario-run.js');
          process.exitCode = await run(a);
          // everything is stopped by now; should a stray handle linger, CI must still get its exit code
          setTimeout(() => process.exit(), 2000).unref();
        },
      )
      .command(
        'validate [paths..]',
        'check scenario files without running them, naming every problem (exit 0 or 2)',
        (c) => pathOptions(c),
        async (a) => {
          const { validateFiles } = await import('./scenario-run.js');
          const ok = await validateFiles(scenarioPaths(a));
          if (ok) process.stdout.write(`${ok.length} scenario file(s) valid\n`);
          process.exitCode = ok ? 0 : 2;
        },
      )
      .demandCommand(1, 'name a scenario command: run or validate'),
  );
}
