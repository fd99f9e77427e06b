import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBisectResult, readCompareResult, readRunResult, writeRunResult } from './io.js';
import { RESULTS_SCHEMA_VERSION, type RunResult } from './types.js';

function run(steps: number): RunResult {
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: { name: 'gwprof', version: '0.0.0' },
    kind: 'sweep',
    runId: 'r1',
    startedAt: '2026-01-01T00:00:00Z',
    finishedAt: null,
    state: 'running',
    error: null,
    config: {} as RunResult['config'],
    environment: {} as RunResult['environment'],
    steps: Array.from(
      { length: steps },
      (_, i) => ({ id: String(10 * (i + 1)), load: { kind: 'closed', concurrency: 10 * (i + 1) } }) as RunResult['steps'][number],
    ),
    artifacts: {},
    fanoutAlone: null,
    probe: null,
    analysis: null,
  };
}

describe('results.json', () => {
  it('round-trips and replaces the file atomically, leaving no temporary file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-results-'));
    writeRunResult(dir, run(1));
    writeRunResult(dir, run(2));
    expect(readRunResult(dir).steps.map((s) => s.id)).toEqual(['10', '20']);
    expect(readdirSync(dir)).toEqual(['results.json']);
  });

  it('explains what is wrong with a folder that is not a run', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-results-'));
    expect(() => readRunResult(dir)).toThrow(/results\.json does not exist: is this a gwprof run folder\?/);
    writeFileSync(path.join(dir, 'results.json'), '{"kind": "sweep", "steps": [');
    expect(() => readRunResult(dir)).toThrow(/is not valid JSON/);
    writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ ...run(0), schemaVersion: 99 }));
    expect(() => readRunResult(dir)).toThrow(/schema version 99/);
  });

  it('reads a schema 2 file, whose steps repeated their connections as `concurrency`, as schema 3', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-results-'));
    const old = run(2);
    const withConcurrency = old.steps.map((s) => ({ ...s, concurrency: 1000 }));
    writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ ...old, schemaVersion: 2, steps: withConcurrency }));
    const read = readRunResult(dir);
    expect(read.schemaVersion).toBe(RESULTS_SCHEMA_VERSION);
    expect(read.steps.map((s) => ({ ...s }))).toEqual(old.steps);
    expect(read.steps.every((s) => !('concurrency' in s))).toBe(true);
  });

  it('reads failure counts written before protocol errors were counted apart as none of them', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-results-'));
    const older = { non2xx: 1, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 2, socketErrors: 3 };
    const steps = run(1).steps.map((s) => ({ ...s, failureCounts: older }));
    writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ ...run(0), steps }));
    expect(readRunResult(dir).steps[0]!.failureCounts).toEqual({ ...older, protocolErrors: 0 });
  });

  it('refuses a compare.json of schema 2, saying why', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-results-'));
    writeFileSync(path.join(dir, 'compare.json'), JSON.stringify({ schemaVersion: 2, kind: 'compare', mode: 'windows', config: {}, epochs: [], windows: [] }));
    expect(() => readCompareResult(dir)).toThrow(/schema version 2; this gwprof reads comparisons of version 3/);
  });

  it('reads a bisect.json written when the scatter was assumed: its `pointSd` becomes the floor under the measured one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-results-'));
    const config = { threshold: 0.01, splitFraction: 0.5, pointSd: 0.002, maxCountsPerPoint: 3 };
    writeFileSync(path.join(dir, 'bisect.json'), JSON.stringify({ schemaVersion: RESULTS_SCHEMA_VERSION, kind: 'bisect', config, points: [] }));
    expect(readBisectResult(dir).config).toEqual({ threshold: 0.01, splitFraction: 0.5, minPointSd: 0.002, maxCountsPerPoint: 3 });
  });
});
