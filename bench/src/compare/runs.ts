// `runs`: real comparisons with the stopping rule, kinds interleaved (`runs-table` shows them all).
import { median } from '@gwprof/analysis';
import type { CompareDesign } from '@gwprof/results';
import {
  burnOfKind,
  extraFlags,
  slimEpochs,
  slimWindows,
  type BenchValues,
  type Calibration,
  type CommandContext,
  type CompareRun,
  type SlimEpoch,
  type SlimWindow,
} from './driver.js';
import { appendEntry } from './json-log.js';

interface PlannedRun {
  kind: 'A/A' | '+10%' | '+5%';
  budget: string;
}

/** An entry of compare-runs.json. */
export interface RunEntry {
  date: string;
  gateway: string;
  /** The extra compare flags it ran with. */
  flags: string[];
  calibration: Calibration | null;
  kind: string;
  budget: number;
  exitCode: number | null;
  verdict: string | null;
  minutes: number;
  change: number | null;
  interval: { low: number; high: number } | null;
  epochs: number | null;
  /** The plan's last look; absent in entries from before 2026-11-27 18:00. */
  maxEpochs?: number | null;
  burnUs: number;
  baselineCpuMs: number | null;
  windows: SlimWindow[];
  epochRecords: SlimEpoch[];
  design?: CompareDesign | null;
}

/** Interleaved kinds, so that the machine's drift over hours hits all of them alike. */
function runPlan(values: BenchValues): PlannedRun[] {
  const plan: PlannedRun[] = [];
  for (let i = 0; i < Math.max(Number(values.aa), Number(values.burn10), Number(values.burn5)); i++) {
    if (i < Number(values.aa)) plan.push({ kind: 'A/A', budget: values.budget });
    if (i < Number(values.burn10)) plan.push({ kind: '+10%', budget: values.budget });
    if (i < Number(values.burn5)) plan.push({ kind: '+5%', budget: values.budget5 });
  }
  return plan;
}

/** Per gateway and kind of run: how the verdicts fell, how many within 10 and 20 minutes, and how long they took, as markdown rows. */
export function verdictSummary(runs: readonly Pick<RunEntry, 'gateway' | 'kind' | 'verdict' | 'minutes'>[]): string[] {
  const groups = [...new Set(runs.map((r) => `${r.gateway} ${r.kind}`))];
  return [
    '| gateway and candidate | runs | regression | within 10 min | no change | within 10 min | improvement | inconclusive | invalid | median min | max min |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...groups.map((g) => {
      const rs = runs.filter((r) => `${r.gateway} ${r.kind}` === g);
      const count = (v: string, minutes = Infinity): number => rs.filter((r) => r.verdict === v && r.minutes <= minutes).length;
      return `| ${g} | ${rs.length} | ${count('regression')} | ${count('regression', 10)} | ${count('no change')} | ${count('no change', 10)} | ${count('improvement')} | ${count('inconclusive')} | ${count('invalid')} | ${median(rs.map((r) => r.minutes)).toFixed(1)} | ${Math.max(...rs.map((r) => r.minutes)).toFixed(1)} |`;
    }),
  ];
}

/** What a run's compare.json says, kept with the burn and the baseline's CPU per request. */
function runEntry(run: PlannedRun, r: CompareRun, burnUs: number) {
  const level = r.result?.analysis?.levels?.[0];
  // The burn is a fixed CPU time, calibrated before the run; the machine's speed during the run decides what
  // share of the baseline's CPU per request it really is, so each run keeps that baseline.
  return {
    kind: run.kind,
    budget: Number(run.budget),
    exitCode: r.exitCode,
    verdict: r.result?.analysis?.verdict ?? null,
    minutes: r.minutes,
    change: level?.decision?.relativeChange ?? null,
    interval: level?.decision?.interval ?? null,
    epochs: level?.decision?.epochs ?? null,
    // The last look the run's plan fixed: `redecide` replays its epochs up to it.
    maxEpochs: level?.decision?.maxEpochs ?? null,
    burnUs,
    baselineCpuMs: level?.gating?.baseline?.median ?? null,
    // The design the run had (defaults included), so that the entry says what it measured.
    design: r.result?.config.design ?? null,
    // Kept so that a run's noise (within and between process pairs) and pace can be studied afterwards.
    windows: r.result ? slimWindows(r.result) : [],
    epochRecords: r.result ? slimEpochs(r.result) : [],
  };
}

export function runsCommand({ values, out, driver, log }: CommandContext): string {
  const plan = runPlan(values);
  // The machine's speed drifts over an hour, and the burn is a fixed time: --recalibrate sizes it
  // again right before each burn run, at the cost of a 3-minute probe.
  const burns = (run: PlannedRun): boolean => run.kind !== 'A/A';
  let calibration = plan.some(burns) && !values.recalibrate ? driver.calibrateBurn(100) : null;
  const results: ReturnType<typeof runEntry>[] = [];
  for (const [i, run] of plan.entries()) {
    if (values.recalibrate && burns(run)) calibration = driver.calibrateBurn(100);
    const burnUs = burnOfKind(calibration, run.kind);
    const r = driver.compare(`run-${i}`, ['--budget', run.budget], driver.burnEnv(burnUs));
    const entry = runEntry(run, r, burnUs);
    results.push(entry);
    appendEntry(out, 'compare-runs.json', { date: new Date().toISOString(), gateway: values.gateway, flags: extraFlags(values), calibration, ...entry });
    log(
      `${i + 1}/${plan.length} ${run.kind}: ${entry.verdict} (exit ${entry.exitCode}) in ${entry.minutes.toFixed(1)} min, change ${entry.change === null ? '–' : (entry.change * 100).toFixed(1)}%`,
    );
  }
  return `${verdictSummary(results.map((r) => ({ ...r, gateway: values.gateway }))).join('\n')}\n`;
}
