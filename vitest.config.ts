import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Fails the run, naming the files, when dist/ is older than src/: several suites run dist/.
    globalSetup: ['test/support/global-setup.ts'],
    // A guard against hangs, not a speed check: property tests run hundreds of parses and took up
    // to 5.2 s on a loaded 2-core machine, past vitest's 5 s default. Nothing asserts time.
    testTimeout: 30_000,
  },
});
