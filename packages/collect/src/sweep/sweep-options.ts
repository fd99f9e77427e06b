/** What a sweep is asked: the gateway, the steps' loads, how each step is measured, the services around it. */
import type { LoadShape, Slo } from '@gwprof/results';
import type { ScenarioSource } from '../run/scenario-source.js';
import type { ProfilerKind, ServiceOptions } from '../services/test-bed.js';
import type { StepSettings } from '../step/step-types.js';

export interface SweepOptions extends StepSettings, ServiceOptions {
  gateway: string;
  /** For a url: gateway: its local process, to measure its CPU and memory and to profile it. */
  gatewayPid?: number;
  gatewayEnv: Record<string, string>;
  /** With `trace`: receive the gateway's own OTLP spans (the built-in gateways that export them are told to). */
  gatewaySpans?: boolean;
  /** Where a cmd: gateway runs: the user's folder unless given (a scenario file's own gateway runs from the file's folder). */
  gatewayCwd?: string;
  /** The steps' loads, in order: closed-loop connections or open-loop rates. */
  levels: LoadShape[];
  /**
   * `--rate auto`: ignore `levels`; find the closed-loop peak with a short probe, then step open-loop
   * rates from about 10% to 120% of it, finer near the knee.
   */
  autoRate?: { arrivals: 'poisson' | 'uniform'; maxInFlight: number };
  slo: Slo | null;
  /** The --scenario it came from, for the record. */
  scenarioName: string;
  scenario: ScenarioSource;
  profiler: ProfilerKind;
  outDir: string;
  runId?: string;
  quick: boolean;
  commandLine: string[];
}
