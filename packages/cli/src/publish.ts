/**
 * Analysis and rendering of a run folder from its results.json and profiles: CPU buckets,
 * capacity, flame graphs, summary.md and index.html. Used after every sweep step, at the end
 * of a sweep, and by `gwprof report` to re-render a finished run without running anything.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeRunResult, type RunResult, type StepResult } from '@gwprof/results';
import { analyzeCapacity, analyzeProfile, readCpuProfile, type BucketRule } from '@gwprof/analysis';
import { renderReportHtml, renderSummaryMarkdown, writeFlameGraph } from '@gwprof/render';

export async function publishStepProfile(step: StepResult, runDir: string, run: RunResult, rules?: BucketRule[]): Promise<void> {
  if (!step.profile) return;
  const profilePath = path.join(runDir, step.profile.cpuprofile);
  if (!existsSync(profilePath)) return;
  const analysis = analyzeProfile(await readCpuProfile(profilePath), rules ? { rules } : {});
  step.profile.samples = analysis.samples;
  step.profile.samplingIntervalUs = analysis.samplingIntervalUs;
  if (analysis.samples > 0) {
    step.buckets = analysis.buckets;
    step.topFunctions = analysis.topFunctions;
  } else {
    delete step.buckets;
    delete step.topFunctions;
  }
  const flamegraph = step.profile.cpuprofile.replace(/\.cpuprofile$/, '.flame.html');
  await writeFlameGraph(profilePath, path.join(runDir, flamegraph), `${run.config.gateway} · concurrency ${step.concurrency} · ${run.runId}`);
  step.profile.flamegraph = flamegraph;
}

/** Writes capacity analysis, results.json, summary.md and index.html. */
export function publishRun(run: RunResult, runDir: string): { summary: string; report: string } {
  run.capacity = analyzeCapacity(run.steps, { minSuccess: run.config.minSuccess, timeoutSec: run.config.timeoutSec });
  writeRunResult(runDir, run);
  const summary = path.join(runDir, 'summary.md');
  const report = path.join(runDir, 'index.html');
  writeFileSync(summary, renderSummaryMarkdown(run));
  writeFileSync(report, renderReportHtml(run));
  return { summary, report };
}
