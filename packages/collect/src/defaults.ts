/**
 * Every default of gwprof in one place, read by the CLI (flag defaults and help) and by anyone
 * calling collect directly (benchmark scripts).
 */
import path from 'node:path';
import { DEFAULT_SUBGRAPH_PORTS } from './subgraphs.js';
import { defaultProfilesDir, fixturesDir } from './paths.js';

export interface ScenarioFiles {
  query: string;
  variables: string | null;
  expect: string | null;
}

/** Seed 000's TestQuery and its golden response: one identical request, repeated. */
export const SEED_QUERY: ScenarioFiles = {
  query: path.join(fixturesDir, 'test-query.graphql'),
  variables: null,
  expect: path.join(fixturesDir, 'test-query.expected.json'),
};

/**
 * A query whose variables change on every request (100 sets, each with its golden response), so a
 * gateway that shares identical in-flight subgraph requests is measured on real work.
 */
export const VARIED_QUERY: ScenarioFiles = {
  query: path.join(fixturesDir, 'user-reviews.graphql'),
  variables: path.join(fixturesDir, 'user-reviews.variables.json'),
  expect: path.join(fixturesDir, 'user-reviews.expected.json'),
};

export const DEFAULTS = {
  gateway: 'mesh',
  gatewayPort: 4000,
  subgraphPorts: DEFAULT_SUBGRAPH_PORTS,
  subgraphDelayMs: 0,
  timeoutSec: 10,
  /** Measured overhead on Mesh: 1 ms costs about 12% CPU per request, 4 ms about 2% (README). */
  samplingIntervalUs: 4000,
  outDir: defaultProfilesDir,
  sweep: {
    scenario: SEED_QUERY,
    concurrency: [10, 100, 300, 500, 1000],
    durationSec: 20,
    warmupSec: 5,
    /** 0..1: a step with a lower success rate fails. */
    minSuccess: 1,
    profiler: 'inspector' as const,
  },
  quick: { concurrency: [10, 100], durationSec: 5, warmupSec: 2 },
  compare: {
    scenario: VARIED_QUERY,
    concurrency: [50],
    durationSec: 10,
    warmupSec: 3,
    /** Smallest relative change that counts as a regression. */
    threshold: 0.05,
    minTrials: 3,
    maxTrials: 10,
  },
} as const;
