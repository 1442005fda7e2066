import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Fails the run, naming the files, when dist/ is older than src/: several suites run dist/.
    globalSetup: ['test/support/global-setup.ts'],
  },
});
