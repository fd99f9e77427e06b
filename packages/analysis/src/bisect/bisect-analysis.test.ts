import { describe, expect, it } from 'vitest';
import { bisectRecord } from '../testing/bisect-record.js';
import { analyzeBisection, reproduceArgs } from './bisect-analysis.js';

const M = 1e6;

describe('analyzeBisection', () => {
  it('names a regression step, its change and a reproduce line, and exits 1', () => {
    const analysis = analyzeBisection(bisectRecord([M, null, M, 1.03 * M, null, 1.03 * M]));
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
    const analysis = analyzeBisection(bisectRecord([M, skip, 0.95 * M]));
    expect(analysis.steps).toMatchObject([{ good: 0, bad: 2, kind: 'improvement', skippedBetween: [1] }]);
    expect(analysis).toMatchObject({ verdict: 'no regression step above 1.0%', exitCode: 0 });
    expect(analysis.reasons).toEqual(['not counted, skipped: 0.1.1 (start)']);
  });

  it('says a step near the threshold is not decided after its repeats (exit 3)', () => {
    const analysis = analyzeBisection(
      bisectRecord([
        [M, M, M],
        [1.0101 * M, 1.0099 * M, 1.01 * M],
      ]),
    );
    expect(analysis.steps).toMatchObject([{ nearThreshold: true }]);
    expect(analysis.exitCode).toBe(3);
  });

  it('is an error when an end could not be counted, and unfinished while points are pending', () => {
    const skip = { stage: 'install' as const, reason: 'no such version' };
    expect(analyzeBisection(bisectRecord([skip, null, M]))).toMatchObject({ verdict: 'error', exitCode: 2 });
    const interrupted = analyzeBisection(bisectRecord([M, null, null, 1.1 * M], { state: 'interrupted' }));
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
