/**
 * Every distinct stack of one side's profiles (all its measured windows), with its bucket and the
 * time spent with it as the leaf: what a pprof profile or a merged flame graph of the side draws.
 */
import { classifyNodes } from './buckets.js';
import { frameKey, isIdleFrame, isRootFrame, selfWeights, type CpuProfile, type CpuProfileCallFrame, type CpuProfileNode } from './cpuprofile.js';
import { median } from '../descriptive.js';
import { DEFAULT_BUCKET_RULES, type BucketRule } from './rules.js';

export interface MergedStack {
  /** Leaf first, without V8's `(root)`; a sample with nothing under `(root)` keeps that one frame. */
  frames: CpuProfileCallFrame[];
  bucket: string;
  /** Self time of the leaf with this stack over all profiles, µs. */
  us: number;
}

export interface MergedStacks {
  /** `(idle)` is left out: it is waiting, not work. */
  stacks: MergedStack[];
  /** Sum of the stacks' time: the side's non-idle CPU of its main thread, µs. */
  busyUs: number;
  /** The median gap between samples over all profiles, µs (0 without samples). */
  intervalUs: number;
}

/** Identical stacks with the same bucket, from any of the profiles, are one entry. */
export function mergeStacks(profiles: readonly CpuProfile[], rules: readonly BucketRule[] = DEFAULT_BUCKET_RULES): MergedStacks {
  const byKey = new Map<string, MergedStack>();
  let busyUs = 0;
  for (const profile of profiles) {
    const nodeBucket = classifyNodes(profile, rules);
    const stacks = nodeStacks(profile.nodes);
    for (const [id, us] of selfWeights(profile).selfUs) {
      const stack = stacks.get(id);
      if (!stack || us === 0) continue;
      const bucket = nodeBucket.get(id) ?? 'other';
      const key = `${stack.keys.join('\n')}|${bucket}`;
      const entry = byKey.get(key) ?? { frames: stack.frames, bucket, us: 0 };
      entry.us += us;
      byKey.set(key, entry);
      busyUs += us;
    }
  }
  const deltas = profiles.flatMap((profile) => profile.timeDeltas ?? []);
  return { stacks: [...byKey.values()], busyUs, intervalUs: deltas.length === 0 ? 0 : median(deltas) };
}

interface NodeStack {
  frames: CpuProfileCallFrame[];
  keys: string[];
}

/**
 * Each node's stack, leaf first, without `(root)`; none for `(idle)`. Parents before children
 * (breadth-first), iteratively: real stacks can be very deep.
 */
function nodeStacks(nodes: readonly CpuProfileNode[]): Map<number, NodeStack> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const hasParent = new Set(nodes.flatMap((node) => node.children ?? []));
  const stacks = new Map<number, NodeStack>();
  const empty: NodeStack = { frames: [], keys: [] };
  const queue = nodes.filter((node) => !hasParent.has(node.id)).map((node) => ({ node, above: empty }));
  for (let head = 0; head < queue.length; head++) {
    const { node, above } = queue[head]!;
    if (stacks.has(node.id)) continue;
    const frame = node.callFrame;
    const stack = isRootFrame(frame) ? above : { frames: [frame, ...above.frames], keys: [frameKey(frame), ...above.keys] };
    // `(root)` itself only shows where a sample has nothing else (V8 rarely records that).
    if (!isIdleFrame(frame)) stacks.set(node.id, stack.frames.length > 0 ? stack : { frames: [frame], keys: [frameKey(frame)] });
    for (const child of node.children ?? []) queue.push({ node: byId.get(child)!, above: stack });
  }
  return stacks;
}
