import { defineConfig } from 'vitest/config';

/** The end-to-end suite's known findings (test/e2e/findings/README.md), asserted strictly. */
export default defineConfig({
  test: {
    include: ['test/e2e/findings/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
