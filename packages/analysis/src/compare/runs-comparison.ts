/**
 * A comparison of two finished sweeps (`gwprof compare --baseline-run … --candidate-run …`): one
 * run per side, so deltas without intervals, from each run's own analysis; a failed step at a
 * compared level makes it invalid.
 */
import { compareLoadAt, loadLabel, loadLevel, type CompareAnalysis, type CompareLevel, type CompareResult, type RunResult } from '@gwprof/results';
import { GATING_METRIC, INFORMATIONAL_METRICS, deltaMetric } from './compare-windows.js';
import { timeMeasure } from './measure-statement.js';
import { exitCodeOf } from '../exit-code.js';

export function analyzeRunsComparison(compare: Pick<CompareResult, 'config'>, baseline: RunResult, candidate: RunResult): CompareAnalysis {
  const levels = compare.config.levels.map((level): CompareLevel => {
    const b = baseline.steps.find((s) => loadLevel(s.load) === level)!;
    const c = candidate.steps.find((s) => loadLevel(s.load) === level)!;
    return {
      level,
      label: loadLabel(compareLoadAt(compare.config.load, level)),
      decision: null,
      gating: deltaMetric(b, c, GATING_METRIC),
      blocks: [],
      metrics: INFORMATIONAL_METRICS.map((spec) => deltaMetric(b, c, spec)),
      buckets: runBucketDeltas(baseline, candidate, b.id, c.id),
      functions: [],
      pprof: null,
      allocation: runAllocations(baseline, candidate, b.id, c.id),
    };
  });
  const shared = new Set(compare.config.levels);
  const failedSteps = [...baseline.steps, ...candidate.steps].filter((s) => s.status === 'failed' && shared.has(loadLevel(s.load)));
  return {
    levels,
    verdict: failedSteps.length > 0 ? 'invalid' : 'deltas only',
    verdictReasons:
      failedSteps.length > 0
        ? failedSteps.map((s) => `a step at ${loadLabel(s.load)} failed: ${s.failures[0] ?? ''}`)
        : ['one run per side: deltas without intervals; measure with --baseline/--candidate for a verdict'],
    exitCode: exitCodeOf('complete', failedSteps.length > 0 ? 'invalid' : 'passed'),
    windows: [],
    measure: timeMeasure(compare.config),
  };
}

/** Allocation per request of two finished runs' steps, from their own analyses (deltas only); null when either has none. */
function runAllocations(baseline: RunResult, candidate: RunResult, baselineStep: string, candidateStep: string): CompareLevel['allocation'] {
  const of = (run: RunResult, id: string) => run.analysis?.steps.find((a) => a.stepId === id)?.allocation ?? null;
  const b = of(baseline, baselineStep);
  const c = of(candidate, candidateStep);
  if (b?.bytesPerOkRequest == null || c?.bytesPerOkRequest == null) return null;
  return {
    baselineBytesPerOkRequest: b.bytesPerOkRequest,
    candidateBytesPerOkRequest: c.bytesPerOkRequest,
    deltaBytesPerOkRequest: c.bytesPerOkRequest - b.bytesPerOkRequest,
    noise: null,
    gcMsPerOkRequest: { baseline: b.gcMsPerOkRequest, candidate: c.gcMsPerOkRequest },
    buckets: [...new Set([...Object.keys(b.bucketBytesPerOkRequest ?? {}), ...Object.keys(c.bucketBytesPerOkRequest ?? {})])]
      .map((bucket) => {
        const [from, to] = [b.bucketBytesPerOkRequest?.[bucket] ?? 0, c.bucketBytesPerOkRequest?.[bucket] ?? 0];
        return { bucket, baselineBytesPerOkRequest: from, candidateBytesPerOkRequest: to, deltaBytesPerOkRequest: to - from, noise: null };
      })
      .filter((row) => row.baselineBytesPerOkRequest > 0 || row.candidateBytesPerOkRequest > 0)
      .sort((x, y) => Math.abs(y.deltaBytesPerOkRequest) - Math.abs(x.deltaBytesPerOkRequest)),
    functions: [],
    flamegraphs: null,
  };
}

/** Bucket costs of two finished runs' steps, from their own analyses; [] when either has none. */
function runBucketDeltas(baseline: RunResult, candidate: RunResult, baselineStep: string, candidateStep: string): CompareLevel['buckets'] {
  const costs = (run: RunResult, id: string) => run.analysis?.steps.find((a) => a.stepId === id)?.bucketMsPerOkRequest ?? null;
  const b = costs(baseline, baselineStep);
  const c = costs(candidate, candidateStep);
  if (!b || !c) return [];
  return [...new Set([...Object.keys(b), ...Object.keys(c)])]
    .map((bucket) => ({
      bucket,
      baselineMsPerOkRequest: b[bucket] ?? 0,
      candidateMsPerOkRequest: c[bucket] ?? 0,
      deltaMsPerOkRequest: (c[bucket] ?? 0) - (b[bucket] ?? 0),
      noise: null,
    }))
    .sort((x, y) => Math.abs(y.deltaMsPerOkRequest) - Math.abs(x.deltaMsPerOkRequest));
}
