import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects (docs/contributing.md#test):
// - fast: test/unit and test/integration, everything in the test process: no build (no dist/), no
//   child process, no browser, no container. test/helpers/in-process.ts makes starting a child process
//   throw. Files share one module graph per worker (isolate: false): the sandbox keeps its state in
//   the app context, never in module globals, so several run in one process. `npm run test:fast`.
// - slow: what needs the build or other processes: test/e2e (the built command in child processes,
//   Chromium), test/build (what npm run build writes), test/torture (crashes, outages, sizes). Its
//   global setup builds dist/ first when the sources changed since the last build.
// `npm test` runs both, the fast project first; the packed-install test has its own config
// (vitest.install.config.ts).
// The fast tests wait on real time (the tick, webhook attempts, scenario steps) about as long as they
// compute, so they get two workers even on 2 cores (vitest's default there is one): one runs while the
// other waits. The slow ones keep the default: their child processes need the cores.
const FAST_WORKERS = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          isolate: false,
          maxWorkers: FAST_WORKERS,
          sequence: { groupOrder: 0 },
          setupFiles: ['test/helpers/in-process.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/e2e/**/*.test.ts', 'test/build/**/*.test.ts', 'test/torture/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          globalSetup: ['test/helpers/built.ts'],
        },
      },
    ],
  },
});
