/**
 * The publish pass of a comparison: from compare.json (trials measured by collect, or two finished
 * sweeps) to its analysis (levels, verdict, exit code, each trial's profile analysis) and pages
 * (index.html, comment.md, flame graphs).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  GwprofError,
  RESULTS_SCHEMA_VERSION,
  readCompareResult,
  readRunResult,
  writeCompareResult,
  writeJsonAtomic,
  type CompareAnalysis,
  type CompareResult,
  type PublishedCompare,
  type RunResult,
  type StepAnalysis,
} from '@gwprof/results';
import { diffRuns, judgeTrials, type BucketLookup } from '@gwprof/analysis';
import { renderCompareMarkdown, renderCompareReportHtml } from '@gwprof/render';
import { publishStepProfiles } from './step-profile.js';
import { BUILT_IN_RULES } from './run.js';

export interface CompareCopies {
  /** Also write the PR comment here. */
  markdown?: string;
  /** Also write compare.json here. */
  json?: string;
}

export async function publishCompare(runDir: string, copies: CompareCopies = {}): Promise<PublishedCompare> {
  const compare = readCompareResult(runDir);
  const analysis = compare.mode === 'runs' ? analyzeRuns(compare) : await analyzeTrials(runDir, compare);
  const published: PublishedCompare = { ...compare, analysis };
  writeCompareResult(runDir, published);
  writeFileSync(path.join(runDir, 'index.html'), renderCompareReportHtml(published));
  writeFileSync(path.join(runDir, 'comment.md'), renderCompareMarkdown(published));
  if (copies.markdown) writeFileSync(path.resolve(copies.markdown), renderCompareMarkdown(published));
  if (copies.json) writeJsonAtomic(path.resolve(copies.json), published);
  return published;
}

async function analyzeTrials(runDir: string, compare: CompareResult): Promise<CompareAnalysis> {
  const trials = await publishStepProfiles(
    runDir,
    compare.trials.map((t) => t.step),
    (step) => `${step.id} · ${compare.runId}`,
    BUILT_IN_RULES.rules,
  );
  const judged = judgeTrials(compare.trials, { threshold: compare.config.threshold, concurrency: compare.config.concurrency, buckets: lookup(trials) });
  const invalid = compare.state !== 'complete' || judged.verdict === 'invalid';
  return {
    levels: judged.levels,
    verdict: invalid ? 'invalid' : judged.verdict,
    verdictReasons: invalid && judged.verdict !== 'invalid' ? [compare.error ?? `comparison ${compare.state}`] : judged.reasons,
    exitCode: invalid ? 2 : judged.exitCode,
    trials,
  };
}

function analyzeRuns(compare: CompareResult): CompareAnalysis {
  if (!compare.runs) throw new GwprofError('compare.json of mode "runs" names no runs');
  const baseline = readRunResult(compare.runs.baseline);
  const candidate = readRunResult(compare.runs.candidate);
  const levels = diffRuns(
    { steps: baseline.steps, buckets: lookup(baseline.analysis?.steps ?? []) },
    { steps: candidate.steps, buckets: lookup(candidate.analysis?.steps ?? []) },
  );
  const shared = new Set(levels.map((l) => l.concurrency));
  const failed = [...baseline.steps, ...candidate.steps].filter((s) => s.status === 'failed' && shared.has(s.concurrency));
  return {
    levels,
    verdict: failed.length > 0 ? 'invalid' : 'deltas only',
    verdictReasons:
      failed.length > 0
        ? failed.map((s) => `a step at concurrency ${s.concurrency} failed: ${s.failures[0] ?? ''}`)
        : ['one run per side: deltas without confidence intervals; measure with --baseline/--candidate for a verdict'],
    exitCode: failed.length > 0 ? 2 : 0,
    trials: [],
  };
}

function lookup(analyses: readonly StepAnalysis[]): BucketLookup {
  const byId = new Map(analyses.map((a) => [a.stepId, a.buckets]));
  return (stepId) => byId.get(stepId) ?? null;
}

/**
 * Records a comparison of two finished sweeps (nothing is measured: their tables side by side)
 * in a new folder, then publishes it.
 */
export async function compareFinishedRuns(options: {
  baselineDir: string;
  candidateDir: string;
  runDir: string;
  runId: string;
  threshold: number;
  commandLine: string[];
  copies?: CompareCopies;
}): Promise<PublishedCompare> {
  const baseline = readRunResult(options.baselineDir);
  const candidate = readRunResult(options.candidateDir);
  const shared = baseline.steps.filter((b) => candidate.steps.some((c) => c.concurrency === b.concurrency));
  if (shared.length === 0) throw new GwprofError('the two runs share no concurrency level: nothing to compare');
  const record = runsRecord(options, baseline, candidate, shared.map((s) => s.concurrency));
  mkdirSync(options.runDir, { recursive: true });
  writeCompareResult(options.runDir, record);
  return publishCompare(options.runDir, options.copies);
}

function runsRecord(
  options: { baselineDir: string; candidateDir: string; runId: string; threshold: number; commandLine: string[] },
  baseline: RunResult,
  candidate: RunResult,
  concurrency: number[],
): CompareResult {
  const now = new Date().toISOString();
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    tool: baseline.tool,
    kind: 'compare',
    runId: options.runId,
    startedAt: now,
    finishedAt: now,
    state: 'complete',
    error: null,
    mode: 'runs',
    config: {
      baseline: `${baseline.config.gateway} (${options.baselineDir})`,
      candidate: `${candidate.config.gateway} (${options.candidateDir})`,
      baselineEnv: baseline.config.gatewayEnv,
      candidateEnv: candidate.config.gatewayEnv,
      concurrency,
      threshold: options.threshold,
      minTrials: 1,
      maxTrials: 1,
      budgetMinutes: null,
      durationSec: baseline.config.durationSec,
      warmupSec: baseline.config.warmupSec,
      query: baseline.config.query,
    },
    environment: { ...baseline.environment, commandLine: options.commandLine },
    runs: { baseline: path.resolve(options.baselineDir), candidate: path.resolve(options.candidateDir) },
    trials: [],
    stopReason: 'compared finished runs',
    analysis: null,
  };
}
