/**
 * The publish pass of a comparison: from compare.json (windows measured by collect, or two
 * finished sweeps) to its analysis (per level: the sequential decision, metrics, bucket and
 * function moves per successful request, a pprof pair) and its pages (index.html, comment.md,
 * one flame graph per side and level).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  EXIT,
  GwprofError,
  compareLoadAt,
  readCompareResult,
  readRunResult,
  writeCompareResult,
  writeJsonAtomic,
  type CompareAnalysis,
  type CompareLevel,
  type CompareResult,
  type PublishedCompare,
  type RunResult,
  type StepAnalysis,
  loadLabel,
  loadLevel,
} from '@gwprof/results';
import {
  GATING_METRIC,
  INFORMATIONAL_METRICS,
  analyzeInstructionComparison,
  comparisonOutcome,
  type InstructionProfile,
  timeMeasure,
  analyzeProfile,
  blockChanges,
  compareMetric,
  deltaMetric,
  judgeComparison,
  type CpuProfile,
  type HeapProfile,
} from '@gwprof/analysis';
import { renderCompareMarkdown, renderCompareReportHtml } from '@gwprof/render';
import { deriveAllocationSummary, deriveStepAnalysis, failed, readHeapProfile, readStepProfile } from './step-profile.js';
import { BUILT_IN_RULES } from './run.js';
import { publishLevelProfiles } from './compare-profiles.js';
import { publishLevelAllocations } from './compare-allocations.js';

export interface CompareCopies {
  /** Also write the PR comment here. */
  markdown?: string;
  /** Also write compare.json here. */
  json?: string;
}

export async function publishCompare(runDir: string, copies: CompareCopies = {}): Promise<PublishedCompare> {
  const compare = readCompareResult(runDir);
  const analysis =
    compare.mode === 'runs'
      ? analyzeRuns(compare)
      : compare.config.design?.measure === 'instructions'
        ? analyzeInstructions(runDir, compare)
        : await analyzeWindows(runDir, compare);
  const published: PublishedCompare = { ...compare, analysis };
  writeCompareResult(runDir, published);
  writeFileSync(path.join(runDir, 'index.html'), renderCompareReportHtml(published));
  writeFileSync(path.join(runDir, 'comment.md'), renderCompareMarkdown(published));
  if (copies.markdown) writeFileSync(path.resolve(copies.markdown), renderCompareMarkdown(published));
  if (copies.json) writeJsonAtomic(path.resolve(copies.json), published);
  return published;
}

async function analyzeWindows(runDir: string, compare: CompareResult): Promise<CompareAnalysis> {
  const c = compare.config;
  if (!c.design) throw new GwprofError(`compare.json of mode "windows" has no design: it was not written by gwprof compare`);
  const label = (level: number) => loadLabel(compareLoadAt(c.load, level));
  const { threshold, alpha, minEpochs, spendingPower } = c.design;
  // A run that ended before its plan was fixed never reached a look.
  const maxEpochs = compare.plan?.maxEpochs ?? minEpochs;
  const verdict = judgeComparison(compare.windows, { levels: c.levels, label, threshold, alpha, minEpochs, maxEpochs, spendingPower });
  const { analyses, profiles, heaps } = await readWindowProfiles(runDir, compare);
  const byStep = new Map(analyses.map((a) => [a.stepId, a]));
  const levels: CompareLevel[] = [];
  for (const level of c.levels) {
    const moves = await publishLevelProfiles(runDir, compare, level, { profiles, analyses: byStep });
    levels.push({
      level,
      label: label(level),
      decision: verdict.decisions.get(level) ?? null,
      gating: compareMetric(compare.windows, level, GATING_METRIC),
      blocks: blockChanges(compare.windows, level),
      metrics: INFORMATIONAL_METRICS.map((spec) => compareMetric(compare.windows, level, spec)),
      ...moves,
      allocation: await publishLevelAllocations(runDir, compare, level, heaps),
    });
  }
  return { levels, ...comparisonOutcome(compare, verdict), windows: analyses, measure: timeMeasure() };
}

/** A comparison by instructions: analysis derives it from the record and the profile pair's reduced profiles. */
function analyzeInstructions(runDir: string, compare: CompareResult): CompareAnalysis {
  const sides = compare.instructionProfile?.sides;
  const read = (file: string) => JSON.parse(readFileSync(path.join(runDir, file), 'utf8')) as InstructionProfile;
  const profiles = sides ? { baseline: read(sides.baseline.profileFile), candidate: read(sides.candidate.profileFile) } : null;
  return analyzeInstructionComparison(compare, profiles, BUILT_IN_RULES.rules);
}

/** Every window's profiles, parsed once: their analysis for the record, the profiles for the level's merges. */
async function readWindowProfiles(
  runDir: string,
  compare: CompareResult,
): Promise<{ analyses: StepAnalysis[]; profiles: Map<string, CpuProfile>; heaps: Map<string, HeapProfile> }> {
  const analyses: StepAnalysis[] = [];
  const profiles = new Map<string, CpuProfile>();
  const heaps = new Map<string, HeapProfile>();
  for (const window of compare.windows) {
    const read = await readStepProfile(runDir, window.step);
    if (!read) continue;
    if ('error' in read) {
      analyses.push(failed(window.step, read.error));
      continue;
    }
    profiles.set(window.step.id, read.profile);
    const analysis = deriveStepAnalysis(window.step, analyzeProfile(read.profile, { rules: BUILT_IN_RULES.rules }), null);
    const heap = await readHeapProfile(runDir, window.step);
    if (heap && 'error' in heap) analysis.warnings.push(`no allocation analysis: ${heap.error}`);
    if (heap && 'profile' in heap) {
      heaps.set(window.step.id, heap.profile);
      analysis.allocation = deriveAllocationSummary(window.step, heap.profile, BUILT_IN_RULES.rules, null);
    }
    analyses.push(analysis);
  }
  return { analyses, profiles, heaps };
}

function analyzeRuns(compare: CompareResult): CompareAnalysis {
  if (!compare.runs) throw new GwprofError('compare.json of mode "runs" names no runs');
  const baseline = readRunResult(compare.runs.baseline);
  const candidate = readRunResult(compare.runs.candidate);
  const levels = compare.config.levels.map((level): CompareLevel => {
    const b = baseline.steps.find((s) => loadLevel(s.load) === level)!;
    const c = candidate.steps.find((s) => loadLevel(s.load) === level)!;
    return {
      level,
      label: loadLabel(compareLoadAt(compare.config.load, level)),
      decision: null,
      gating: deltaMetric(b, c, GATING_METRIC),
      blocks: [],
      metrics: INFORMATIONAL_METRICS.map((spec) => deltaMetric(b, c, spec)),
      buckets: runBucketDeltas(baseline, candidate, b.id, c.id),
      functions: [],
      pprof: null,
      allocation: runAllocations(baseline, candidate, b.id, c.id),
    };
  });
  const shared = new Set(compare.config.levels);
  const failedSteps = [...baseline.steps, ...candidate.steps].filter((s) => s.status === 'failed' && shared.has(loadLevel(s.load)));
  return {
    levels,
    verdict: failedSteps.length > 0 ? 'invalid' : 'deltas only',
    verdictReasons:
      failedSteps.length > 0
        ? failedSteps.map((s) => `a step at ${loadLabel(s.load)} failed: ${s.failures[0] ?? ''}`)
        : ['one run per side: deltas without intervals; measure with --baseline/--candidate for a verdict'],
    exitCode: failedSteps.length > 0 ? EXIT.invalid : EXIT.ok,
    windows: [],
    measure: timeMeasure(),
  };
}

/** Allocation per request of two finished runs' steps, from their own analyses (deltas only); null when either has none. */
function runAllocations(baseline: RunResult, candidate: RunResult, baselineStep: string, candidateStep: string): CompareLevel['allocation'] {
  const of = (run: RunResult, id: string) => run.analysis?.steps.find((a) => a.stepId === id)?.allocation ?? null;
  const b = of(baseline, baselineStep);
  const c = of(candidate, candidateStep);
  if (b?.bytesPerOkRequest == null || c?.bytesPerOkRequest == null) return null;
  return {
    baselineBytesPerOkRequest: b.bytesPerOkRequest,
    candidateBytesPerOkRequest: c.bytesPerOkRequest,
    deltaBytesPerOkRequest: c.bytesPerOkRequest - b.bytesPerOkRequest,
    noise: null,
    gcMsPerOkRequest: { baseline: b.gcMsPerOkRequest, candidate: c.gcMsPerOkRequest },
    buckets: [...new Set([...Object.keys(b.bucketBytesPerOkRequest ?? {}), ...Object.keys(c.bucketBytesPerOkRequest ?? {})])]
      .map((bucket) => {
        const [from, to] = [b.bucketBytesPerOkRequest?.[bucket] ?? 0, c.bucketBytesPerOkRequest?.[bucket] ?? 0];
        return { bucket, baselineBytesPerOkRequest: from, candidateBytesPerOkRequest: to, deltaBytesPerOkRequest: to - from, noise: null };
      })
      .filter((row) => row.baselineBytesPerOkRequest > 0 || row.candidateBytesPerOkRequest > 0)
      .sort((x, y) => Math.abs(y.deltaBytesPerOkRequest) - Math.abs(x.deltaBytesPerOkRequest)),
    functions: [],
    flamegraphs: null,
  };
}

/** Bucket costs of two finished runs' steps, from their own analyses; [] when either has none. */
function runBucketDeltas(baseline: RunResult, candidate: RunResult, baselineStep: string, candidateStep: string): CompareLevel['buckets'] {
  const costs = (run: RunResult, id: string) => run.analysis?.steps.find((a) => a.stepId === id)?.bucketMsPerOkRequest ?? null;
  const b = costs(baseline, baselineStep);
  const c = costs(candidate, candidateStep);
  if (!b || !c) return [];
  return [...new Set([...Object.keys(b), ...Object.keys(c)])]
    .map((bucket) => ({
      bucket,
      baselineMsPerOkRequest: b[bucket] ?? 0,
      candidateMsPerOkRequest: c[bucket] ?? 0,
      deltaMsPerOkRequest: (c[bucket] ?? 0) - (b[bucket] ?? 0),
      noise: null,
    }))
    .sort((x, y) => Math.abs(y.deltaMsPerOkRequest) - Math.abs(x.deltaMsPerOkRequest));
}
