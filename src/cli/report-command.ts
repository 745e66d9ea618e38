// `pix-sandbox report` (docs/cli.md#report): the integration report of one tenant (docs/report.md), as
// text, JSON, JUnit XML or an HTML page, on stdout or in a file. Exit 1 when a check fails (or the
// call does), 2 for bad usage.
import { writeFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import { clientOf, connectionOptions, runCommand, UsageError } from './options.js';
import { formatReport, REPORT_FORMATS } from './report-format.js';

export function reportCommand<T>(y: Argv<T>): Argv<T> {
  return y.command(
    'report',
    "judge an app's integration: the sandbox's report of one tenant, check by check (exit 1 when a check fails)",
    (c) =>
      connectionOptions(c)
        .option('account', { type: 'string', describe: 'the tenant (account id) to judge (default: the first account, the default one)' })
        .option('probe', {
          type: 'boolean',
          default: false,
          describe: "probe the tenant's webhook receivers first (bad, stale, duplicate)",
        })
        .option('format', { type: 'string', choices: REPORT_FORMATS, default: 'text', describe: 'how to write it' })
        .option('out', { type: 'string', describe: 'the file to write (default: stdout)' })
        .example('$0 report --probe --format junit --out reports/integration.xml', 'in CI: one test case per check'),
    async (a) => {
      let failed = false;
      await runCommand(async () => {
        const client = clientOf(a);
        const accountId = a.account ?? (await client.accounts())[0]?.id;
        if (accountId === undefined) throw new UsageError('the sandbox has no account: name one with --account');
        const report = await client.report({ accountId, probe: a.probe });
        const text = formatReport(report, a.format as (typeof REPORT_FORMATS)[number]);
        if (a.out) await writeFile(a.out, text);
        else process.stdout.write(text);
        failed = report.checks.some((c) => c.outcome === 'fail');
        return undefined;
      });
      // runCommand has set 0 for the call that succeeded: a failed check still fails the command
      if (failed) process.exitCode = 1;
    },
  );
}
