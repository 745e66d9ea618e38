// `pix-sandbox wait`: blocks until the sandbox at --base-url is ready (listening, store open,
// fixtures loaded), for a CI step between starting the sandbox and running the tests.
// Exit 0 ready, 1 not ready within --timeout (saying what it last saw), 2 bad usage.
import type { Argv } from 'yargs';
import { waitForSandbox } from '../client/wait.js';
import { baseUrlOf, DEFAULT_BASE_URL } from './options.js';

export function waitCommand(y: Argv): Argv {
  return y.command(
    'wait',
    'wait until the sandbox is ready; exit 0, or 1 after --timeout saying what it last saw',
    (c) =>
      c
        .option('base-url', { type: 'string', describe: `the sandbox's URL [PIX_SANDBOX_URL] (default ${DEFAULT_BASE_URL})` })
        .option('timeout', { type: 'number', default: 30, describe: 'seconds to wait before giving up' })
        .check((a) => (a.timeout > 0 ? true : '--timeout must be a positive number of seconds'))
        .example('$0 wait --base-url http://127.0.0.1:8080 --timeout 60', 'in CI, after starting the sandbox in the background'),
    async (a) => {
      const baseUrl = baseUrlOf(a);
      const result = await waitForSandbox(baseUrl, { timeoutSeconds: a.timeout });
      if (result.ready) {
        process.stdout.write(`${baseUrl} is ready (pix-sandbox ${result.health.version}, after ${result.elapsedMs} ms)\n`);
        process.exitCode = 0;
      } else {
        process.stderr.write(
          `pix-sandbox: ${baseUrl} was not ready after ${a.timeout} s (${result.attempts} attempts); last seen: ${result.lastSeen}\n`,
        );
        process.exitCode = 1;
      }
    },
  );
}
