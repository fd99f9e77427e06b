import type { TopFunction } from '@gwprof/results';
import { selfWeights, type CpuProfile, type CpuProfileCallFrame } from './cpuprofile.js';
import { median } from '../descriptive.js';
import { DEFAULT_BUCKET_RULES, type BucketRule } from './rules.js';
import { frameKind } from './frame-kind.js';
import { TOP_FUNCTIONS, tallyFunctions, topFunctions, topFunctionsByBucket, type BucketFunction } from './top-functions.js';

export { BUCKET_ORDER } from './bucket-catalog.js';
import { BUCKET_ORDER } from './bucket-catalog.js';

const UNMATCHED = 'other';
/** Where a frame run from the event loop's queues goes when nothing places it (see `attributeNodes`). */
export const UNPLACED = 'unplaced';

export interface ProfileAnalysis {
  samples: number;
  samplingIntervalUs: number;
  /** Bucket → samples; {} when the profile has no samples. */
  counts: Record<string, number>;
  /**
   * Bucket → share of the profile's time, summing to 1; {} when the profile has no samples. Each
   * sample weighs the time it stands for (`sampleDurationsUs`), so shares do not depend on the
   * sampling interval the way sample counts do.
   */
  buckets: Record<string, number>;
  topFunctions: TopFunction[];
  /** Milliseconds the samples stand for (sum of their durations), idle included. */
  durationMs: number;
  /**
   * Bucket → milliseconds, idle included, in display order; {} when the profile has no samples.
   * Sampled wall time of the profiled (main) thread: it includes moments the thread was runnable
   * but off the core, and GC helper threads' work while it waits in a pause.
   */
  msByBucket: Record<string, number>;
  /** The main thread's non-idle milliseconds: `durationMs` minus idle (the sum of `msByBucket` without idle). */
  busyMs: number;
  /** Bucket → the functions with the most self time in it; {} when the profile has no samples. */
  bucketFunctions: Record<string, BucketFunction[]>;
}

export interface AnalyzeProfileOptions {
  rules?: readonly BucketRule[];
  /** How many top self-time functions to return (default TOP_FUNCTIONS). */
  top?: number;
  /** How many functions to list per bucket in `bucketFunctions` (default 10). */
  topPerBucket?: number;
}

/** Attributes every sample to one bucket, weighs it by its duration and ranks functions by self time. */
export function analyzeProfile(profile: CpuProfile, options: AnalyzeProfileOptions = {}): ProfileAnalysis {
  const rules = options.rules ?? DEFAULT_BUCKET_RULES;
  const { selfCount, selfUs } = selfWeights(profile);
  const total = [...selfCount.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) {
    return { samples: 0, samplingIntervalUs: 0, counts: {}, buckets: {}, topFunctions: [], durationMs: 0, msByBucket: {}, busyMs: 0, bucketFunctions: {} };
  }

  const nodeBucket = classifyNodes(profile, rules);
  const names = orderBucketNames(rules.map((rule) => rule.bucket));
  const counts = sumPerBucket(selfCount, nodeBucket, names);
  const bucketUs = sumPerBucket(selfUs, nodeBucket, names);
  const totalUs = Object.values(bucketUs).reduce((sum, us) => sum + us, 0);
  // Shares and rankings weigh samples by time; a one-instant profile (all durations 0) counts them.
  const byTime = totalUs > 0;
  const tallies = tallyFunctions(profile, byTime ? selfUs : selfCount, nodeBucket);
  return {
    samples: total,
    samplingIntervalUs: samplingIntervalUs(profile, total),
    counts,
    buckets: bucketShares(byTime ? bucketUs : counts),
    topFunctions: topFunctions(tallies, byTime ? totalUs : total, options.top ?? TOP_FUNCTIONS),
    durationMs: totalUs / 1000,
    msByBucket: Object.fromEntries(Object.entries(bucketUs).map(([name, us]) => [name, us / 1000])),
    busyMs: (totalUs - (bucketUs.idle ?? 0)) / 1000,
    bucketFunctions: topFunctionsByBucket(tallies, byTime ? bucketUs : counts, options.topPerBucket ?? 10),
  };
}

/** How one node got its bucket; `explain` turns it into words. */
export interface NodeAttribution {
  bucket: string;
  /** Index in the rules of the first rule this node's own frame matches, if any. */
  ownRule?: number;
  /** The frame that decided (this node or an ancestor) and its rule; absent when a fallback decided. */
  decidedBy?: { nodeId: number; ruleIndex: number };
  /**
   * Why no rule decided: `queued` (the frame ran from the event loop's queues or a native runtime's
   * task poll, under an entry rule's frame, and nothing below that entry is recognised → unplaced)
   * or `unrecognised` (→ other).
   */
  fallback?: 'queued' | 'unrecognised';
  /** For `queued`: the nearest entry rule's frame above, which ran it. */
  queuedBy?: { nodeId: number; ruleIndex: number };
}

interface Decision {
  bucket: string;
  nodeId: number;
  ruleIndex: number;
}

interface Inherited {
  strong?: Decision;
  weak?: Decision;
  /** Under an entry rule's frame (this one): work run from the event loop's queues or a runtime's task poll. */
  queuedBy?: Decision;
}

/**
 * The bucket of every node, as the walk of each sample's stack from the leaf toward the root
 * decides it: the nearest frame matched by an ordinary rule wins; without one, the nearest frame
 * matched by a weak rule (plumbing: the HTTP server, shared OutgoingMessage); without one, `other`,
 * or `unplaced` for work run from the event loop's queues. An entry rule's frame (the event loop's
 * own functions; natively, an async runtime polling a task or a thread's start) keeps its bucket
 * for its own time, and nothing above it reaches the frames it calls: they ran work queued by
 * someone the profile does not show. A frame takes the first rule it matches. Done once per node,
 * top-down, instead of once per sample.
 */
export function attributeNodes(profile: Pick<CpuProfile, 'nodes'>, rules: readonly BucketRule[]): Map<number, NodeAttribution> {
  const matchFrame = frameMatcher(rules);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hasParent = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const result = new Map<number, NodeAttribution>();
  // Breadth-first from the roots, so a parent is always done before its children (iterative:
  // real stacks can be deeper than the JS call stack allows for recursion).
  const queue: Array<{ id: number; inherited: Inherited }> = profile.nodes
    .filter((node) => !hasParent.has(node.id))
    .map((node) => ({ id: node.id, inherited: {} }));
  for (let head = 0; head < queue.length; head++) {
    const { id, inherited } = queue[head]!;
    if (result.has(id)) continue;
    const node = byId.get(id)!;
    const ownRule = matchFrame(node.callFrame);
    const [attribution, forChildren] = attributeNode(id, ownRule, rules, inherited);
    result.set(id, attribution);
    for (const child of node.children ?? []) queue.push({ id: child, inherited: forChildren });
  }
  return result;
}

/** One node's bucket given its own rule and what its callers decided, and what its children inherit. */
function attributeNode(id: number, ownRule: number | undefined, rules: readonly BucketRule[], inherited: Inherited): [NodeAttribution, Inherited] {
  const rule = ownRule === undefined ? undefined : rules[ownRule]!;
  if (rule?.entry) {
    const decision = { bucket: rule.bucket, nodeId: id, ruleIndex: ownRule! };
    return [{ bucket: rule.bucket, ownRule: ownRule!, decidedBy: { nodeId: id, ruleIndex: ownRule! } }, { queuedBy: decision }];
  }
  const here: Inherited = { ...inherited };
  if (rule) {
    const decision = { bucket: rule.bucket, nodeId: id, ruleIndex: ownRule! };
    if (rule.weak) here.weak = decision;
    else here.strong = decision;
  }
  const decided = here.strong ?? here.weak;
  const queuedBy = here.queuedBy;
  const fallback: Pick<NodeAttribution, 'fallback' | 'queuedBy'> = queuedBy
    ? { fallback: 'queued', queuedBy: { nodeId: queuedBy.nodeId, ruleIndex: queuedBy.ruleIndex } }
    : { fallback: 'unrecognised' };
  const attribution: NodeAttribution = {
    bucket: decided?.bucket ?? (queuedBy ? UNPLACED : UNMATCHED),
    ...(ownRule === undefined ? {} : { ownRule }),
    ...(decided ? { decidedBy: { nodeId: decided.nodeId, ruleIndex: decided.ruleIndex } } : fallback),
  };
  return [attribution, here];
}

/** Bucket of every node (see `attributeNodes`). */
export function classifyNodes(profile: CpuProfile, rules: readonly BucketRule[]): Map<number, string> {
  return new Map([...attributeNodes(profile, rules)].map(([id, attribution]) => [id, attribution.bucket]));
}

/** Counts → shares of the total, in display order; {} when there are no samples. */
export function bucketShares(counts: Record<string, number>): Record<string, number> {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  if (total === 0) return {};
  const shares: Record<string, number> = {};
  for (const name of orderBucketNames(Object.keys(counts))) shares[name] = (counts[name] ?? 0) / total;
  return shares;
}

/** Every built-in bucket in BUCKET_ORDER, custom buckets (first-seen order) before `other`, which stays last. */
export function orderBucketNames(names: Iterable<string>): string[] {
  const builtIn = new Set<string>(BUCKET_ORDER);
  const custom = [...new Set(names)].filter((name) => !builtIn.has(name));
  return [...BUCKET_ORDER.slice(0, -1), ...custom, UNMATCHED];
}

/** The index of the first rule matching a frame, or undefined. */
export function frameMatcher(rules: readonly BucketRule[]): (frame: Pick<CpuProfileCallFrame, 'functionName' | 'url'>) => number | undefined {
  const compiled = rules.map((rule) => ({
    functionName: rule.functionName === undefined ? undefined : new RegExp(rule.functionName),
    url: rule.url === undefined ? undefined : new RegExp(rule.url),
    frame: rule.frame,
  }));
  // Many nodes share a frame (the same function under different callers): match each frame once.
  const cache = new Map<string, number | undefined>();
  return (frame) => {
    const key = `${frame.functionName}\0${frame.url}`;
    if (cache.has(key)) return cache.get(key);
    const index = compiled.findIndex(
      (rule) =>
        (rule.functionName === undefined || rule.functionName.test(frame.functionName)) &&
        (rule.url === undefined || rule.url.test(frame.url)) &&
        (rule.frame === undefined || frameKind(frame.url) === rule.frame),
    );
    const found = index < 0 ? undefined : index;
    cache.set(key, found);
    return found;
  };
}

function sumPerBucket(perNode: ReadonlyMap<number, number>, nodeBucket: ReadonlyMap<number, string>, names: readonly string[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const name of names) sums[name] = 0;
  for (const [id, value] of perNode) {
    const bucket = nodeBucket.get(id) ?? UNMATCHED;
    sums[bucket] = (sums[bucket] ?? 0) + value;
  }
  return sums;
}

/** Median of the recorded gaps (robust to the long first gap and to pauses); else the mean over the span. */
function samplingIntervalUs(profile: CpuProfile, total: number): number {
  const deltas = profile.timeDeltas;
  if (deltas && deltas.length > 0) return median(deltas);
  return (profile.endTime - profile.startTime) / total;
}
