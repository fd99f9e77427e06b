/**
 * Where a level got slower: every window's profile of each side merged, per successful request —
 * the buckets and functions that moved most, a pprof profile per side for `pprof -diff_base`, and a
 * flame graph page per side drawn from that same pprof profile.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadLevel, type CompareLevel, type CompareResult, type FunctionMove } from '@gwprof/results';
import { diffFunctions, mergeStacks, type CpuProfile, type SideProfiles } from '@gwprof/analysis';
import { encodePprofProfile, pprofDiffCommand, renderFlameGraphHtml } from '@gwprof/render';

type Moves = Pick<CompareLevel, 'buckets' | 'functions' | 'pprof'>;

export async function publishLevelProfiles(runDir: string, compare: CompareResult, level: number, profiles: ReadonlyMap<string, CpuProfile>): Promise<Moves> {
  const baseline = sideProfiles(compare, level, 'baseline', profiles);
  const candidate = sideProfiles(compare, level, 'candidate', profiles);
  if (!baseline || !candidate) return { buckets: [], functions: [], pprof: null };
  const sides = { baseline, candidate };
  const diff = diffFunctions(sides.baseline, sides.candidate);
  const tag = `${compare.config.load.kind === 'closed' ? 'c' : 'r'}${level}`;
  const files = { baseline: `compare-${tag}-baseline.pb.gz`, candidate: `compare-${tag}-candidate.pb.gz` };
  const flamegraphs = { baseline: `compare-${tag}-baseline.flame.html`, candidate: `compare-${tag}-candidate.flame.html` };
  for (const side of ['baseline', 'candidate'] as const) {
    // A fixed timestamp keeps the file the same whenever it is re-published.
    const pprofSide = { merged: mergeStacks(sides[side].profiles), profiles: sides[side].profiles.length, okRequests: sides[side].okRequests };
    const bytes = encodePprofProfile(pprofSide, { comments: [`side: ${side}`, `gwprof compare ${compare.runId}, ${tag}`], timeNanos: Date.parse(compare.startedAt) * 1e6 });
    await writeFile(path.join(runDir, files[side]), bytes);
    const title = `${side} · ${tag} · ${compare.runId} (all windows, CPU per 1,000 successful requests)`;
    await writeFile(path.join(runDir, flamegraphs[side]), renderFlameGraphHtml(bytes, { title, fileName: files[side] }), 'utf8');
  }
  return {
    buckets: diff.buckets.map((b) => ({ bucket: b.bucket, baselineMsPerOkRequest: b.baseline, candidateMsPerOkRequest: b.candidate, deltaMsPerOkRequest: b.delta })),
    functions: diff.functions.map(
      (f): FunctionMove => ({
        functionName: f.functionName,
        url: f.url,
        line: f.line,
        bucket: f.bucket,
        baselineMsPerOkRequest: f.self.baseline,
        candidateMsPerOkRequest: f.self.candidate,
        deltaMsPerOkRequest: f.self.delta,
      }),
    ),
    pprof: { ...files, command: pprofDiffCommand(files), flamegraphs },
  };
}

/** A side's window profiles at a level and the successful requests in those windows; null without any. */
function sideProfiles(compare: CompareResult, level: number, side: 'baseline' | 'candidate', profiles: ReadonlyMap<string, CpuProfile>): SideProfiles | null {
  const windows = compare.windows.filter((w) => w.side === side && loadLevel(w.step.load) === level && profiles.has(w.step.id));
  const okRequests = windows.reduce((sum, w) => sum + w.step.requests.ok, 0);
  if (windows.length === 0 || okRequests === 0) return null;
  return { profiles: windows.map((w) => profiles.get(w.step.id)!), okRequests };
}
