/**
 * A comparison's verdict from its levels' decisions, the same for both measures: a response that
 * failed validation makes it invalid; a level that regressed, a regression; a level still open,
 * inconclusive (and done once every open level has had its last look); otherwise no change, or an
 * improvement when a level improved.
 */
import type { LevelDecision } from '@gwprof/results';
import type { Finding } from '../exit-code.js';

export interface ComparisonVerdict {
  decisions: Map<number, LevelDecision>;
  verdict: 'regression' | 'no change' | 'improvement' | 'inconclusive' | 'invalid';
  reasons: string[];
  /** Measuring more cannot change the verdict: a level regressed, every level decided, or a response failed validation. */
  done: boolean;
  /** What fixes an invalid verdict, a command each (failure-diagnosis.ts); absent when none does. */
  fixes?: string[];
}

export interface VerdictLooks {
  /** The last look; a level still open there is inconclusive. */
  maxEpochs: number;
  /** How a level is named in reasons ("c=20", "300 req/s", "instructions per request"). */
  label: (level: number) => string;
}

export function comparisonVerdict(decisions: Map<number, LevelDecision>, invalidReasons: readonly string[], looks: VerdictLooks): ComparisonVerdict {
  if (invalidReasons.length > 0) return { decisions, verdict: 'invalid', reasons: [...invalidReasons], done: true };
  const all = [...decisions.entries()];
  const describe = ([level, d]: [number, LevelDecision]) => `${looks.label(level)}: ${d.reason}`;
  const regressed = all.filter(([, d]) => d.outcome === 'regression');
  if (regressed.length > 0) return { decisions, verdict: 'regression', reasons: regressed.map(describe), done: true };
  const open = all.filter(([, d]) => d.outcome === 'continue');
  if (open.length > 0) {
    // A level still open at its last look stays so: the comparison can stop.
    const exhausted = open.every(([, d]) => d.epochs >= looks.maxEpochs);
    return { decisions, verdict: 'inconclusive', reasons: open.map(describe), done: exhausted };
  }
  const improved = all.some(([, d]) => d.outcome === 'improvement');
  return { decisions, verdict: improved ? 'improvement' : 'no change', reasons: all.map(describe), done: true };
}

/** What a verdict found, for the exit code (exit-code.ts). */
export function findingOf(verdict: ComparisonVerdict['verdict']): Finding {
  switch (verdict) {
    case 'regression':
      return 'failed';
    case 'inconclusive':
      return 'inconclusive';
    case 'invalid':
      return 'invalid';
    default:
      return 'passed';
  }
}
