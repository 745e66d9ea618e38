#!/usr/bin/env node
// The pix-sandbox command line. Exit codes: 0 success, 1 a call or scenario failed, 2 bad usage.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { configFromArgs, serve, serveOptions, UsageError } from './serve.js';
import { COMMANDS } from './commands.js';

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
for (const add of COMMANDS) cli = add(cli);
await cli
  .demandCommand(1, 'name a command, e.g. pix-sandbox serve')
  .strict()
  .help()
  .alias('h', 'help')
  .version()
  .fail((msg, err, y) => {
    if (err) {
      console.error(`pix-sandbox: ${err.message}`);
      process.exit(1);
    }
    console.error(`${msg ?? "bad usage"}\nRun pix-sandbox --help for usage.`);
    void y;
    process.exit(2);
  })
  .parseAsync();
