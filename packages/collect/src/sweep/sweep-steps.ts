/**
 * A sweep's steps, one per level, each appended to results.json as soon as it is measured; for
 * `--rate auto`, the short closed-loop probe that finds the peak the rates are fractions of.
 */
import { loadLabel, type LoadShape, type RunResult } from '@gwprof/results';
import { DEFAULTS } from '../defaults.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import type { RecordJournal } from '../run/record-journal.js';
import type { Session } from '../run/session.js';
import type { Scenario } from '../scenario/scenario.js';
import { measureStep } from '../step/measure-step.js';
import type { SweepOptions } from './sweep-options.js';
import type { OtlpReceiver } from '../services/otlp-receiver.js';

/** One step per level, each written to results.json as soon as it is measured. */
export async function runSteps(
  options: SweepOptions,
  levels: readonly LoadShape[],
  scenario: Scenario,
  target: GatewayUnderTest,
  session: Session,
  journal: RecordJournal<RunResult>,
  otlp: OtlpReceiver | null,
): Promise<void> {
  for (const load of levels) {
    if (options.signal.aborted) return;
    const label = loadLabel(load);
    assertRunning(target, `before the step at ${label}`);
    const step = await measureStep({
      id: load.kind === 'closed' ? String(load.concurrency) : `r${load.targetRps}`,
      load,
      settings: options,
      scenario,
      gateway: target.step,
      subgraphs: target.subgraphs,
      otlp,
      profiler: target.profiler,
      profilerUnavailable: target.profilerUnavailable,
      runDir: session.runDir,
      logs: session.logs,
    });
    if (!step) return;
    journal.record.steps.push(step);
    journal.save();
    session.logs.harness.info({ step: { ...step, series: undefined } }, `step ${label} ${step.status}`);
    options.onProgress(`${label} ${step.status === 'failed' ? 'FAILED' : step.status} · ${step.rps} ok req/s · ${step.requests.failed} failed`, true);
    assertRunning(target, `during the step at ${label}`);
  }
}

function assertRunning(target: GatewayUnderTest, when: string): void {
  if (target.step.isRunning()) return;
  const tail = target.process?.process.tail().slice(-5).join(' | ');
  throw new Error(`gateway exited ${when}${tail ? `; last log lines: ${tail}` : ''}`);
}

/** Connections of the probe that finds a gateway's closed-loop peak for `--rate auto`. */
const PROBE_CONCURRENCY = [8, 32, 128];
/** The rates of `--rate auto` as fractions of that peak: sparse at light load, finer near the knee. */
const RATE_FRACTIONS = [0.1, 0.3, 0.5, 0.65, 0.75, 0.85, 0.95, 1.05, 1.2];

/** Short closed-loop steps find the peak; the sweep's rates are fractions of it. */
export async function probeRates(
  options: SweepOptions,
  scenario: Scenario,
  target: GatewayUnderTest,
  session: Session,
  journal: RecordJournal<RunResult>,
  auto: { arrivals: 'poisson' | 'uniform'; maxInFlight: number },
): Promise<LoadShape[]> {
  const steps = [];
  const probe = DEFAULTS.peakProbe;
  const probeSettings = {
    ...options,
    durationSec: Math.min(options.durationSec, probe.durationSec),
    maxDurationSec: Math.min(options.maxDurationSec, probe.maxDurationSec),
    warmupSec: Math.min(options.warmupSec, probe.warmupSec),
  };
  for (const concurrency of PROBE_CONCURRENCY) {
    if (options.signal.aborted) break;
    const step = await measureStep({
      id: `probe-c${concurrency}`,
      load: { kind: 'closed', concurrency },
      settings: probeSettings,
      scenario,
      gateway: target.step,
      subgraphs: target.subgraphs,
      profiler: null,
      runDir: session.runDir,
      logs: session.logs,
      label: 'peak probe',
    });
    if (!step) break;
    steps.push(step);
  }
  const peakRps = Math.max(0, ...steps.filter((s) => s.status !== 'failed').map((s) => s.rps));
  journal.record.probe = { steps, peakRps };
  journal.save();
  if (!(peakRps > 0)) throw new Error('the peak probe got no successful response: no rate to step through');
  const rates = [...new Set(RATE_FRACTIONS.map((fraction) => Math.max(1, Math.round(fraction * peakRps))))];
  options.onProgress(`closed-loop peak ≈ ${peakRps} ok req/s: stepping ${rates.join(', ')} req/s`, true);
  return rates.map((targetRps) => ({ kind: 'open', targetRps, arrivals: auto.arrivals, maxInFlight: auto.maxInFlight }));
}
