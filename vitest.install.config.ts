import { defineConfig } from 'vitest/config';

// The packed-install test (test/install): run by the container phase of CI, after the image is built
// (npm run test:install, from scripts/container-check.sh). Not part of npm test.
export default defineConfig({
  test: {
    include: ['test/install/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 900_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
