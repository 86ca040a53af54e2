import { defineConfig } from 'vitest/config';

// `npm run test:chaos`: each file runs a whole installation of its own (PostgreSQL, Temporal,
// SMTP, API, worker) and breaks parts of it, so files run one at a time.
export default defineConfig({
  test: {
    include: ['test/chaos/**/*.test.ts'],
    globalSetup: ['test/chaos/helpers/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
