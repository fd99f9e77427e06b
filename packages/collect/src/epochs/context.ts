/** What the parts of a running comparison share: its options, services, record and random source. */
import type { CompareConfig, CompareDesign, CompareResult, LoadShape } from '@gwprof/results';
import type { Scenario } from '../scenario/scenario.js';
import type { ScenarioSource } from '../run/scenario-source.js';
import type { RunRequest, Session } from '../run/session.js';
import type { ServiceOptions } from '../services/test-bed.js';
import type { RecordJournal } from '../run/record-journal.js';
import type { GatewayPair, Side } from './gateway-pair.js';

export interface CompareOptions extends ServiceOptions, RunRequest {
  baseline: string;
  candidate: string;
  baselineEnv: Record<string, string>;
  candidateEnv: Record<string, string>;
  /** The Node.js of each side: a version (22, 24.9.0), a path, or current (the default). */
  baselineNode?: string;
  candidateNode?: string;
  /** Port of the candidate; the baseline takes gatewayPort. */
  candidatePort: number;
  /** closed: levels are connections; open: levels are requests per second (overhead at equal load). */
  load: CompareConfig['load'];
  levels: number[];
  scenario: ScenarioSource;
  /** The candidate's own goldens (a PR that changes answers on purpose); absent: the baseline's. */
  candidateGoldens?: string;
  design: CompareDesign;
  profile: boolean;
  samplingIntervalUs: number;
  heapSamplingBytes: number | null;
  timeoutSec: number;
}

export interface ComparisonContext {
  options: CompareOptions;
  /** Each side's requests, each with the golden that side's answers are checked against. */
  scenarios: Record<Side, Scenario>;
  session: Session;
  pair: GatewayPair;
  compare: CompareResult;
  /** Saves `compare` into compare.json: after every window, batch and epoch. */
  journal: RecordJournal<CompareResult>;
  /** Block orders, start orders and V8 seeds: seeded from the run id, so a run's draws can be told again. */
  random: () => number;
  /** performance.now() when measuring began: the budget counts from here. */
  started: number;
  loadAt(level: number): LoadShape;
}
