/** A sweep's results.json as it opens: its config (the options as recorded) and no step yet. */
import type { RunConfig, RunResult } from '@gwprof/results';
import { DEFAULTS } from '../defaults.js';
import { recordHeader, servicesRecord } from '../run/record-header.js';
import type { RunSetup } from '../run/run-opening.js';
import type { SweepOptions } from './sweep-options.js';

export function newSweepRecord(options: SweepOptions, { session, ...setup }: RunSetup): RunResult {
  const config = runConfig(options, setup);
  return {
    ...recordHeader('sweep', session.runId),
    config,
    environment: session.environment,
    fanoutAlone: null,
    probe: null,
    steps: [],
    artifacts: { logs: 'logs/' },
    analysis: null,
  };
}

function runConfig(options: SweepOptions, { recorded, nativeSubgraphs }: Omit<RunSetup, 'session'>): RunConfig {
  return {
    gateway: options.gateway,
    gatewayEnv: options.gatewayEnv,
    scenario: options.scenarioName,
    concurrency: options.levels.flatMap((l) => (l.kind === 'closed' ? [l.concurrency] : [])),
    rates: options.levels.flatMap((l) => (l.kind === 'open' ? [l.targetRps] : [])),
    arrivals: options.autoRate?.arrivals ?? options.levels.find((l) => l.kind === 'open')?.arrivals ?? null,
    autoRate: options.autoRate !== undefined,
    slo: options.slo,
    durationSec: options.durationSec,
    maxDurationSec: options.maxDurationSec,
    warmupSec: options.warmupSec,
    windowMinimums: DEFAULTS.windowMinimums,
    ...recorded,
    ...servicesRecord(options, nativeSubgraphs),
    minSuccess: options.minSuccess,
    profile: options.profiler !== 'none',
    profiler: options.profiler,
    samplingIntervalUs: options.samplingIntervalUs,
    heapSamplingBytes: options.profiler === 'inspector' ? options.heapSamplingBytes : null,
    allocationAttribution: options.profiler === 'inspector' && options.heapSamplingBytes ? (options.allocationAttribution ?? null) : null,
    quick: options.quick,
    engine: options.engine?.kind ?? 'gwprof',
  };
}
