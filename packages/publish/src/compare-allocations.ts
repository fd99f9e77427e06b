/**
 * What each side allocated at a level: bytes per successful request of all its windows, the change
 * with its noise from the epochs, the functions whose allocation moved most (each with its own
 * noise), Node's GC per request beside it, and an allocation flame graph of each side.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadLevel, type AllocationComparison, type CompareResult, type CompareWindow } from '@gwprof/results';
import {
  allocationsByFunction,
  analyzeAllocations,
  diffAllocations,
  epochPairs,
  mergeHeapProfiles,
  moveNoise,
  type HeapProfile,
  type SideHeapProfiles,
} from '@gwprof/analysis';
import { renderFlameGraphHtml } from '@gwprof/render';
import { BUILT_IN_RULES } from './run.js';
import { sideWindows, windowCosts } from './compare-sides.js';

const TOTAL = 'all bytes';

export async function publishLevelAllocations(
  runDir: string,
  compare: CompareResult,
  level: number,
  heaps: ReadonlyMap<string, HeapProfile>,
): Promise<AllocationComparison | null> {
  const atLevel = compare.windows.filter((w) => loadLevel(w.step.load) === level && heaps.has(w.step.id));
  const baseline = sideWindows(atLevel, 'baseline', heaps);
  const candidate = sideWindows(atLevel, 'candidate', heaps);
  if (!baseline || !candidate) return null;
  const diff = diffAllocations(baseline, candidate, { rules: BUILT_IN_RULES.rules });
  const byFunction = atLevel.map((w) => windowCosts(w, allocationsByFunction(heaps.get(w.step.id)!)));
  const byBucket = atLevel.map((w) =>
    windowCosts(w, new Map(Object.entries(analyzeAllocations(heaps.get(w.step.id)!, { rules: BUILT_IN_RULES.rules, top: 0 }).bytesByBucket))),
  );
  const totals = byFunction.map((w) => ({ ...w, amountByItem: new Map([[TOTAL, [...w.amountByItem.values()].reduce((sum, bytes) => sum + bytes, 0)]]) }));
  return {
    baselineBytesPerOkRequest: diff.baseline,
    candidateBytesPerOkRequest: diff.candidate,
    deltaBytesPerOkRequest: diff.candidate - diff.baseline,
    noise: moveNoise(epochPairs(totals, TOTAL), 1),
    gcMsPerOkRequest: { baseline: gcMsPerOk(atLevel, 'baseline'), candidate: gcMsPerOk(atLevel, 'candidate') },
    buckets: diff.buckets.map((b) => ({
      bucket: b.bucket,
      baselineBytesPerOkRequest: b.baseline,
      candidateBytesPerOkRequest: b.candidate,
      deltaBytesPerOkRequest: b.delta,
      noise: moveNoise(epochPairs(byBucket, b.bucket), diff.buckets.length),
    })),
    functions: diff.functions.map((f) => ({
      functionName: f.functionName,
      url: f.url,
      line: f.line,
      bucket: f.bucket,
      baselineBytesPerOkRequest: f.baseline,
      candidateBytesPerOkRequest: f.candidate,
      deltaBytesPerOkRequest: f.delta,
      // Shown because they moved most of all: the family is every function that allocated.
      noise: moveNoise(epochPairs(byFunction, f.key), diff.functionCount),
    })),
    flamegraphs: await writeSideFlameGraphs(runDir, compare, level, { baseline, candidate }),
    frames: 'physical',
  };
}

/** Node's GC pauses per successful request over a side's windows; null when any window lacks Node's account. */
function gcMsPerOk(windows: readonly CompareWindow[], side: 'baseline' | 'candidate'): number | null {
  const mine = windows.filter((w) => w.side === side);
  if (mine.some((w) => !w.step.profile?.nodeGc)) return null;
  const ok = mine.reduce((sum, w) => sum + w.step.requests.ok, 0);
  return ok > 0 ? mine.reduce((sum, w) => sum + w.step.profile!.nodeGc!.ms, 0) / ok : null;
}

/** Each side's windows as one .heapprofile (for DevTools) and its flame graph page. */
async function writeSideFlameGraphs(
  runDir: string,
  compare: CompareResult,
  level: number,
  sides: Record<'baseline' | 'candidate', SideHeapProfiles>,
): Promise<{ baseline: string; candidate: string }> {
  const tag = `${compare.config.load.kind === 'closed' ? 'c' : 'r'}${level}`;
  const pages = { baseline: `compare-${tag}-baseline.alloc.html`, candidate: `compare-${tag}-candidate.alloc.html` };
  for (const side of ['baseline', 'candidate'] as const) {
    const file = `compare-${tag}-${side}.heapprofile`;
    const merged = mergeHeapProfiles(sides[side].profiles);
    await writeFile(path.join(runDir, file), JSON.stringify(merged), 'utf8');
    const title = `${side} · ${tag} · ${compare.runId} (allocations of all windows, ${sides[side].okRequests} successful requests)`;
    await writeFile(path.join(runDir, pages[side]), renderFlameGraphHtml(merged, { title, fileName: file }), 'utf8');
  }
  return pages;
}
