// The command as users run it: by its name, through its "#!/usr/bin/env -S node <flags>" line
// (the package's bin, `npm start`, the image's ENTRYPOINT), not as `node file`.
import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../src/paths.js';

const BIN = packagePath('dist', 'bin', 'pix-sandbox.js');
const run = promisify(execFile);

describe('the shipped command', () => {
  it('is executable and runs by its name, with the node flags of its first line', async () => {
    expect(() => accessSync(BIN, constants.X_OK)).not.toThrow();
    const first = readFileSync(BIN, 'utf8').split('\n', 1)[0];
    expect(first).toMatch(/^#!\/usr\/bin\/env -S node --max-semi-space-size=\d+$/);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIX_SANDBOX_')));
    const { stdout } = await run(BIN, ['--version'], { env, timeout: 15_000 });
    expect(stdout.trim()).toBe(JSON.parse(readFileSync(packagePath('package.json'), 'utf8')).version);
  });
});
