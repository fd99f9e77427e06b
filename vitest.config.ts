import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import BuildsLastSequencer from './test/sequencer.js';

/**
 * README's test command: two groups, one after the other. `unit`: tests that start nothing that measures (pure functions,
 * parsers, tiny servers on their own ports), in parallel on every core. `e2e`: tests that start
 * gateways, subgraphs and load on fixed loopback ports and measure them, one file at a time on a
 * machine the unit tests have left: two files at once would share ports and the cores they measure.
 * The long end-to-end tests (`*.long.test.ts`) are a tier of their own, `pnpm test:long`
 * (vitest.long.config.ts), which .ci/run runs after this command.
 */
const unitFiles = [
  'packages/*/src/**/*.test.ts',
  'subgraphs/*/src/**/*.test.ts',
  'bench/src/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/docs-links.test.ts',
  'test/docs-pages.test.ts',
  'test/third-party-licences.test.ts',
  'test/ci-recipe.test.ts',
  'test/exit-codes.test.ts',
  'test/leak-fixtures.test.ts',
  'test/bad-inputs.test.ts',
  'test/docs-flags.test.ts',
  'test/compose.test.ts',
  'test/file-times-reporter.test.ts',
];

/** The long tier's: run by `pnpm test:long`, never by README's test command. */
export const longFiles = 'test/**/*.long.test.ts';

export default defineConfig({
  // The gateway preload and what it shares are CommonJS TypeScript (.cts), which Vite leaves alone by default.
  oxc: { include: /\.([cm]?ts|[jt]sx)$/ },
  test: {
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: BuildsLastSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // Every core: vitest's default leaves one free (one worker on a 2-core machine), for a watcher.
      { extends: true, test: { name: 'unit', include: unitFiles, maxWorkers: availableParallelism(), sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: [...unitFiles, longFiles], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
