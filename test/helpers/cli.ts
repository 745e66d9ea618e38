// The shipped command (dist/bin/pix-sandbox.js, built by npm run build) run once as a child process,
// for the tests of test/e2e: its exit code and output. A clean environment: no PIX_SANDBOX_* of the
// machine running the tests leaks in.
import { execFile } from 'node:child_process';
import { packagePath } from '../../src/paths.js';

const BIN = packagePath('dist', 'bin', 'pix-sandbox.js');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], opts: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: opts.cwd ?? process.cwd(),
        env: { ...base, NO_COLOR: '1', ...opts.env },
        timeout: opts.timeoutMs ?? 150_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        if (code === -1) stderr += `\n[killed: ${err?.signal ?? err?.code ?? err?.message}]`;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
