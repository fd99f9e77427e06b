/**
 * Every default of gwprof in one place, read by the CLI (flag defaults and help) and by anyone
 * calling collect directly (benchmark scripts).
 */
import path from 'node:path';
import { DEFAULT_EPOCH_TEST, DEFAULT_LEAK_DESIGN } from '@gwprof/analysis';
import { DEFAULT_SUBGRAPH_PORTS } from './services/subgraphs.js';
import { defaultProfilesDir, fixturesDir } from './paths.js';

export interface ScenarioFiles {
  query: string;
  variables: string | null;
  expect: string | null;
  /** No goldens on purpose (--expect-none): answers are checked for status, JSON and errors only. */
  expectNone?: boolean;
}

/** Seed 000's TestQuery and its golden response: one identical request, repeated. */
export const SEED_QUERY: ScenarioFiles = {
  query: path.join(fixturesDir, 'test-query.graphql'),
  variables: null,
  expect: path.join(fixturesDir, 'test-query.expected.json'),
};

/**
 * A query whose variables change on every request (2,000 sets, each with its golden response: its own
 * user and its own page of `topProducts`), so a gateway that shares identical in-flight subgraph
 * requests is measured on real work up to about 2,000 connections.
 */
export const VARIED_QUERY: ScenarioFiles = {
  query: path.join(fixturesDir, 'user-reviews.graphql'),
  variables: path.join(fixturesDir, 'user-reviews.variables.json'),
  expect: path.join(fixturesDir, 'user-reviews.expected.json'),
};

export interface ScenarioPreset {
  description: string;
  files: ScenarioFiles;
  concurrency: readonly number[];
  gatewayCpus?: number;
  gatewayMemoryMB?: number;
}

/** Named experiments (`--scenario`): the request stream and, for a seed's experiment, its setup. */
export const SCENARIOS: Record<string, ScenarioPreset> = {
  varied: {
    description:
      'user-reviews with 2,000 variable sets cycled per request, each its own user and topProducts page: no two requests in flight share a root call below c=2000, so sharing identical in-flight requests cannot flatter a gateway',
    files: VARIED_QUERY,
    concurrency: [10, 100, 300, 500, 1000],
  },
  'seed-000': {
    description: 'the first load test gwprof grew from: its TestQuery (one identical request, repeated), levels 10 to 1000, the gateway on 1 CPU with 512 MB',
    files: SEED_QUERY,
    concurrency: [10, 100, 300, 500, 1000],
    gatewayCpus: 1,
    gatewayMemoryMB: 512,
  },
};

export const DEFAULTS = {
  gateway: 'mesh',
  gatewayPort: 4000,
  subgraphPorts: DEFAULT_SUBGRAPH_PORTS,
  subgraphDelayMs: 0,
  /**
   * `--trace`: the window's requests whose subgraph calls are logged and split: the first 25 sent in
   * each second, at most 500 a step (about 200 kB of results.json a step with the demo's 7 calls a request).
   */
  traceSampling: { perSecond: 25, perWindow: 500 },
  timeoutSec: 10,
  /** Longest wait, before a step, for the gateway to work off the previous one. */
  settleSec: 30,
  /** Measured overhead on Mesh: 1 ms costs about 12% CPU per request, 4 ms about 2% (docs/validation/profiler-overhead.md). */
  samplingIntervalUs: 4000,
  /** Mean bytes between allocation samples: about 1.5% CPU per request on Mesh, 64 KiB about 4.6% (docs/allocations.md). */
  heapSamplingBytes: 131072,
  /**
   * After each profiled step, allocations sampled again with TurboFan's inlining off, so an inlined
   * function keeps its own bytes: a re-warm long enough for the hot functions to be optimised
   * again without inlining, then the sampled part (docs/allocations.md has what it costs).
   */
  allocationAttribution: { rewarmSec: 3, seconds: 5 },
  /**
   * Every measured window must hold this many mean round trips and responses (or reach its cap). A
   * saturated gateway answers in bursts about one round trip apart, and a burst more or less at the
   * window's edges moves its throughput by about 1/round trips: 5 let Mesh at c=1000 read 13% low
   * against Little's law, 10 keep that within the 0.9–1.1 band (docs/methodology.md).
   */
  windowMinimums: { minRoundTrips: 10, minResponses: 200 },
  outDir: defaultProfilesDir,
  sweep: {
    scenario: 'varied',
    concurrency: [10, 100, 300, 500, 1000],
    /** The shortest window; it grows to hold enough round trips and responses, up to maxDurationSec. */
    durationSec: 20,
    maxDurationSec: 60,
    /** The longest warm-up; it ends once throughput stops trending. */
    warmupSec: 30,
    /** 0..1: a step with a lower success rate fails. */
    minSuccess: 1,
    profiler: 'inspector' as const,
    /** Open loop (--rate): arrivals and the cap on requests outstanding (beyond it, sends are dropped). */
    arrivals: 'poisson' as const,
    maxInFlight: 1000,
  },
  quick: { concurrency: [10, 100], durationSec: 5, maxDurationSec: 15, warmupSec: 10 },
  /** The closed-loop steps that find a gateway's peak before `--rate auto` or a soak: shorter than a sweep's, as only their peak is kept. */
  peakProbe: { durationSec: 10, maxDurationSec: 20, warmupSec: 15 },
  /** A native soak's allocation sites (soak/allocation-sites.ts): two runs under valgrind's DHAT after the soak. */
  allocationSites: {
    /** The shorter run's requests; the longer answers these and `countedRequests` more, the divisor of every figure. */
    warmupRequests: 20,
    countedRequests: 200,
    /** Sites shown, the largest by bytes live per request. */
    top: 10,
    /** Rust's and C++'s allocation shims take frames of their own before the gateway's code. */
    valgrindArgs: ['--tool=dhat', '--num-callers=30'],
    /** Left at its default action by gateways (they handle SIGTERM and SIGINT by shutting down, which frees what they hold). */
    endSignal: 'SIGVTALRM' as NodeJS.Signals,
    /** How long the process gets to end on that signal (DHAT writes its profile then), and after SIGTERM if it ignored it. */
    endGraceMs: 20_000,
    shutdownGraceMs: 60_000,
  },
  compare: {
    scenario: VARIED_QUERY,
    concurrency: [20],
    /** The candidate's port; the baseline takes gatewayPort. */
    candidatePort: 4005,
    /** The candidate's own subgraph addresses are the subgraph ports plus this (4011–4014). */
    candidateSubgraphPortOffset: 10,
    design: {
      /** The test on epoch means: threshold, α (split across levels), first look and spending, analysis's defaults. */
      threshold: DEFAULT_EPOCH_TEST.threshold,
      alpha: DEFAULT_EPOCH_TEST.alpha,
      minEpochs: DEFAULT_EPOCH_TEST.minEpochs,
      spendingPower: DEFAULT_EPOCH_TEST.spendingPower,
      /** A time verdict resting on one far epoch waits for more (docs/validation/compare-error-rates.md: one far epoch). */
      holdWithoutFarthest: true,
      /** Measured seconds per window, after a lead-in on fresh connections (docs/compare.md: noise per minute). */
      windowSec: 5,
      /** The side's connections only need refilling after the other side's turn: the processes are warm. */
      leadInSec: 1,
      /** Longest warm-up of each side after its start; it ends once CPU per request stops falling. */
      warmupSec: 20,
      /** Blocks at each level per pair of processes (docs/compare.md: the noise study). */
      blocksPerEpoch: 1,
      /**
       * Windows of each side in a block, in random order. Rounds per pair of processes that reach a
       * given precision soonest, m* = (s_w / s_b) · √(c_p / c_r), from the noise study: about 2 in
       * turn, 4 or more with both sides loaded at once (a round costs half as much) (docs/compare.md).
       */
      windowsPerSide: 2,
      windowsPerSideSimultaneous: 4,
      /**
       * Sides in turn, each with the gateway core to itself. --simultaneous loads both at once: less
       * noise, but each side's cost is then measured next to the other (a known CPU burn added 1.4
       * times its time, against 1.1 in turn: docs/validation/compare-error-rates.md).
       */
      simultaneous: false,
      /** Each side warmed up right after its own start; --warm-together (both at once) biased a known burn upward. */
      warmTogether: false,
      /** No GC forced before a window; --gc-before-window is a lever of the noise study. */
      gcBeforeWindow: false,
      budgetMinutes: 20,
      v8Flags: [] as string[],
      seedPerEpoch: false,
    },
    /**
     * --measure instructions: the gateway's instructions per request counted under callgrind
     * (docs/compare.md, docs/validation/compare-instructions.md).
     */
    instructions: {
      /** Counts do not drift with the machine: a 1% change is within reach in minutes. */
      threshold: 0.01,
      budgetMinutes: 10,
      /** Uncounted requests after each start, one at a time, before the first batch. */
      warmupRequests: 200,
      /** Requests in a counted batch: the scenario's first ones, one at a time. */
      batchRequests: 30,
      /**
       * One batch per pair of processes: on Mesh, batches of one process scattered by 0.08% and
       * processes by about 0.06%, so a second batch (27 s under callgrind) shrinks an epoch's sd from
       * 0.17% to 0.13% for a third more time: more epochs buy more.
       */
      batchesPerEpoch: 1,
      /**
       * V8's baseline tiers only (TurboFan was still compiling after 1,500 requests), fixed seeds and
       * a GC schedule that does not depend on time: the flags under which two processes' counts agree.
       */
      v8Flags: ['--no-opt', '--predictable', '--predictable-gc-schedule', '--hash-seed=1', '--random-seed=1', '--no-concurrent-sweeping', '--expose-gc'],
      /** The epochs' sd is floored here (log units): two fresh processes were 0.05–0.13% apart. */
      minEpochSd: 0.001,
      /**
       * Callers kept per count in the pair that shows where the instructions went, V8's builtins left
       * out of the chains: on legacy Mesh 80 left 17% of the counts with their outer frames cut off
       * (77% with the builtins kept), 160 left 0.3%, none of it placed by a guess
       * (docs/validation/buckets-own-code.md).
       */
      profileCallers: 160,
      /** Requests in that pair's batch: on Mesh, 30 took 5 minutes and a gigabyte of dump a side at 80 callers. */
      profileRequests: 10,
    },
  },
  bisect: {
    /** A step is a change of 1% between neighbouring points: the comparison by instructions' threshold. */
    threshold: 0.01,
    /**
     * Ranges whose ends differ by less than half the threshold (and whose interval rules the
     * threshold out) are taken as flat: a step of 1% that a later one partly took back still splits its range.
     */
    splitFraction: 0.5,
    /**
     * The least scatter of one point between processes assumed, under the one measured from the
     * repeats: the native gateways scatter by 0.06-0.08% (docs/validation/compare-instructions-native.md),
     * and a few repeats that agree by chance must not make the intervals narrower than that.
     */
    minPointSd: 0.0005,
    /**
     * Counts of a point at most. At Apollo Gateway's 1.2% scatter between processes, five place a 7%
     * step every time in a simulated history where three missed it one time in five (bisect-plan.test.ts).
     */
    maxCountsPerPoint: 5,
  },
  soak: {
    scenario: 'varied',
    durationSec: 30 * 60,
    /** Without --rate or --concurrency: this share of the closed-loop peak, probed first. */
    rateFraction: 0.5,
    /** Intervals: about 20 per soak, from 30 s up to 5 minutes (a week stays at about 2,000). */
    intervalsPerSoak: 20,
    minIntervalSec: 30,
    maxIntervalSec: 300,
    /** The calm before the forced GC: in-flight requests drain and the gateway's timers run. */
    calmSec: 3,
    /**
     * A native gateway's calm (and a cmd: one's, whose kind is known only once it runs): jemalloc
     * hands freed pages back over about 10 s (its dirty_decay_ms), so a 3 s calm reads a burst's
     * pages as growth (docs/validation/soak.md, Grafbase 30 minutes). At most a third of the interval.
     */
    nativeCalmSec: 15,
    /** About this many heap snapshots in a soak whose memory grows (first and last included; a soak that does not grow gets those two); files of all but the first and the newest few are removed. */
    snapshotsPerSoak: 8,
    snapshotsKept: 3,
    /** Warm-up: at least two intervals or a tenth of the soak, at most 30 minutes. */
    maxWarmupSec: 30 * 60,
    /** A memory slope above this (per successful request) is a leak (docs/soak.md#the-verdict): analysis's default. */
    leakThresholdBytesPerRequest: DEFAULT_LEAK_DESIGN.thresholdBytesPerRequest,
  },
} as const;
