import type { TopFunction } from '@gwprof/results';
import type { CpuProfile } from './cpuprofile.js';

interface FunctionTally {
  functionName: string;
  url: string;
  line: number;
  self: number;
  perBucket: Map<string, number>;
}

/**
 * The functions with the most self samples (samples where they were the leaf), pseudo-frames
 * included. A function appears in many nodes (one per distinct caller chain); they are summed.
 * `line` is 1-based like editors show it (0 when V8 gives none). `bucket` is where most of the
 * function's self samples went, since a shared helper can sit under different phases.
 */
export function topFunctions(
  profile: CpuProfile,
  selfSamples: ReadonlyMap<number, number>,
  nodeBucket: ReadonlyMap<number, string>,
  totalSamples: number,
  limit: number,
): TopFunction[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const tallies = new Map<string, FunctionTally>();
  for (const [id, n] of selfSamples) {
    const { callFrame } = byId.get(id)!;
    const key = `${callFrame.functionName}\0${callFrame.url}\0${callFrame.lineNumber}\0${callFrame.columnNumber}`;
    let tally = tallies.get(key);
    if (!tally) {
      tally = {
        functionName: callFrame.functionName || '(anonymous)',
        url: callFrame.url,
        line: Math.max(0, callFrame.lineNumber + 1),
        self: 0,
        perBucket: new Map(),
      };
      tallies.set(key, tally);
    }
    tally.self += n;
    const bucket = nodeBucket.get(id) ?? 'other';
    tally.perBucket.set(bucket, (tally.perBucket.get(bucket) ?? 0) + n);
  }
  return [...tallies.values()]
    .sort((a, b) => b.self - a.self || a.functionName.localeCompare(b.functionName))
    .slice(0, limit)
    .map((tally) => ({
      functionName: tally.functionName,
      url: tally.url,
      line: tally.line,
      selfShare: tally.self / totalSamples,
      bucket: [...tally.perBucket].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0],
    }));
}
