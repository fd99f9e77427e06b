import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'subgraphs/*/src/**/*.test.ts', 'test/**/*.test.ts', 'bench/src/**/*.test.ts'],
    // End-to-end tests start real servers on fixed loopback ports and the machine has 2 cores:
    // run files one after another.
    fileParallelism: false,
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
