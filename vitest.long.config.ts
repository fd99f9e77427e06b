import { defineConfig } from 'vitest/config';
import BuildsLastSequencer from './test/sequencer.js';
import { longFiles } from './vitest.config.js';

/**
 * The long tier: the few end-to-end tests that take a minute or more each (a Mesh comparison with
 * its profiles, a planted loop counted under callgrind, a soak, the demo installed from the
 * registry), kept out of README's test command so that it ends within 10 minutes. .ci/run runs
 * this tier right after that command, so CI still runs every test. One file at a time, as the
 * e2e project: they start gateways on fixed loopback ports and measure them.
 *   pnpm test:long
 */
export default defineConfig({
  oxc: { include: /\.([cm]?ts|[jt]sx)$/ },
  test: {
    name: 'long',
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: BuildsLastSequencer },
    include: [longFiles],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
