import { describe, expect, it } from 'vitest';
import { bisectRecord } from '../testing/bisect-record.js';
import { analyzeBisection, reproduceArgs } from './bisect-analysis.js';

const M = 1e6;
/** An end counted three times, scattering by 0.05%: what the plan counts before it splits. */
const end = (x: number) => [x * 0.9995, x, x * 1.0005];

describe('analyzeBisection', () => {
  it('names a regression step, its change and a reproduce line, and exits 1', () => {
    const analysis = analyzeBisection(bisectRecord([end(M), null, M, 1.03 * M, null, end(1.03 * M)]));
    expect(analysis.steps).toEqual([
      expect.objectContaining({ good: 2, bad: 3, kind: 'regression', nearThreshold: false, relativeChange: expect.closeTo(0.03, 6) }),
    ]);
    expect(analysis.steps[0]!.reproduce).toBe(
      'gwprof compare --measure instructions --baseline hive-router@0.1.2 --candidate hive-router@0.1.3 --query /q.graphql --expect /q.expected.json --threshold 1 --warmup-requests 200 --batch-requests 30',
    );
    expect(analysis).toMatchObject({ verdict: '1 regression step above 1.0%', exitCode: 1, totalChange: expect.closeTo(0.03, 6), pending: [] });
  });

  it('passes with an improvement only, and names what was skipped', () => {
    const skip = { stage: 'start' as const, reason: 'no --listen-address' };
    const analysis = analyzeBisection(bisectRecord([end(M), skip, end(0.95 * M)]));
    expect(analysis.steps).toMatchObject([{ good: 0, bad: 2, kind: 'improvement', skippedBetween: [1] }]);
    expect(analysis).toMatchObject({ verdict: 'no regression step above 1.0%', exitCode: 0 });
    expect(analysis.reasons).toEqual(['not counted, skipped: 0.1.1 (start)']);
  });

  it('says a step near the threshold is not decided after its repeats (exit 3)', () => {
    const record = bisectRecord([
      [M, M, M, M, M],
      [1.0101 * M, 1.0099 * M, 1.01 * M, 1.0102 * M, 1.0098 * M],
    ]);
    record.config.maxCountsPerPoint = 5;
    const analysis = analyzeBisection(record);
    expect(analysis.steps).toMatchObject([{ nearThreshold: true }]);
    expect(analysis.exitCode).toBe(3);
  });

  it('names no culprit where the measured scatter cannot resolve the threshold: says so, with the counts it would take (exit 3)', () => {
    // Apollo Gateway's counts of two commits a comment apart (issue 54).
    const analysis = analyzeBisection(
      bisectRecord([
        [9.083 * M, 9.047 * M, 9.112 * M],
        [9.004 * M, 8.985 * M, 8.83 * M],
      ]),
    );
    expect(analysis.steps).toEqual([]);
    expect(analysis.unresolvedRanges).toMatchObject([{ good: 0, bad: 1, relativeChange: expect.closeTo(-0.0155, 3) }]);
    expect(analysis.noise).toMatchObject({ df: 4, pointsRepeated: 2, measuredSd: expect.closeTo(0.008, 3) });
    expect(analysis.noise!.countsForThreshold).toBe(28);
    expect(analysis).toMatchObject({ verdict: 'the noise is too large for 1.0%', exitCode: 3 });
    expect(analysis.reasons[0]).toMatch(
      new RegExp(
        `^1 range left unresolved: one point scatters by 0\\.80% between processes, so 3 counts a point resolve a change of .*; 1\\.00% would take about ${analysis.noise!.countsForThreshold} counts a point`,
      ),
    );
  });

  it('does not name a step its full comparison did not confirm, and says the counts found it', () => {
    const record = bisectRecord([end(M), end(1.03 * M)]);
    const confirmation = {
      good: 0,
      bad: 1,
      runDir: 'confirm-0-1',
      relativeChange: -0.0028,
      interval: { low: -0.0143, high: 0.0088 },
      exitCode: 0,
      moves: null,
    };
    record.confirmations = [{ ...confirmation, verdict: 'no change' }];
    const analysis = analyzeBisection(record);
    expect(analysis.steps).toEqual([]);
    expect(analysis.unconfirmedSteps).toMatchObject([{ good: 0, bad: 1, kind: 'regression' }]);
    expect(analysis).toMatchObject({ verdict: 'no regression step above 1.0%', exitCode: 0 });
    expect(analysis.reasons).toEqual(['0.1.0 → 0.1.1: found by the counts, not confirmed by its full comparison (no change)']);
    // Confirmed, or a comparison that could not decide: named.
    for (const verdict of ['regression', 'inconclusive']) {
      record.confirmations = [{ ...confirmation, verdict }];
      expect(analyzeBisection(record)).toMatchObject({ steps: [{ good: 0, bad: 1 }], unconfirmedSteps: [], exitCode: 1 });
    }
    record.confirmations = [{ ...confirmation, verdict: 'improvement' }];
    expect(analyzeBisection(record)).toMatchObject({ steps: [], exitCode: 0 });
  });

  it('is an error when an end could not be counted, and unfinished while points are pending', () => {
    const skip = { stage: 'install' as const, reason: 'no such version' };
    expect(analyzeBisection(bisectRecord([skip, null, M]))).toMatchObject({ verdict: 'error', exitCode: 2 });
    const interrupted = analyzeBisection(bisectRecord([end(M), null, null, end(1.1 * M)], { state: 'interrupted' }));
    expect(interrupted).toMatchObject({ verdict: 'unfinished', exitCode: 130, pending: [1] });
    expect(interrupted.reasons[0]).toMatch(/--resume/);
  });

  it('reproduces with the scenario file when the requests came from one', () => {
    const record = bisectRecord([M, 1.1 * M]);
    record.config.scenarioFile = '/perf/scenario.yaml';
    expect(reproduceArgs(record, 0, 1)).toEqual([
      '--measure',
      'instructions',
      '--baseline',
      'hive-router@0.1.0',
      '--candidate',
      'hive-router@0.1.1',
      '--scenario',
      '/perf/scenario.yaml',
      '--threshold',
      '1',
      '--warmup-requests',
      '200',
      '--batch-requests',
      '30',
    ]);
  });
});

describe('a memory bisection', () => {
  /** Grafbase's figures (bench/results/bisect/grafbase-0.80.4-0.103.0): flat instructions, allocations that step by +3% and then by −2%. */
  function memoryRecord(allocationsPerRequest: number[][]) {
    const record = bisectRecord(allocationsPerRequest.map((a) => a.map(() => 783_000)));
    record.config.measure = 'memory';
    for (const p of record.points) for (const [k, c] of p.counts.entries()) c.allocationCalls = Math.round(allocationsPerRequest[p.index]![k]! * c.ok);
    return record;
  }

  it('places its steps on allocations per request, names the largest, and confirms it by the allocation verdict', () => {
    const record = memoryRecord([
      [866, 866.1, 865.9],
      [866, 866, 866],
      [892, 892, 892],
      [874, 874.1, 873.9],
    ]);
    record.config.maxCountsPerPoint = 3;
    const analysis = analyzeBisection(record);
    expect(analysis.unit).toBe('allocations/req');
    expect(analysis.perRequest[2]).toBeCloseTo(892, 0);
    expect(analysis.steps.map((s) => [s.good, s.bad, s.kind])).toEqual([
      [1, 2, 'regression'],
      [2, 3, 'improvement'],
    ]);
    expect(analysis.largestStep).toMatchObject({ good: 1, bad: 2, relativeChange: expect.closeTo(26 / 866, 4) });
    expect(analysis.steps[0]!.reproduce).toMatch(/ --no-profile$/);
    // A confirmation whose allocation verdict found no change takes the step back, whatever its instructions said.
    record.confirmations = [
      {
        good: 1,
        bad: 2,
        runDir: 'confirm-1-2',
        verdict: 'regression',
        relativeChange: 0.02,
        interval: null,
        exitCode: 1,
        moves: null,
        allocations: { verdict: 'no change', relativeChange: 0, interval: null, functions: [] },
      },
    ];
    const confirmed = analyzeBisection(record);
    expect(confirmed.unconfirmedSteps!.map((s) => s.good)).toEqual([1]);
    expect(confirmed.largestStep).toMatchObject({ good: 2, bad: 3 });
  });
});
