import type { RunResult, StepAnalysis, StepRecord } from '@gwprof/results';

/** What the publish pass derived for a step; null before publishing or when it had no profile. */
export function stepAnalysisOf(run: Pick<RunResult, 'analysis'>, step: StepRecord): StepAnalysis | null {
  return run.analysis?.steps.find((entry) => entry.stepId === step.id) ?? null;
}
