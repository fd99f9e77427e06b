/**
 * What a window allocated, from V8's sampling heap profiler (`HeapProfiler.startSampling` with every
 * sampled object kept, collected or not): bytes per successful request in total, by bucket (the CPU
 * rules, applied to the allocation stacks) and by function. V8 samples about one allocation per
 * interval of bytes and scales each sample by its chance of being taken, so a node's `selfSize` is
 * an estimate of the bytes allocated there.
 */
import { GwprofError, type AllocatorCost } from '@gwprof/results';
import { attributeNodes, orderBucketNames } from './buckets.js';
import { frameKey, type CpuProfileCallFrame, type CpuProfileNode } from './cpuprofile.js';
import { DEFAULT_BUCKET_RULES, type BucketRule } from './rules.js';
import { TOP_FUNCTIONS } from './top-functions.js';

/** A node of Chrome's `.heapprofile` (DevTools protocol `HeapProfiler.SamplingHeapProfileNode`). */
export interface HeapProfileNode {
  id: number;
  callFrame: CpuProfileCallFrame;
  /** Bytes allocated with this node as the leaf frame (V8's scaled estimate). */
  selfSize: number;
  children: HeapProfileNode[];
}

export interface HeapProfile {
  head: HeapProfileNode;
  /** One entry per sample: the sampled object's size and its node. */
  samples?: Array<{ size: number; nodeId: number; ordinal: number }>;
}

/** The allocation profile's tree as flat nodes (what the bucket rules walk) and each node's bytes. */
export interface HeapNodes {
  nodes: CpuProfileNode[];
  selfBytes: Map<number, number>;
}

export interface AllocationAnalysis {
  samples: number;
  /** Every node's selfSize, summed. */
  bytes: number;
  /** Bucket -> bytes, in display order. */
  bytesByBucket: Record<string, number>;
  /** The functions that allocated most, with the bucket most of their bytes went to, largest first. */
  topAllocators: Array<Omit<AllocatorCost, 'bytesPerOkRequest'> & { bytes: number }>;
  /** Functions that allocated anything. */
  functionCount: number;
}

/** Validates the shape analysis relies on, so a bad file fails here with a clear message. */
export function parseHeapProfile(text: string, source: string): HeapProfile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GwprofError(`${source}: truncated or invalid JSON (${(error as Error).message.split('\n')[0]})`);
  }
  const head = (value as { head?: unknown } | null)?.head;
  if (!isHeapNode(head)) throw new GwprofError(`${source}: not a V8 heap profile: no "head" node with callFrame, selfSize and children`);
  return value as HeapProfile;
}

function isHeapNode(node: unknown): node is HeapProfileNode {
  const n = node as Partial<HeapProfileNode> | null;
  return typeof n === 'object' && n !== null && typeof n.selfSize === 'number' && typeof n.callFrame?.functionName === 'string' && Array.isArray(n.children);
}

/** Flattens the tree (iteratively: allocation stacks can be deeper than recursion allows). */
export function heapNodes(profile: HeapProfile): HeapNodes {
  const nodes: CpuProfileNode[] = [];
  const selfBytes = new Map<number, number>();
  const stack = [profile.head];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.push({ id: node.id, callFrame: node.callFrame, children: node.children.map((child) => child.id) });
    if (node.selfSize > 0) selfBytes.set(node.id, node.selfSize);
    stack.push(...node.children);
  }
  return { nodes, selfBytes };
}

/** Bytes per function (keyed like `frameKey`), for comparing windows. */
export function bytesByFunction(profile: HeapProfile): Map<string, number> {
  const { nodes, selfBytes } = heapNodes(profile);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const bytes = new Map<string, number>();
  for (const [id, size] of selfBytes) {
    const key = frameKey(byId.get(id)!.callFrame);
    bytes.set(key, (bytes.get(key) ?? 0) + size);
  }
  return bytes;
}

export function analyzeAllocations(profile: HeapProfile, options: { rules?: readonly BucketRule[]; top?: number } = {}): AllocationAnalysis {
  const rules = options.rules ?? DEFAULT_BUCKET_RULES;
  const { nodes, selfBytes } = heapNodes(profile);
  const attribution = attributeNodes({ nodes }, rules);
  const bytesByBucket: Record<string, number> = Object.fromEntries(orderBucketNames(rules.map((rule) => rule.bucket)).map((name) => [name, 0]));
  const functions = new Map<string, { frame: CpuProfileCallFrame; bytes: number; byBucket: Map<string, number> }>();
  const byId = new Map(nodes.map((node) => [node.id, node]));
  let total = 0;
  for (const [id, size] of selfBytes) {
    const bucket = attribution.get(id)!.bucket;
    bytesByBucket[bucket] = (bytesByBucket[bucket] ?? 0) + size;
    total += size;
    const frame = byId.get(id)!.callFrame;
    const key = frameKey(frame);
    const entry = functions.get(key) ?? { frame, bytes: 0, byBucket: new Map<string, number>() };
    entry.bytes += size;
    entry.byBucket.set(bucket, (entry.byBucket.get(bucket) ?? 0) + size);
    functions.set(key, entry);
  }
  const topAllocators = [...functions.values()]
    .sort((a, b) => b.bytes - a.bytes || a.frame.functionName.localeCompare(b.frame.functionName))
    .slice(0, options.top ?? TOP_FUNCTIONS)
    .map(({ frame, bytes, byBucket }) => ({
      functionName: frame.functionName || '(anonymous)',
      url: frame.url,
      line: Math.max(0, frame.lineNumber + 1),
      bucket: [...byBucket].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0],
      bytes,
      share: total > 0 ? bytes / total : 0,
    }));
  return { samples: profile.samples?.length ?? 0, bytes: total, bytesByBucket, topAllocators, functionCount: functions.size };
}

/**
 * The window's bytes placed by the frames of a profile taken with inlining off: each bucket and
 * function gets its share of that profile times the window's own total. The total stays the
 * window's (the gateway as it runs, inlining and its escape analysis included); only whose frames
 * the bytes belong to comes from the other profile, where an inlined function has a frame again.
 */
export function placeByAttribution(window: AllocationAnalysis, attribution: AllocationAnalysis): AllocationAnalysis {
  const scale = attribution.bytes > 0 ? window.bytes / attribution.bytes : 0;
  return {
    samples: window.samples,
    bytes: window.bytes,
    bytesByBucket: Object.fromEntries(Object.entries(attribution.bytesByBucket).map(([bucket, bytes]) => [bucket, bytes * scale])),
    topAllocators: attribution.topAllocators.map((f) => ({ ...f, bytes: f.bytes * scale })),
    functionCount: attribution.functionCount,
  };
}

/**
 * One allocation profile of several windows (of one side of a comparison): their trees merged by
 * call path, bytes summed. Node ids are renumbered; samples are not kept (they name old ids).
 */
export function mergeHeapProfiles(profiles: readonly HeapProfile[]): HeapProfile {
  let nextId = 1;
  const fresh = (callFrame: CpuProfileCallFrame): HeapProfileNode => ({ id: nextId++, callFrame, selfSize: 0, children: [] });
  const head = fresh(profiles[0]?.head.callFrame ?? { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 });
  const childIndex = new Map<HeapProfileNode, Map<string, HeapProfileNode>>();
  const work: Array<[HeapProfileNode, HeapProfileNode]> = profiles.map((profile) => [profile.head, head]);
  while (work.length > 0) {
    const [from, into] = work.pop()!;
    into.selfSize += from.selfSize;
    let index = childIndex.get(into);
    if (!index) childIndex.set(into, (index = new Map()));
    for (const child of from.children) {
      const key = frameKey(child.callFrame);
      let target = index.get(key);
      if (!target) {
        target = fresh(child.callFrame);
        index.set(key, target);
        into.children.push(target);
      }
      work.push([child, target]);
    }
  }
  return { head, samples: [] };
}

/** One side of a comparison's allocations: its windows' allocation profiles and their successful requests. */
export interface SideHeapProfiles {
  profiles: readonly HeapProfile[];
  okRequests: number;
}

export interface AllocationDelta {
  key: string;
  functionName: string;
  url: string;
  line: number;
  bucket: string;
  /** Bytes per successful request. */
  baseline: number;
  candidate: number;
  delta: number;
}

export interface AllocationDiff {
  /** Bytes per successful request. */
  baseline: number;
  candidate: number;
  /** The `top` functions by |delta|, largest first. */
  functions: AllocationDelta[];
  /** Functions that allocated on either side (before the cut): the family their moves are tested in. */
  functionCount: number;
  /** Every bucket that allocated on either side, bytes per successful request, largest |delta| first. */
  buckets: Array<{ bucket: string; baseline: number; candidate: number; delta: number }>;
}

/** "Where did it allocate more?": bytes per successful request of every function, baseline against candidate. */
export function diffAllocations(
  baseline: SideHeapProfiles,
  candidate: SideHeapProfiles,
  options: { rules?: readonly BucketRule[]; top?: number } = {},
): AllocationDiff {
  const sides = {
    baseline: analyzeAllocations(mergeHeapProfiles(baseline.profiles), { ...options, top: Infinity }),
    candidate: analyzeAllocations(mergeHeapProfiles(candidate.profiles), { ...options, top: Infinity }),
  };
  const perOk = { baseline: Math.max(1, baseline.okRequests), candidate: Math.max(1, candidate.okRequests) };
  const functions = new Map<string, AllocationDelta>();
  for (const side of ['baseline', 'candidate'] as const) {
    for (const f of sides[side].topAllocators) {
      const key = `${f.functionName}\0${f.url}\0${f.line}`;
      const entry = functions.get(key) ?? {
        key,
        functionName: f.functionName,
        url: f.url,
        line: f.line,
        bucket: f.bucket,
        baseline: 0,
        candidate: 0,
        delta: 0,
      };
      entry[side] += f.bytes / perOk[side];
      entry.delta = entry.candidate - entry.baseline;
      functions.set(key, entry);
    }
  }
  const bucketNames = new Set([...Object.keys(sides.baseline.bytesByBucket), ...Object.keys(sides.candidate.bytesByBucket)]);
  const buckets = [...bucketNames]
    .map((bucket) => {
      const [b, c] = [(sides.baseline.bytesByBucket[bucket] ?? 0) / perOk.baseline, (sides.candidate.bytesByBucket[bucket] ?? 0) / perOk.candidate];
      return { bucket, baseline: b, candidate: c, delta: c - b };
    })
    .filter((row) => row.baseline > 0 || row.candidate > 0)
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta));
  return {
    baseline: sides.baseline.bytes / perOk.baseline,
    candidate: sides.candidate.bytes / perOk.candidate,
    functions: [...functions.values()].sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta)).slice(0, options.top ?? TOP_FUNCTIONS),
    functionCount: functions.size,
    buckets,
  };
}

/** Bytes per function of one window, keyed as `diffAllocations` keys them, for the epochs' noise. */
export function allocationsByFunction(profile: HeapProfile): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const [key, size] of bytesByFunction(profile)) {
    const [name, url, line] = key.split('\0');
    const shown = `${name || '(anonymous)'}\0${url}\0${Math.max(0, Number(line) + 1)}`;
    bytes.set(shown, (bytes.get(shown) ?? 0) + size);
  }
  return bytes;
}
