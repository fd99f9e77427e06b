/** A bisection record for tests: points with given counts (null: not counted), or skipped. */
import type { BisectPoint, BisectResult, BisectSkip } from '@gwprof/results';

export type PointFixture = number | number[] | null | BisectSkip;

export function bisectRecord(points: readonly PointFixture[], overrides: Partial<BisectResult> = {}): BisectResult {
  return {
    schemaVersion: 3,
    tool: { name: 'gwprof', version: '0.0.0' },
    kind: 'bisect',
    runId: 'bisect-test',
    startedAt: '2026-11-28T10:00:00.000Z',
    finishedAt: '2026-11-28T10:10:00.000Z',
    state: 'complete',
    error: null,
    config: {
      source: { kind: 'versions', gateway: 'hive-router' },
      good: '0.1.0',
      bad: `0.1.${points.length - 1}`,
      threshold: 0.01,
      splitFraction: 0.5,
      minPointSd: 0.001,
      maxCountsPerPoint: 3,
      instructions: { warmupRequests: 200, batchRequests: 30, batchesPerEpoch: 1, v8Flags: [], valgrindArgs: [], minEpochSd: 0.001 },
      confirm: false,
      query: '/q.graphql',
      variables: null,
      expect: '/q.expected.json',
    },
    environment: null,
    points: points.map((p, index) => point(index, p)),
    confirmations: [],
    resumes: 0,
    stopReason: 'every step placed',
    analysis: null,
    ...overrides,
  };
}

function point(index: number, fixture: PointFixture): BisectPoint {
  const id = `0.1.${index}`;
  const base: BisectPoint = { index, id, label: id, spec: `hive-router@${id}`, counts: [], skipped: null };
  if (fixture === null) return base;
  if (typeof fixture === 'object' && !Array.isArray(fixture)) return { ...base, skipped: fixture };
  const values = typeof fixture === 'number' ? [fixture] : fixture;
  return {
    ...base,
    counts: values.map((v, k) => ({
      startedAt: `2026-11-28T10:0${k}:00.000Z`,
      pid: 1000 + index,
      requests: 30,
      ok: 30,
      instructions: v * 30,
      instructionsPerOkRequest: v,
      allocationCalls: null,
      warmupSec: 1,
    })),
  };
}
