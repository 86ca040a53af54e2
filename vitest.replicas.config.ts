import { defineConfig } from 'vitest/config';

// `npm run test:replicas`: the production shape (two APIs, two workers, one PostgreSQL, a Temporal
// server on PostgreSQL built with `go install`), with one API and one worker killed mid-work.
export default defineConfig({
  test: {
    include: ['test/replicas/**/*.test.ts'],
    globalSetup: ['test/replicas/helpers/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 600_000,
    // The first run builds the Temporal server (global setup); starting the stack takes a while.
    hookTimeout: 300_000,
    reporters: ['default'],
  },
});
