/**
 * `gwprof compare --baseline-run A --candidate-run B`: two finished sweeps compared level by level.
 * Nothing is measured; the record names the two runs and the levels they share, and the publish
 * pass derives the deltas from their results.json files.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { GwprofError, loadLevel, readRunResult, writeCompareResult, type CompareResult, type RunResult, type StepRecord } from '@gwprof/results';
import { recordHeader } from '../run/record-header.js';

export interface FinishedRunsOptions {
  baselineDir: string;
  candidateDir: string;
  runDir: string;
  runId: string;
  commandLine: string[];
}

/** Writes compare.json for two finished runs into runDir; refuses runs that share no level. */
export function recordFinishedRunsComparison(options: FinishedRunsOptions): CompareResult {
  const baseline = readRunResult(options.baselineDir);
  const candidate = readRunResult(options.candidateDir);
  const same = (a: StepRecord, b: StepRecord) => a.load.kind === b.load.kind && loadLevel(a.load) === loadLevel(b.load);
  const shared = baseline.steps.filter((b) => candidate.steps.some((c) => same(b, c)));
  if (shared.length === 0) throw new GwprofError('the two runs share no level (same concurrency, or same rate): nothing to compare');
  const record = runsRecord(options, baseline, candidate, shared);
  mkdirSync(options.runDir, { recursive: true });
  writeCompareResult(options.runDir, record);
  return record;
}

function runsRecord(options: FinishedRunsOptions, baseline: RunResult, candidate: RunResult, shared: StepRecord[]): CompareResult {
  const now = new Date().toISOString();
  const load = shared[0]!.load;
  return {
    ...recordHeader('compare', options.runId),
    tool: baseline.tool,
    startedAt: now,
    finishedAt: now,
    state: 'complete',
    mode: 'runs',
    config: {
      baseline: `${baseline.config.gateway} (${options.baselineDir})`,
      candidate: `${candidate.config.gateway} (${options.candidateDir})`,
      baselineEnv: baseline.config.gatewayEnv,
      candidateEnv: candidate.config.gatewayEnv,
      load: load.kind === 'closed' ? { kind: 'closed' } : { kind: 'open', arrivals: load.arrivals, maxInFlight: load.maxInFlight },
      levels: shared.map((step) => loadLevel(step.load)),
      query: baseline.config.query,
      variables: baseline.config.variables,
      expect: baseline.config.expect,
      profile: baseline.config.profile,
      heapSamplingBytes: null,
      nodes: null,
      design: null,
    },
    environment: { ...baseline.environment, commandLine: options.commandLine },
    runs: { baseline: path.resolve(options.baselineDir), candidate: path.resolve(options.candidateDir) },
    epochs: [],
    windows: [],
    plan: null,
    stopReason: 'compared finished runs',
    analysis: null,
  };
}
