/** A hand-built comparison for the render tests: every number is chosen so tests can assert it. */
import { RESULTS_SCHEMA_VERSION, type CompareWindow, type PublishedCompare, type StepRecord } from '@gwprof/results';
import { SCRIPT_TAG, analysisOf, makeRunFixture, okStep } from './run-fixture.js';

function step(id: string, rps: number, cpuMs: number): StepRecord {
  const s = okStep(20, rps, 10, id);
  return { ...s, gateway: { ...s.gateway, cpuMsPerOkRequest: cpuMs } };
}

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return {
    n: values.length,
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    mean,
    geometricMean: Math.exp(values.reduce((a, v) => a + Math.log(v), 0) / values.length),
    values,
  };
};

/**
 * A comparison at c=20 over 6 blocks: the candidate spends 11.4% more CPU per request (a
 * regression), its throughput fell 10%, p99 moved within noise.
 */
export function makeCompareFixture(mode: 'windows' | 'runs' = 'windows'): PublishedCompare {
  const windows: CompareWindow[] = [];
  for (let block = 1; block <= 6; block++) {
    const order = block % 2 === 1 ? ['baseline', 'candidate', 'candidate', 'baseline'] : ['candidate', 'baseline', 'baseline', 'candidate'];
    order.forEach((side, position) => {
      const candidate = side === 'candidate';
      windows.push({
        epoch: block,
        block,
        position,
        side: side as 'baseline' | 'candidate',
        step: step(`e1-b${block}-${position}-${side}-c20`, candidate ? 180 : 200, candidate ? 4.9 : 4.4),
      });
    });
  }
  const measured = mode === 'windows';
  const metric = (metricName: string, unit: string, higherIsBetter: boolean, b: number[], c: number[], change: number, interval: [number, number] | null) => ({
    metric: metricName,
    unit,
    higherIsBetter,
    baseline: summary(b),
    candidate: summary(c),
    relativeChange: change,
    interval: measured ? interval : null,
    confidence: measured && interval ? 0.95 : null,
    method: measured ? 'paired blocks' : 'one run per side',
  });
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: '0.1.0' },
    kind: 'compare',
    runId: '2025-01-02T00-00-00-compare',
    startedAt: '2025-01-02T00:00:00.000Z',
    finishedAt: '2025-01-02T00:10:00.000Z',
    state: 'complete',
    error: null,
    mode,
    config: {
      baseline: 'mesh',
      candidate: `cmd:node ./pr/gateway.js ${SCRIPT_TAG}`,
      baselineEnv: {},
      candidateEnv: { NODE_OPTIONS: '--require ./slow.cjs' },
      load: { kind: 'closed' },
      levels: [20],
      query: 'fixtures/user-reviews.graphql',
      variables: 'fixtures/user-reviews.variables.json',
      expect: 'fixtures/user-reviews.expected.json',
      profile: true,
      heapSamplingBytes: measured ? 65536 : null,
      nodes: measured ? { baseline: 'v20.20.2', candidate: 'v20.20.2' } : null,
      design: measured
        ? {
            threshold: 0.05,
            alpha: 0.05,
            minEpochs: 4,
            spendingPower: 1,
            windowSec: 5,
            leadInSec: 2,
            warmupSec: 30,
            blocksPerEpoch: 1,
            windowsPerSide: 2,
            budgetMinutes: 20,
            v8Flags: [],
            seedPerEpoch: false,
          }
        : null,
    },
    environment: makeRunFixture().environment,
    runs: measured ? null : { baseline: '/runs/a', candidate: '/runs/b' },
    epochs: [],
    windows: measured ? windows : [],
    plan: measured ? { maxEpochs: 12, epochSeconds: 45, fixedAfterEpoch: 3 } : null,
    stopReason: measured ? 'regression after 6 blocks' : 'compared finished runs',
    analysis: {
      levels: [
        {
          level: 20,
          label: 'c=20',
          decision: measured
            ? {
                outcome: 'regression',
                blocks: 6,
                epochs: 6,
                relativeChange: 0.1136,
                interval: { low: 0.09, high: 0.138 },
                alpha: 0.05,
                maxEpochs: 12,
                reason: '6 epochs, interval [+9.0%, +13.8%] lies above 0 and reaches beyond ±5.0%: slower',
              }
            : null,
          gating: metric('cpuMsPerOkRequest', 'CPU ms/req', false, [4.4, 4.4, 4.4], [4.9, 4.9, 4.9], 0.1136, [0.1, 0.127]),
          blocks: measured ? [1, 2, 3, 4, 5, 6].map((block) => ({ block, epoch: block, relativeChange: 0.1136 })) : [],
          metrics: [
            metric('rps', 'req/s', true, [200, 202, 198], [180, 181, 179], -0.1, [-0.115, -0.085]),
            metric('p99', 'ms', false, [20, 35, 18], [25, 30, 45], 0.04, [-0.2, 0.3]),
          ],
          buckets: [
            {
              bucket: 'execute',
              baselineMsPerOkRequest: 1.2,
              candidateMsPerOkRequest: 1.7,
              deltaMsPerOkRequest: 0.5,
              noise: measured ? { interval: [0.42, 0.58], confidence: 0.9964, familyConfidence: 0.95, familySize: 14, moved: true } : null,
            },
            {
              bucket: 'gc',
              baselineMsPerOkRequest: 0.44,
              candidateMsPerOkRequest: 0.61,
              deltaMsPerOkRequest: 0.17,
              noise: measured ? { interval: [0.12, 0.22], confidence: 0.9964, familyConfidence: 0.95, familySize: 14, moved: true } : null,
            },
          ],
          functions: measured
            ? [
                {
                  functionName: 'burn',
                  url: 'file:///pr/slow.cjs',
                  line: 12,
                  bucket: 'execute',
                  baselineMsPerOkRequest: 0,
                  candidateMsPerOkRequest: 0.5,
                  deltaMsPerOkRequest: 0.5,
                  noise: { interval: [0.47, 0.53], confidence: 0.99998, familyConfidence: 0.95, familySize: 2200, moved: true },
                },
              ]
            : [],
          pprof: measured
            ? {
                baseline: 'compare-c20-baseline.pb.gz',
                candidate: 'compare-c20-candidate.pb.gz',
                command: 'go tool pprof -top -diff_base=compare-c20-baseline.pb.gz compare-c20-candidate.pb.gz',
                flamegraphs: { baseline: 'compare-c20-baseline.flame.html', candidate: 'compare-c20-candidate.flame.html' },
              }
            : null,
          // The candidate's extra work also allocates 120 kB more per request.
          allocation: {
            baselineBytesPerOkRequest: 250_000,
            candidateBytesPerOkRequest: 370_000,
            deltaBytesPerOkRequest: 120_000,
            noise: measured ? { interval: [100_000, 140_000], confidence: 0.95, familyConfidence: 0.95, familySize: 1, moved: true } : null,
            gcMsPerOkRequest: { baseline: 0.8, candidate: 1.1 },
            buckets: [
              {
                bucket: 'execute',
                baselineBytesPerOkRequest: 50_000,
                candidateBytesPerOkRequest: 170_000,
                deltaBytesPerOkRequest: 120_000,
                noise: measured ? { interval: [100_000, 140_000], confidence: 0.99, familyConfidence: 0.95, familySize: 5, moved: true } : null,
              },
              {
                bucket: 'fetch',
                baselineBytesPerOkRequest: 200_000,
                candidateBytesPerOkRequest: 200_000,
                deltaBytesPerOkRequest: 0,
                noise: measured ? { interval: [-3_000, 3_000], confidence: 0.99, familyConfidence: 0.95, familySize: 5, moved: false } : null,
              },
            ],
            functions: measured
              ? [
                  {
                    functionName: 'burn',
                    url: 'file:///pr/slow.cjs',
                    line: 12,
                    bucket: 'execute',
                    baselineBytesPerOkRequest: 0,
                    candidateBytesPerOkRequest: 120_000,
                    deltaBytesPerOkRequest: 120_000,
                    noise: { interval: [110_000, 130_000], confidence: 0.9999, familyConfidence: 0.95, familySize: 900, moved: true },
                  },
                ]
              : [],
            flamegraphs: measured ? { baseline: 'compare-c20-baseline.alloc.html', candidate: 'compare-c20-candidate.alloc.html' } : null,
          },
        },
      ],
      verdict: measured ? 'regression' : 'deltas only',
      verdictReasons: measured ? ['c=20: +11.4% over 6 blocks: regression'] : [],
      exitCode: measured ? 1 : 0,
      windows: measured ? windows.map((w) => analysisOf(w.step, { gc: 0.1, execute: 0.9 })) : [],
    },
  };
}

/** A rate ladder on a stub: 50 and 100 req/s kept, 200 req/s beyond capacity (drops, latency from intended send times). */
