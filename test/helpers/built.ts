// Global setup of the slow project (vitest.config.ts): its tests run the build's output (dist/), so
// dist/ must be a build of the sources as they are. npm test has just built it (the check takes a
// few milliseconds); a lone `npx vitest run test/e2e/…` after an edit builds first, saying so.
import { spawnSync } from 'node:child_process';
import { packagePath } from '../../src/paths.js';

export default function setup(): void {
  const r = spawnSync(process.execPath, [packagePath('scripts', 'build-state.mjs'), 'ensure'], { cwd: packagePath(), stdio: 'inherit' });
  if (r.status !== 0)
    throw new Error(`the build failed (node scripts/build-state.mjs ensure: exit ${r.status}): the slow tests need dist/`);
}
