/** The plain-text pieces of a comparison's allocation verdict (a comparison by instructions), shared by every renderer. */
import type { AllocationCallerMove, AllocationVerdict } from '@gwprof/results';
import { signedPercent } from '../format.js';

const OUTCOME_WORDS: Record<AllocationVerdict['decision']['outcome'], string> = {
  regression: 'REGRESSION',
  improvement: 'IMPROVEMENT',
  'no change': 'NO CHANGE',
  continue: 'UNDECIDED',
};

/** What was counted, in a reader's words. */
function countedWhat(v: AllocationVerdict): string {
  return v.kind === 'allocator calls' ? 'allocator calls' : "bytes allocated on V8's heap";
}

/** The verdict in one word, for the banner: absent when it adds nothing to the instructions' (no change, or undecided: its line says so). */
export function allocationBannerWord(v: AllocationVerdict | undefined): string | null {
  const outcome = v?.decision.outcome;
  return outcome === 'regression' || outcome === 'improvement' ? `ALLOCATIONS ${OUTCOME_WORDS[outcome]}` : null;
}

function amount(n: number, v: AllocationVerdict): string {
  if (v.kind === 'allocator calls') return n >= 100 ? n.toFixed(1) : n.toFixed(2);
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} kB` : `${Math.round(n)} B`;
}

/** One line: the verdict, each side's figure, the change and the interval it was read from. */
export function allocationVerdictLine(v: AllocationVerdict, threshold: number | null): string {
  const d = v.decision;
  const sides = `${amount(v.metric.baseline.geometricMean, v)} → ${amount(v.metric.candidate.geometricMean, v)}`;
  const interval = d.interval ? `, ${Math.round((1 - 2 * d.alpha) * 100)}% interval [${signedPercent(d.interval.low)}, ${signedPercent(d.interval.high)}]` : '';
  const limit = threshold === null ? '' : ` at ±${Number((threshold * 100).toFixed(2))}%`;
  return `Allocations per ok request (${countedWhat(v)}): ${OUTCOME_WORDS[d.outcome]}${limit}, ${signedPercent(d.relativeChange)} (${sides}) over ${d.epochs} epoch${d.epochs === 1 ? '' : 's'}${interval}`;
}

export const ALLOCATION_CALLER_HEADERS = ['change/req', 'baseline', 'candidate', 'function (calls the allocator)'];

export function allocationCallerCells(m: AllocationCallerMove): string[] {
  const n = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(2));
  const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${n(Math.abs(x))}`;
  return [signed(m.deltaPerOkRequest), n(m.baselinePerOkRequest), n(m.candidatePerOkRequest), m.functionName];
}

export const ALLOCATION_CALLERS_HEADING = 'Functions whose allocator calls per request moved most (each the allocator’s direct caller)';
