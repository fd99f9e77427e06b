/**
 * Where a level got slower: every window's profile of each side merged, per successful request —
 * the buckets and functions that moved most, each with its own noise from the epochs (so a move
 * within noise is not shown as one), a pprof profile per side for `pprof -diff_base`, and a flame
 * graph page per side drawn from that same pprof profile.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadLevel, type CompareLevel, type CompareResult, type StepAnalysis } from '@gwprof/results';
import { diffFunctions, epochPairs, mergeStacks, moveNoise, selfMsByFunction, type CpuProfile, type SideProfiles, type WindowCosts } from '@gwprof/analysis';
import { encodePprofProfile, pprofDiffCommand, renderFlameGraphHtml } from '@gwprof/render';
import { sideWindows, windowCosts } from './compare-sides.js';

type Moves = Pick<CompareLevel, 'buckets' | 'functions' | 'pprof'>;

/** Every window's profile and its analysis, keyed by the window's step id. */
export interface WindowProfiles {
  profiles: ReadonlyMap<string, CpuProfile>;
  analyses: ReadonlyMap<string, StepAnalysis>;
}

export async function publishLevelProfiles(runDir: string, compare: CompareResult, level: number, windows: WindowProfiles): Promise<Moves> {
  const atLevel = compare.windows.filter((w) => loadLevel(w.step.load) === level && windows.profiles.has(w.step.id));
  const baseline = sideWindows(atLevel, 'baseline', windows.profiles);
  const candidate = sideWindows(atLevel, 'candidate', windows.profiles);
  if (!baseline || !candidate) return { buckets: [], functions: [], pprof: null };
  const diff = diffFunctions(baseline, candidate);
  const bucketCosts = atLevel.map((w) => windowCosts(w, bucketMs(windows.analyses.get(w.step.id), w.step.requests.ok)));
  const functionCosts = atLevel.map((w) => windowCosts(w, selfMsByFunction(windows.profiles.get(w.step.id)!)));
  const noiseOf = (costs: WindowCosts[], item: string, family: number) => moveNoise(epochPairs(costs, item), family);
  return {
    buckets: diff.buckets.map((b) => ({
      bucket: b.bucket,
      baselineMsPerOkRequest: b.baseline,
      candidateMsPerOkRequest: b.candidate,
      deltaMsPerOkRequest: b.delta,
      noise: noiseOf(bucketCosts, b.bucket, diff.buckets.length),
    })),
    functions: diff.functions.map((f) => ({
      functionName: f.functionName,
      url: f.url,
      line: f.line,
      bucket: f.bucket,
      baselineMsPerOkRequest: f.self.baseline,
      candidateMsPerOkRequest: f.self.candidate,
      deltaMsPerOkRequest: f.self.delta,
      // The functions shown were picked as the largest moves of all of them: the family is every function seen.
      noise: noiseOf(functionCosts, f.key, diff.functionCount),
    })),
    pprof: await writePprofPair(runDir, compare, level, { baseline, candidate }),
  };
}

/** A window's bucket costs, ms over the window, from its analysis. */
function bucketMs(analysis: StepAnalysis | undefined, okRequests: number): Map<string, number> {
  return new Map(Object.entries(analysis?.bucketMsPerOkRequest ?? {}).map(([bucket, ms]) => [bucket, ms * okRequests]));
}

/** A pprof profile per side, CPU per 1,000 successful requests, and a flame graph page of each. */
async function writePprofPair(
  runDir: string,
  compare: CompareResult,
  level: number,
  sides: Record<'baseline' | 'candidate', SideProfiles>,
): Promise<CompareLevel['pprof']> {
  const tag = `${compare.config.load.kind === 'closed' ? 'c' : 'r'}${level}`;
  const files = { baseline: `compare-${tag}-baseline.pb.gz`, candidate: `compare-${tag}-candidate.pb.gz` };
  const flamegraphs = { baseline: `compare-${tag}-baseline.flame.html`, candidate: `compare-${tag}-candidate.flame.html` };
  for (const side of ['baseline', 'candidate'] as const) {
    const pprofSide = { merged: mergeStacks(sides[side].profiles), profiles: sides[side].profiles.length, okRequests: sides[side].okRequests };
    // A fixed timestamp keeps the file the same whenever it is re-published.
    const bytes = encodePprofProfile(pprofSide, {
      comments: [`side: ${side}`, `gwprof compare ${compare.runId}, ${tag}`],
      timeNanos: Date.parse(compare.startedAt) * 1e6,
    });
    await writeFile(path.join(runDir, files[side]), bytes);
    const title = `${side} · ${tag} · ${compare.runId} (all windows, CPU per 1,000 successful requests)`;
    await writeFile(path.join(runDir, flamegraphs[side]), renderFlameGraphHtml(bytes, { title, fileName: files[side] }), 'utf8');
  }
  return { ...files, command: pprofDiffCommand(files), flamegraphs };
}
