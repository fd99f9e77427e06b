import { loadLabel, loadLevel, type RunResult, type StepRecord } from '@gwprof/results';
import type { Column } from '../text-table.js';
import { NONE, fixed, integer, ms, successPercent } from '../format.js';
import { stepAnalysisOf } from './step-analysis.js';
import { upstreamUnseenWarning } from '../upstream-unseen.js';
import { failureBreakdown } from '../failures.js';
import { upstreamUnseen } from '@gwprof/analysis';

export const STEP_COLUMNS: Column[] = [
  { header: 'conc', align: 'right' },
  { header: 'status' },
  { header: 'ok/total', align: 'right' },
  { header: 'success %', align: 'right' },
  { header: 'rps', align: 'right' },
  { header: 'p50 ms', align: 'right' },
  { header: 'p90 ms', align: 'right' },
  { header: 'p99 ms', align: 'right' },
  { header: 'max ms', align: 'right' },
  { header: 'window s', align: 'right' },
  { header: 'in flight', align: 'right' },
  { header: 'failures' },
  { header: 'order warn', align: 'right' },
  { header: 'gw CPU %', align: 'right' },
  { header: 'ok req per gw CPU-s', align: 'right' },
  { header: 'gw RSS MB', align: 'right' },
  { header: 'gw threads', align: 'right' },
  { header: 'subgraphs CPU %', align: 'right' },
  { header: 'fan-out', align: 'right' },
  { header: 'loadgen CPU %', align: 'right' },
  { header: 'harness cores busy %', align: 'right' },
];

/** How a step is named everywhere: "c=100" (closed loop) or "500 req/s" (open loop). */
export function stepLabel(step: Pick<StepRecord, 'load'>): string {
  return loadLabel(step.load);
}

/** The header of a table's level column: connections, or the offered rate for a rate sweep. */
export function levelHeader(run: Pick<RunResult, 'steps'>): string {
  return isRateRun(run) ? 'req/s' : 'conc';
}

/** The level as the first column of a table shows it: connections, or the offered rate. */
export function levelCell(step: Pick<StepRecord, 'load'>): string {
  return String(loadLevel(step.load));
}

/** The status as every table shows it: ok, unsteady, overloaded or FAILED. */
export function statusText(step: StepRecord): string {
  return step.status === 'failed' ? 'FAILED' : step.status;
}

/**
 * The cells of one step row, as plain text. `status` is rendered by the caller (color in the terminal,
 * bold in markdown) so the text FAILED is always present.
 */
export function stepCells(step: StepRecord, status: string): string[] {
  const latency = step.latencyMs;
  return [
    levelCell(step),
    status,
    `${integer(step.requests.ok)}/${integer(step.requests.total)}`,
    successPercent(step.requests.ok, step.requests.total),
    fixed(step.rps, 1),
    ms(latency?.p50),
    ms(latency?.p90),
    ms(latency?.p99),
    ms(latency?.max),
    String(step.timing.windowSec),
    integer(step.requests.inFlightAtEnd),
    failureBreakdown(step.failureCounts),
    step.orderWarnings > 0 ? integer(step.orderWarnings) : '0',
    fixed(step.gateway.cpuPercent, 0),
    fixed(step.gateway.cpuMsPerOkRequest ? 1000 / step.gateway.cpuMsPerOkRequest : null, 0),
    fixed(step.gateway.rssMaxMB, 0),
    fixed(step.gateway.threads ?? null, 0),
    fixed(step.subgraphs.cpuPercent, 0),
    fixed(step.fanout, 2),
    fixed(step.loadgen.cpuPercent, 0),
    fixed(step.harness?.cores?.busyPercent ?? null, 0),
  ];
}

export function failedSteps(run: RunResult): StepRecord[] {
  return run.steps.filter((s) => s.status === 'failed');
}

/** One line per reason of a failed step; a failed step without reasons still gets a line. */
export function failedStepReasons(step: StepRecord): string[] {
  return step.failures.length > 0 ? step.failures : ['(no reason recorded)'];
}

/** Every step's warnings, the record's and the analysis's, as "c=10: …" lines. */
export function stepWarningLines(run: RunResult): string[] {
  return run.steps.flatMap((step) => {
    const derived = stepAnalysisOf(run, step);
    return [...upstreamUnseenOf(step), ...step.warnings, ...(derived?.warnings ?? []), ...(derived?.error ? [derived.error] : [])].map(
      (warning) => `${stepLabel(step)}: ${warning}`,
    );
  });
}

/** "c=10: …" for each step whose successful answers reached none of the subgraphs gwprof counts. */
export function upstreamUnseenLines(run: RunResult): string[] {
  return run.steps.flatMap((step) => upstreamUnseenOf(step).map((warning) => `${stepLabel(step)}: ${warning}`));
}

/** The step's upstream-unseen warning, if it has one. */
function upstreamUnseenOf(step: StepRecord): string[] {
  return upstreamUnseen(step) ? [upstreamUnseenWarning('the subgraphs gwprof counts', `the gateway answered ${integer(step.requests.ok)} successfully`)] : [];
}

/** "ALL STEPS OK", "1 STEP FAILED", "NO STEPS", plus unsteady steps and the run state when it did not complete. */
/** The run's overall verdict as analysis derived it (sweep-outcome.ts). */
export function overallVerdict(run: RunResult): { ok: boolean; text: string } {
  const analysis = run.analysis;
  return analysis ? { ok: analysis.passed, text: analysis.verdict } : { ok: false, text: 'NOT ANALYSED (run gwprof report on the folder)' };
}

/** "c=100: <reason>" for every reason a step was not a steady state. */
export function unsteadyLines(run: RunResult): string[] {
  return run.steps.flatMap((step) => step.steadiness.reasons.map((reason) => `${stepLabel(step)}: ${reason}`));
}

/** Why each harness-bound step is: not the gateway's capacity. */
export function harnessBoundLines(run: RunResult): string[] {
  return run.steps.flatMap((step) => (step.harness?.boundReason ? [`${stepLabel(step)}: ${step.harness.boundReason}`] : []));
}

/**
 * What the run's fan-out figures are: none where a scenario file's subgraph is uncounted, counted
 * through gwprof's proxy where the file asks for it, and why a step's fan-out is below that of one
 * request alone: under concurrency the gateway merged subgraph calls, batching entity fetches of
 * several requests into one call or sharing identical in-flight ones. gwprof counts subgraph
 * calls, not what is in them, so it names both.
 */
export function fanoutNotes(run: RunResult): string[] {
  const own = run.config.ownSubgraphs ?? [];
  const proxied = run.config.proxiedSubgraphs ?? [];
  const uncounted = own.filter((name) => !proxied.includes(name));
  if (uncounted.length > 0) {
    return [
      `fan-out ${NONE}: the scenario file's subgraphs (${uncounted.join(', ')}) are not gwprof's code and are not proxied (proxy: true in the file counts them), so gwprof cannot count the requests they get`,
    ];
  }
  const through =
    proxied.length > 0
      ? [
          `fan-out counted by gwprof's counting proxy in front of ${proxied.join(', ')}: each subgraph call took one more loopback hop, in the gateway's latency (its cost: docs/scenario-file.md)`,
        ]
      : [];
  const alone = run.fanoutAlone?.fanout;
  if (!alone) return through;
  return [...through, ...mergedCallNotes(run, alone)];
}

function mergedCallNotes(run: RunResult, alone: number): string[] {
  return run.steps
    .filter((step) => step.fanout !== null && step.fanout < alone * 0.9)
    .map(
      (step) =>
        `${stepLabel(step)}: fan-out ${fixed(step.fanout, 2)} against ${fixed(alone, 2)} for one request at a time: the gateway merged subgraph calls across concurrent requests (batched entity fetches or shared identical in-flight calls), so each response cost fewer subgraph round trips than one request alone` +
        (run.config.variables || run.config.scenarioFile ? '' : ' (this stream repeats one request: the default scenario varies them)'),
    );
}

/** How a step was measured, in one sentence, with the window minimums the run recorded. */
export function stepMethod(run: Pick<RunResult, 'config'>): string {
  const minimums = run.config.windowMinimums;
  const window = minimums
    ? `a window long enough for ≥ ${minimums.minRoundTrips} round trips and ${minimums.minResponses} responses (or its cap)`
    : 'a measured window';
  return `Each step is one continuous load on the same connections: settle (the gateway works off the previous step), warm-up until throughput stops trending, then ${window}.`;
}

/** The steady-state table's columns; the first names the run's level. */
export function steadyStateHeaders(run: Pick<RunResult, 'steps'>): string[] {
  return [levelHeader(run), ...STEADY_STATE_COLUMNS];
}

const STEADY_STATE_COLUMNS = [
  'settle s',
  'warm-up s',
  'warm-up',
  'window s',
  'window set by',
  'in flight at end',
  'connections opened',
  'trend %',
  'CV %',
  "Little's ratio",
];

/** How each step reached and held its steady state, one row per step. */
export function steadyStateCells(run: RunResult, step: StepRecord): string[] {
  const little = step.load.kind === 'closed' ? run.analysis?.capacity?.littlesLaw.find((c) => c.concurrency === loadLevel(step.load)) : undefined;
  const t = step.timing;
  return [
    levelCell(step),
    `${fixed(t.settleSec, 1)}${t.settled ? '' : ' (busy)'}`,
    String(t.warmupSec),
    t.warmupSteady ? 'settled' : 'not settled',
    String(t.windowSec),
    t.windowLimitedBy,
    integer(step.requests.inFlightAtEnd),
    // In the window; absent for k6 and older results.
    step.connectionsOpened ? integer(step.connectionsOpened.window) : NONE,
    fixed(step.steadiness.trendPercent, 1),
    fixed(step.steadiness.cvPercent, 1),
    fixed(little?.ratio, 2),
  ];
}

/** A fixed-rate sweep (open loop): its tables are the seeds' TPS ladders. */
export function isRateRun(run: Pick<RunResult, 'steps'>): boolean {
  return run.steps.length > 0 && run.steps.every((s) => s.load.kind === 'open');
}

export const LADDER_COLUMNS: Column[] = [
  { header: 'req/s', align: 'right' },
  { header: 'status' },
  { header: 'sent/s', align: 'right' },
  { header: 'ok/s', align: 'right' },
  { header: 'dropped', align: 'right' },
  { header: 'success %', align: 'right' },
  { header: 'mean ms', align: 'right' },
  { header: 'p50 ms', align: 'right' },
  { header: 'p80 ms', align: 'right' },
  { header: 'p95 ms', align: 'right' },
  { header: 'p99 ms', align: 'right' },
  { header: 'max ms', align: 'right' },
  { header: 'lag p99 ms', align: 'right' },
  { header: 'failures' },
  { header: 'gw CPU %', align: 'right' },
  { header: 'ok req per gw CPU-s', align: 'right' },
  { header: 'gw RSS MB', align: 'right' },
  { header: 'gc %', align: 'right' },
  { header: 'fan-out', align: 'right' },
  { header: 'loadgen CPU %', align: 'right' },
];

/** One rung of a rate ladder: offered and achieved rate, latency percentiles from intended send times, resources. */
export function ladderCells(run: RunResult, step: StepRecord, status: string): string[] {
  const latency = step.latencyMs;
  const gc = stepAnalysisOf(run, step)?.buckets?.gc;
  return [
    levelCell(step),
    status,
    fixed(step.rate?.sentRps, 1),
    fixed(step.rps, 1),
    integer(step.rate?.dropped),
    successPercent(step.requests.ok, step.requests.total),
    ms(latency?.mean),
    ms(latency?.p50),
    ms(latency?.p80),
    ms(latency?.p95),
    ms(latency?.p99),
    ms(latency?.max),
    ms(step.rate?.lagMs?.p99),
    failureBreakdown(step.failureCounts),
    fixed(step.gateway.cpuPercent, 0),
    fixed(step.gateway.cpuMsPerOkRequest ? 1000 / step.gateway.cpuMsPerOkRequest : null, 0),
    fixed(step.gateway.rssMaxMB, 0),
    gc === undefined ? NONE : fixed(gc * 100, 1),
    fixed(step.fanout, 2),
    fixed(step.loadgen.cpuPercent, 0),
  ];
}

/** The step table's columns and one row's cells, for either kind of sweep. */
export function stepTable(run: RunResult): { columns: Column[]; cells: (step: StepRecord, status: string) => string[] } {
  return isRateRun(run) ? { columns: LADDER_COLUMNS, cells: (step, status) => ladderCells(run, step, status) } : { columns: STEP_COLUMNS, cells: stepCells };
}
