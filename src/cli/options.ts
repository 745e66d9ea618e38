// Options shared by every command that talks to a running sandbox, and how CLI commands end.
import type { Argv } from 'yargs';
import { ControlClient } from '../client/control-client.js';
import { NetworkError, SandboxApiError } from '../client/transport.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
/** how long a command waits for an answer */
const CLI_TIMEOUT_MS = 15_000;

export function connectionOptions<T>(y: Argv<T>) {
  return y
    .option('base-url', {
      type: 'string',
      describe: `the sandbox's URL [PIX_SANDBOX_URL] (default ${DEFAULT_BASE_URL})`,
    })
    .option('admin-token', { type: 'string', describe: 'x-sandbox-admin-token, when the sandbox has one [PIX_SANDBOX_ADMIN_TOKEN]' });
}

/**
 * bin.ts maps each option to PIX_SANDBOX_<OPTION> (so PIX_SANDBOX_BASE_URL also works); the documented
 * variable of --base-url is PIX_SANDBOX_URL, read here. A flag wins over the variable.
 */
export function baseUrlOf(argv: { 'base-url'?: string | undefined }): string {
  const url = argv['base-url'] || process.env.PIX_SANDBOX_URL || DEFAULT_BASE_URL;
  return url.replace(/\/+$/, '');
}

export function clientOf(argv: { 'base-url'?: string | undefined; 'admin-token'?: string | undefined }): ControlClient {
  return new ControlClient({ baseUrl: baseUrlOf(argv), adminToken: argv['admin-token'] || null, timeoutMs: CLI_TIMEOUT_MS });
}

/** Thrown by a handler for bad usage that yargs could not see (exit 2). */
export class UsageError extends Error {}

function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Runs a command's body: prints its result as JSON; 1 when a call failed, 2 for bad usage. */
export async function runCommand(body: () => Promise<unknown>): Promise<void> {
  try {
    const out = await body();
    if (out !== undefined) printJson(out);
    process.exitCode = 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`pix-sandbox: ${e.message}\nRun with --help for usage.\n`);
      process.exitCode = 2;
    } else if (e instanceof SandboxApiError) {
      process.stderr.write(`pix-sandbox: ${e.reason} (HTTP ${e.status}${e.code ? ` ${e.code}` : ''})\n`);
      for (const d of e.details) process.stderr.write(`  ${d.path}: ${d.message}\n`);
      process.exitCode = 1;
    } else if (e instanceof NetworkError) {
      process.stderr.write(`pix-sandbox: ${e.message}; is the sandbox running? (set --base-url or PIX_SANDBOX_URL)\n`);
      process.exitCode = 1;
    } else throw e;
  }
}
