import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The chaos suite breaks installations of its own: `npm run test:chaos` (vitest.chaos.config.ts);
    // the replicas run on a Temporal server of their own: `npm run test:replicas`.
    exclude: [...configDefaults.exclude, 'test/chaos/**', 'test/replicas/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Each API test file runs its own API and worker processes; two files at a time fit 2 cores.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
