// Setup of the fast project (vitest.config.ts): its tests run in the test process only. A test that
// starts a child process (the built command, a browser, a compiler, a shell) belongs to the slow
// project (test/e2e, test/build): here every way of starting one throws, naming where it goes.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

for (const name of STARTERS) {
  Object.assign(childProcess, {
    [name]: () => {
      throw new Error(
        `child_process.${name}: the fast tests (test/unit, test/integration) run in this process only; a test that starts a process belongs in test/e2e (docs/contributing.md#test)`,
      );
    },
  });
}
syncBuiltinESMExports(); // the named exports (import { spawn } from 'node:child_process') follow
