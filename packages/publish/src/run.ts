/**
 * The publish pass of a sweep: from the run folder's results.json and profiles to everything
 * derived (buckets, top functions, capacity: results.json's `analysis`) and every page
 * (flame graphs, summary.md, index.html). The live run and `gwprof report` both call it, so
 * re-publishing a finished run reproduces what the live run wrote.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadLabel, readRunResult, writeRunResult, type RunResult } from '@gwprof/results';
import { DEFAULT_BUCKET_RULES, analyzeCapacity, analyzeRateCapacity, sweepOutcome, traceSplits } from '@gwprof/analysis';
import { renderReportHtml, renderSummaryMarkdown } from '@gwprof/render';
import { publishStepProfiles, type RulesChoice } from './step-profile.js';

export const BUILT_IN_RULES: RulesChoice = { rules: DEFAULT_BUCKET_RULES, label: 'built-in' };

export interface PublishedRun {
  run: RunResult;
  summary: string;
  report: string;
}

export async function publishRun(runDir: string, rules: RulesChoice = BUILT_IN_RULES): Promise<PublishedRun> {
  const run = readRunResult(runDir);
  const steps = await publishStepProfiles(runDir, run.steps, (step) => `${run.config.gateway} · ${loadLabel(step.load)} · ${run.runId}`, rules.rules);
  const rateSweep = run.config.rates.length > 0 || run.config.autoRate;
  run.analysis = {
    ...sweepOutcome(run),
    rules: rules.label,
    steps,
    capacity: rateSweep ? null : analyzeCapacity(run.steps, { minSuccess: run.config.minSuccess, timeoutSec: run.config.timeoutSec }),
    rateCapacity: rateSweep ? analyzeRateCapacity(run.steps, run.config.slo) : null,
    ...(run.steps.some((step) => step.traces) ? { traceSplits: traceSplits(run.steps) } : {}),
  };
  writeRunResult(runDir, run);
  const summary = path.join(runDir, 'summary.md');
  const report = path.join(runDir, 'index.html');
  await writeFile(summary, renderSummaryMarkdown(run));
  await writeFile(report, renderReportHtml(run));
  return { run, summary, report };
}
