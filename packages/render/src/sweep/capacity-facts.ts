import type { CapacityAnalysis, LittlesLawCheck, RateCapacity, RunResult, Slo, UslFit } from '@gwprof/results';
import { escapeTerminal } from '../escape.js';
import { NONE, fixed, integer, ms, sig } from '../format.js';

/** One labelled figure of the capacity analysis, as plain (unescaped) text. */
export interface CapacityFact {
  label: string;
  value: string;
}

export const NOT_DETERMINED = 'not determined (see notes)';

/** Words for r², so a reader does not have to know what 0.62 means for a fit. */
export function fitQuality(r2: number): string {
  if (!Number.isFinite(r2)) return 'unknown';
  if (r2 >= 0.95) return 'good';
  if (r2 >= 0.8) return 'fair';
  return 'poor';
}

export function uslPeakText(usl: UslFit): string {
  if (usl.peakConcurrency === null) return 'no peak predicted (κ ≤ 0: no retrograde region in the data)';
  return `N* ≈ ${integer(usl.peakConcurrency)} at ≈ ${fixed(usl.peakRps, 0)} rps`;
}

/** The headline figures, each either a value or an explicit "not determined". */
export function capacityFacts(capacity: CapacityAnalysis): CapacityFact[] {
  const facts: CapacityFact[] = [];
  facts.push({
    label: 'Knee of the throughput curve',
    value: capacity.knee ? `c=${capacity.knee.concurrency} at ${fixed(capacity.knee.rps, 1)} rps (${capacity.knee.method})` : NOT_DETERMINED,
  });
  facts.push({
    label: 'Optimal concurrency',
    value: capacity.optimalConcurrency === null ? NOT_DETERMINED : String(capacity.optimalConcurrency),
  });
  facts.push({
    label: 'Maximum concurrency',
    value: capacity.maxConcurrency === null ? NOT_DETERMINED : String(capacity.maxConcurrency),
  });
  const usl = capacity.usl;
  if (usl) {
    facts.push({
      label: 'USL fit',
      value: `σ=${sig(usl.sigma)} κ=${sig(usl.kappa)} λ=${sig(usl.lambda)} rps; r²=${fixed(usl.r2, 3)} (${fitQuality(usl.r2)}, ${usl.points} points)`,
    });
    facts.push({ label: 'USL predicted peak', value: uslPeakText(usl) });
  } else {
    facts.push({ label: 'USL fit', value: NOT_DETERMINED });
  }
  return facts;
}

export const LITTLES_LAW_HEADERS = ['conc', 'rps', 'mean ms', 'implied conc', 'ratio', 'flag', 'note'];

export function littlesLawCells(check: LittlesLawCheck): string[] {
  return [
    String(check.concurrency),
    fixed(check.rps, 1),
    ms(check.meanLatencyMs),
    fixed(check.impliedConcurrency, 1),
    fixed(check.ratio, 2),
    check.flag,
    check.note || NONE,
  ];
}

/** "p99 ≤ 500 ms, success ≥ 99.99%". */
export function sloText(slo: Slo): string {
  const parts = Object.entries(slo.latencyMs).map(([key, ms]) => `${key} ≤ ${ms} ms`);
  if (slo.minSuccess !== null) parts.push(`success ≥ ${Number((slo.minSuccess * 100).toFixed(4))}%`);
  return parts.join(', ') || 'none';
}

/** A rate ladder's headline figures: the knee on rate and the highest rate under the SLO. */
export function rateCapacityFacts(capacity: RateCapacity): CapacityFact[] {
  const facts: CapacityFact[] = [
    {
      label: 'Knee on rate',
      value: capacity.knee ? `kept ${capacity.knee.lastKeptRps} req/s; broke at ${capacity.knee.firstBrokenRps} req/s (${capacity.knee.why})` : NOT_DETERMINED,
    },
  ];
  if (capacity.slo) {
    facts.push({
      label: `Highest rate meeting ${sloText(capacity.slo)}`,
      value: capacity.maxRateUnderSlo === null ? 'none' : `${capacity.maxRateUnderSlo} req/s`,
    });
  }
  return facts;
}

/**
 * The run's capacity headline for the terminal: one "label: value" line per fact, then the notes
 * that say why a figure is not determined; '' without analysis.
 */
export function renderCapacityLines(run: RunResult): string {
  const analysis = run.analysis;
  const capacity = analysis?.rateCapacity ?? analysis?.capacity ?? null;
  if (!analysis || !capacity) return '';
  const facts = analysis.rateCapacity ? rateCapacityFacts(analysis.rateCapacity) : capacityFacts(analysis.capacity!);
  const lines = facts.map((f) => `${escapeTerminal(f.label)}: ${escapeTerminal(f.value)}`);
  if (capacity.notes.length > 0) lines.push('Notes:', ...capacity.notes.map((note) => `  - ${escapeTerminal(note)}`));
  return lines.join('\n');
}
