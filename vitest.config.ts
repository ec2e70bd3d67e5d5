import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The known findings of the end-to-end suite stay red until termsight is fixed: `npm run test:findings`.
    exclude: [...configDefaults.exclude, 'test/e2e/findings/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
