import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The gateway preload and what it shares are CommonJS TypeScript (.cts), which Vite leaves alone by default.
  oxc: { include: /\.([cm]?ts|[jt]sx)$/ },
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
