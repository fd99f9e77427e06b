/** Hand-built results for the render tests: every number is chosen so tests can assert it. */
import { sweepOutcome } from '@gwprof/analysis';
import { RESULTS_SCHEMA_VERSION, type RunResult, type StepAnalysis, type StepRecord } from '@gwprof/results';

export const SCRIPT_TAG = '<script>alert(1)</script>';
export const IMG_TAG = '<img src=x onerror=alert(1)>';

const BASE_FAILURES = { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0, protocolErrors: 0 };

const TOP_FUNCTIONS = [
  { functionName: 'parseDocument', url: 'file:///app/node_modules/graphql/language/parser.js', line: 119, selfShare: 0.123, bucket: 'parse' },
  { functionName: '', url: '', line: -1, selfShare: 0.05, bucket: 'gc' },
];

/** What the publish pass would have derived for a step with these bucket shares (null: no samples). */
export function analysisOf(step: StepRecord, buckets: Record<string, number> | null, id = step.id): StepAnalysis {
  return {
    stepId: id,
    flamegraph: `step-${id}.flame.html`,
    samples: buckets ? 9876 : 0,
    samplingIntervalUs: 1000,
    buckets,
    bucketMsPerOkRequest: buckets
      ? Object.fromEntries(
          Object.entries(buckets)
            .filter(([b]) => b !== 'idle')
            .map(([b, share]) => [b, share * 5]),
        )
      : null,
    busyMsPerOkRequest: buckets ? 4.4 : null,
    bucketFunctions: buckets
      ? {
          parse: [
            { functionName: 'parseDocument', url: 'file:///app/node_modules/graphql/language/parser.js', line: 120, msPerOkRequest: 0.5, shareOfBucket: 0.8 },
          ],
        }
      : {},
    topFunctions: buckets ? TOP_FUNCTIONS : [],
    gc: null,
    allocation: buckets ? { ...ALLOCATION, flamegraph: `step-${id}.alloc.html` } : null,
    warnings: [],
    error: null,
  };
}

/** 250 kB per request, most of it in one function of the gateway's own code. */
const ALLOCATION = {
  samples: 4321,
  samplingIntervalBytes: 65536,
  bytes: 476_250_000,
  bytesPerOkRequest: 250_000,
  bucketBytesPerOkRequest: { parse: 40_000, execute: 160_000, fetch: 50_000 },
  topAllocators: [{ functionName: 'buildCacheKey', url: 'file:///app/src/cache.js', line: 12, bucket: 'execute', bytesPerOkRequest: 100_000, share: 0.4 }],
  frames: 'allocating' as const,
  attributionBytesPerOkRequest: 262_000,
  gcMsPerOkRequest: 0.8,
};

export function okStep(concurrency: number, rps: number, p50: number, id = String(concurrency)): StepRecord {
  const total = Math.round(rps * 10);
  return {
    id,
    load: { kind: 'closed', concurrency },
    rate: null,
    status: 'ok',
    failures: [],
    warnings: [],
    startedAt: '2025-01-01T00:00:00.000Z',
    durationSec: 10,
    timing: {
      settleSec: 1,
      settled: true,
      warmupSec: 6,
      warmupSteady: true,
      warmupNote: 'no trend',
      windowStartSec: 6,
      windowSec: 10,
      windowLimitedBy: 'duration',
    },
    requests: { total, ok: total, failed: 0, inFlightAtEnd: concurrency },
    failureCounts: { ...BASE_FAILURES },
    failureSamples: [],
    orderWarnings: concurrency === 100 ? 42 : 0,
    successRate: 1,
    rps,
    latencyMs: { mean: p50 * 1.1, p50, p75: p50 * 1.2, p80: p50 * 1.3, p90: p50 * 1.5, p95: p50 * 1.7, p99: p50 * 2, max: p50 * 3 },
    bytesPerResponse: 4096,
    gateway: { cpuPercent: 97.4, cpuMsPerOkRequest: 4.4, rssMaxMB: 312.6, pids: [1234] },
    subgraphs: { cpuPercent: 21.3, perSubgraph: { accounts: { cpuPercent: 5, requests: total } } },
    fanout: 7,
    loadgen: { cpuPercent: 8.2 },
    profile: {
      cpuprofile: `step-${id}.cpuprofile`,
      samples: 9876,
      requestedIntervalUs: 1000,
      nodeGc: null,
      threadCpuMs: null,
      heap: { heapprofile: `step-${id}.heapprofile`, samplingIntervalBytes: 65536, samples: 4321 },
    },
    series: Array.from({ length: 16 }, (_, t) => ({
      t,
      phase: t < 6 ? 'warmup' : 'window',
      ok: Math.round(rps),
      failed: 0,
      p50Ms: p50,
      p99Ms: p50 * 2,
      gatewayCpuPercent: 97,
    })),
    steadiness: { steady: true, reasons: [], trendPercent: 1.5, cvPercent: 4.2 },
  };
}

/** Three steps: c=10 and c=100 ok, c=1000 failed with every response non-2xx (seed 000's hidden failure). */
export function makeRunFixture(): RunResult {
  return withOutcome(runFixture());
}

/** The run's outcome derived again, as publish does, after a test changed its steps or state. */
export function withOutcome<R extends RunResult>(run: R): R {
  if (run.analysis) Object.assign(run.analysis, sweepOutcome(run));
  return run;
}

function runFixture(): RunResult {
  const failed: StepRecord = {
    ...okStep(1000, 0, 0),
    status: 'failed',
    failures: ['success rate 0.0% below 100%', `gateway said ${SCRIPT_TAG}`],
    warnings: [`no CPU profile: ${IMG_TAG}`],
    requests: { total: 1000, ok: 0, failed: 1000, inFlightAtEnd: 1000 },
    failureCounts: { ...BASE_FAILURES, non2xx: 1000 },
    failureSamples: [
      { kind: 'non2xx', message: `HTTP 500 ${SCRIPT_TAG}`, count: 900 },
      { kind: 'non2xx', message: `HTTP 502 ${IMG_TAG}`, count: 100 },
    ],
    successRate: 0,
    rps: 0,
    latencyMs: null,
    fanout: null,
    profile: { cpuprofile: 'step-1000.cpuprofile', samples: 0, requestedIntervalUs: 1000, nodeGc: null, threadCpuMs: null, heap: null },
  };
  const c10 = okStep(10, 190.5, 6.2);
  const c100 = okStep(100, 220.25, 100);
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: '0.1.0' },
    kind: 'sweep',
    runId: '2025-01-01T00-00-00-mesh',
    startedAt: '2025-01-01T00:00:00.000Z',
    finishedAt: '2025-01-01T00:01:00.000Z',
    state: 'complete',
    error: null,
    config: {
      gateway: `mesh${IMG_TAG}`,
      gatewayEnv: { NODE_OPTIONS: '--max-old-space-size=512' },
      scenario: 'seed-000',
      concurrency: [10, 100, 1000],
      rates: [],
      arrivals: null,
      autoRate: false,
      slo: null,
      durationSec: 10,
      maxDurationSec: 30,
      warmupSec: 20,
      windowMinimums: { minRoundTrips: 10, minResponses: 200 },
      query: 'fixtures/test-query.graphql',
      variables: null,
      expect: 'fixtures/test-query.expected.json',
      minSuccess: 1,
      timeoutSec: 10,
      subgraphDelayMs: 0,
      subgraphPorts: { accounts: 4001, reviews: 4002 },
      gatewayPort: 4000,
      profile: true,
      profiler: 'inspector',
      samplingIntervalUs: 1000,
      heapSamplingBytes: 65536,
      quick: false,
      engine: 'gwprof',
    },
    environment: {
      node: 'v20.20.2',
      platform: 'linux x64',
      cpuModel: `Fake CPU ${SCRIPT_TAG}`,
      cpuCount: 2,
      totalMemMB: 7936,
      cpuSets: { gateway: '1', others: '0' },
      gatewayMemoryLimitMB: 512,
      memoryLimitMethod: 'cgroup v2',
      fdLimit: { soft: 65536, hard: 65536 },
      gatewayPackages: { '@graphql-mesh/cli': '0.103.0' },
      gitCommit: 'abc123',
      commandLine: ['node', 'gwprof', 'sweep', '--gateway-env', `X=${IMG_TAG}`],
      hostname: 'bench-1',
    },
    fanoutAlone: { requests: 5, fanout: 7 },
    probe: null,
    steps: [c10, c100, failed],
    artifacts: { 'gateway log': 'logs/gateway.log', evil: 'javascript:alert(1)' },
    // The verdict and exit code are derived by withOutcome, as publish does.
    analysis: {
      verdict: '',
      passed: false,
      exitCode: 0,
      exitReasons: [],
      rules: 'built-in',
      steps: [
        analysisOf(c10, {
          gc: 0.1,
          idle: 0.3,
          program: 0.05,
          parse: 0.1234,
          validate: 0.05,
          execute: 0.2,
          plan: 0.05,
          httpParser: 0.0266,
          onconnection: 0,
          pubsub: 0,
          ticks: 0.05,
          other: 0.02,
          myPlugin: 0.03,
        }),
        analysisOf(c100, {
          gc: 0.2,
          idle: 0.05,
          program: 0.05,
          parse: 0.1,
          validate: 0.05,
          execute: 0.3,
          plan: 0.1,
          httpParser: 0.05,
          onconnection: 0.01,
          pubsub: 0.01,
          ticks: 0.05,
          other: 0.03,
        }),
        analysisOf(failed, null),
      ],
      rateCapacity: null,
      capacity: {
        knee: { concurrency: 100, rps: 220.25, method: 'max curvature' },
        optimalConcurrency: 100,
        maxConcurrency: null,
        usl: { sigma: 0.05, kappa: 0.0001, lambda: 20, peakConcurrency: 97.5, peakRps: 230.1, r2: 0.97, points: 2 },
        littlesLaw: [
          {
            concurrency: 10,
            rps: 190.5,
            meanLatencyMs: 6.82,
            impliedConcurrency: 1.3,
            ratio: 0.13,
            flag: 'loadgen-saturated',
            note: 'load generator cannot keep 10 requests in flight',
          },
          { concurrency: 1000, rps: 0, meanLatencyMs: null, impliedConcurrency: null, ratio: null, flag: 'no-data', note: 'no successful responses' },
        ],
        notes: ['maximum concurrency: no level met the success target'],
      },
    },
  };
}

/** A tiny V8 CPU profile: root → main → parse (leaf) and root → (garbage collector). */
export function makeCpuProfile(): object {
  const frame = (id: number, functionName: string, url = '') => ({
    id,
    callFrame: { functionName, scriptId: url ? '1' : '0', url, lineNumber: 1, columnNumber: 1 },
    hitCount: 0,
    children: [] as number[],
  });
  const root = { ...frame(1, '(root)'), children: [2, 4] };
  const main = { ...frame(2, 'main', 'file:///app/main.js'), children: [3] };
  const parse = { ...frame(3, 'parseDocument', 'file:///app/node_modules/graphql/language/parser.js'), hitCount: 6 };
  const gc = { ...frame(4, '(garbage collector)'), hitCount: 4 };
  const samples = [3, 3, 4, 3, 3, 4, 3, 4, 3, 4];
  return {
    nodes: [root, main, parse, gc],
    startTime: 0,
    endTime: samples.length * 1000,
    samples,
    timeDeltas: samples.map(() => 1000),
  };
}

export function makeRateRunFixture(): RunResult {
  const run = makeRunFixture();
  const rung = (rate: number, p99: number, dropped: number, status: StepRecord['status'], ok: number): StepRecord => ({
    ...okStep(1000, ok, p99 / 2, `r${rate}`),
    load: { kind: 'open', targetRps: rate, arrivals: 'poisson', maxInFlight: 1000 },
    rate: { targetRps: rate, sentRps: rate - dropped / 10, dropped, lagMs: { p50: 0.4, p99: 1.2, max: 3 }, scheduleKept: dropped === 0 },
    status,
    latencyMs: { mean: p99 / 3, p50: p99 / 2, p75: p99 / 1.8, p80: p99 / 1.6, p90: p99 / 1.3, p95: p99 / 1.1, p99, max: p99 * 1.5 },
  });
  run.config = { ...run.config, concurrency: [], rates: [50, 100, 200], arrivals: 'poisson', slo: { latencyMs: { p99: 100 }, minSuccess: 0.9999 } };
  run.steps = [rung(50, 20, 0, 'ok', 50), rung(100, 45, 0, 'ok', 99.5), rung(200, 2400, 130, 'overloaded', 101)];
  run.analysis = {
    verdict: '',
    passed: false,
    exitCode: 0,
    exitReasons: [],
    rules: 'built-in',
    steps: [],
    capacity: null,
    rateCapacity: {
      knee: { lastKeptRps: 100, firstBrokenRps: 200, why: '101.0 successful req/s against 200 offered' },
      maxRateUnderSlo: 100,
      slo: { latencyMs: { p99: 100 }, minSuccess: 0.9999 },
      notes: [],
    },
  };
  return withOutcome(run);
}
