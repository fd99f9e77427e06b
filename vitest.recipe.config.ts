import { defineConfig } from 'vitest/config';

// The CI recipe's own steps, run for real (about 11 minutes of counting under callgrind): apart from
// `pnpm test`, whose whole run must stay within CI's 25 minutes. `pnpm test:recipe` runs it.
export default defineConfig({
  test: {
    include: ['test/recipe/**/*.slow.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
  },
});
