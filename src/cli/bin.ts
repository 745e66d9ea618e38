#!/usr/bin/env -S node --max-semi-space-size=4
// The pix-sandbox command line. Exit codes: 0 success, 1 a call or scenario failed, 2 bad usage.
// The line above caps V8's young generation at 4 MiB per semi-space (16 by default): the sandbox's
// garbage is small and short-lived (a request's objects), but loading a large store fills the young
// generation with records that live on, V8 grows it to the maximum and keeps it committed for the
// life of the process: ~25 MB of resident memory for nothing (bench/RESULTS.md). Every launcher runs
// this file by that line: the package's bin, `npm start`, the image's ENTRYPOINT, and the bench.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { configFromArgs, serve, serveOptions, UsageError } from './serve.js';
import { controlCommands } from './control-commands.js';
import { arrangementCommands } from './arrangement-commands.js';
import { resourceCommands } from './resource-commands.js';
import { snapshotCommands } from './snapshot-commands.js';
import { scenarioCommand } from './scenario-command.js';
import { waitCommand } from './wait.js';
import { reportCommand } from './report-command.js';

let cli = yargs(hideBin(process.argv))
  .scriptName('pix-sandbox')
  .env('PIX_SANDBOX')
  .command(
    'serve',
    'start the sandbox (HTTP API, control API and dashboard)',
    (y) => serveOptions(y),
    async (argv) => {
      try {
        await serve(configFromArgs(argv));
      } catch (e) {
        if (e instanceof UsageError) {
          console.error(`pix-sandbox: ${e.message}`);
          process.exit(2);
        }
        throw e;
      }
    },
  );
// the commands other than serve: the scenario runner, wait, the control-API shortcuts
for (const add of [scenarioCommand, waitCommand, controlCommands, resourceCommands, arrangementCommands, snapshotCommands, reportCommand])
  cli = add(cli);
await cli
  // .env() turns every PIX_SANDBOX_* variable into an option, and .strict() would then reject the
  // ones the running command does not declare (PIX_SANDBOX_PORT for `pay`, PIX_SANDBOX_URL for `serve`).
  .middleware((argv) => {
    const known = new Set(Object.keys((cli as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key));
    for (const name of Object.keys(process.env)) {
      if (!name.startsWith('PIX_SANDBOX_')) continue;
      const kebab = name.slice('PIX_SANDBOX_'.length).toLowerCase().replace(/_/g, '-');
      const camel = kebab.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
      if (!known.has(kebab) && !known.has(camel)) {
        delete argv[kebab];
        delete argv[camel];
      }
    }
  }, true)
  .demandCommand(1, 'name a command, e.g. pix-sandbox serve')
  .strict()
  .help()
  .alias('h', 'help')
  .version()
  .fail((msg, err: Error | string | undefined, y) => {
    // a failed .check() hands its verdict over as `err` too (a string or an Error): still bad usage
    if (err instanceof Error && !msg) {
      console.error(`pix-sandbox: ${err.message}`);
      process.exit(1);
    }
    console.error(`${msg ?? 'bad usage'}\nRun pix-sandbox --help for usage.`);
    void y;
    process.exit(2);
  })
  .parseAsync();
