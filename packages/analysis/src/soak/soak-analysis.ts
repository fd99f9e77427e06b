/**
 * A soak's `analysis` from its record: the memory trends and verdict over its intervals, and the
 * classes that grew in every snapshot diff (the memtest rule).
 */
import type { SoakAnalysis, SoakResult } from '@gwprof/results';
import { growingClasses } from './heap-snapshot.js';
import { DEFAULT_LEAK_DESIGN, judgeSoak, leakingClasses, type LeakDesign } from './leak.js';
import { soakOutcome } from './soak-outcome.js';
import { analyzeReloads, reloadExitReasons } from './reload-analysis.js';

/** The leak design a soak ran with: the defaults, with its own warm-up and threshold. */
export function leakDesignOf(soak: SoakResult): LeakDesign {
  return { ...DEFAULT_LEAK_DESIGN, warmupSec: soak.config.warmupSec, thresholdBytesPerRequest: soak.config.leakThresholdBytesPerRequest };
}

/** The memtest rule over the snapshots whose summary succeeded, in order. */
function classesThatGrew(soak: SoakResult): SoakAnalysis['growingClasses'] {
  const summaries = soak.snapshots.flatMap((s) => (s.classes ? [{ classes: s.classes }] : []));
  if (summaries.length < 3) return [];
  return leakingClasses(growingClasses(summaries))
    .slice(0, 10)
    .map((c) => ({ name: c.name, counts: c.counts, retainedSizes: c.retainedSizes, growthBytes: c.growthBytes, retainerPath: c.retainerPath }));
}

export function analyzeSoak(soak: SoakResult): SoakAnalysis {
  const judged = judgeSoak(soak.intervals, soak.snapshots, leakDesignOf(soak), soak.crash !== null);
  const reloads = analyzeReloads(soak);
  const outcome = soakOutcome(soak, judged.verdict);
  const exitReasons = [...outcome.exitReasons, ...reloadExitReasons(reloads)];
  return { ...judged, growingClasses: classesThatGrew(soak), ...outcome, exitReasons, ...(reloads ? { reloads } : {}) };
}
