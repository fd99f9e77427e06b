import { defineConfig } from 'vitest/config';

// Tests that count under callgrind for many minutes (the CI recipes' steps run for real, a planted
// history bisected): apart from `pnpm test`, whose whole run must stay within CI's 25 minutes.
// `pnpm test:slow` runs them; `pnpm test:recipe` the recipes' alone.
export default defineConfig({
  test: {
    include: ['test/**/*.slow.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
  },
});
