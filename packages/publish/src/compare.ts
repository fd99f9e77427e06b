/**
 * The publish pass of a comparison: from compare.json (windows measured by collect, or two
 * finished sweeps) to its analysis (per level: the sequential decision, metrics, bucket and
 * function moves per successful request, a pprof pair) and its pages (index.html, comment.md,
 * one flame graph per side and level).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
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
  type StepAnalysis,
  loadLabel,
} from '@gwprof/results';
import {
  GATING_METRIC,
  INFORMATIONAL_METRICS,
  analyzeInstructionComparison,
  analyzeRunsComparison,
  comparisonOutcome,
  type InstructionProfile,
  timeMeasure,
  analyzeProfile,
  blockChanges,
  compareMetric,
  judgeRecord,
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
  // The copy lives outside the run folder (a PR comment): file names, not relative links that would break there.
  if (copies.markdown) writeFileSync(path.resolve(copies.markdown), renderCompareMarkdown(published, { fileLinks: false }));
  if (copies.json) writeJsonAtomic(path.resolve(copies.json), published);
  return published;
}

async function analyzeWindows(runDir: string, compare: CompareResult): Promise<CompareAnalysis> {
  const c = compare.config;
  if (!c.design) throw new GwprofError(`compare.json of mode "windows" has no design: it was not written by gwprof compare`);
  const label = (level: number) => loadLabel(compareLoadAt(c.load, level));
  const verdict = judgeRecord(compare);
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
  return { levels, ...comparisonOutcome(compare, verdict), windows: analyses, measure: timeMeasure(c) };
}

/** A comparison by instructions: analysis derives it from the record and the profile pair's reduced profiles. */
function analyzeInstructions(runDir: string, compare: CompareResult): CompareAnalysis {
  const verdict = judgeRecord(compare);
  const sides = compare.instructionProfile?.sides;
  const read = (file: string) => JSON.parse(readFileSync(path.join(runDir, file), 'utf8')) as InstructionProfile;
  // A folder kept without its profile pair (evidence trimmed for the repository) still has its verdict to show.
  const kept = sides && existsSync(path.join(runDir, sides.baseline.profileFile)) && existsSync(path.join(runDir, sides.candidate.profileFile));
  const profiles = sides && kept ? { baseline: read(sides.baseline.profileFile), candidate: read(sides.candidate.profileFile) } : null;
  return analyzeInstructionComparison(compare, verdict, profiles, BUILT_IN_RULES.rules);
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

/** Two finished runs, read from their folders; analysis derives the deltas. */
function analyzeRuns(compare: CompareResult): CompareAnalysis {
  if (!compare.runs) throw new GwprofError('compare.json of mode "runs" names no runs');
  return analyzeRunsComparison(compare, readRunResult(compare.runs.baseline), readRunResult(compare.runs.candidate));
}
