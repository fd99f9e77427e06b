import { classifyNodes, orderBucketNames } from './buckets.js';
import { isIdleFrame, sideFreeKey, selfWeights, type CpuProfile, type CpuProfileCallFrame, type CpuProfileNode } from './cpuprofile.js';
import { DEFAULT_BUCKET_RULES, type BucketRule } from './rules.js';
import { TOP_FUNCTIONS } from './top-functions.js';

/**
 * One side of a comparison: the CPU profiles of all its measured windows and the successful
 * requests answered inside those windows.
 */
export interface SideProfiles {
  profiles: readonly CpuProfile[];
  okRequests: number;
}

export interface DiffFunctionsOptions {
  rules?: readonly BucketRule[];
  /** How many functions to return, largest absolute change first (default TOP_FUNCTIONS). */
  top?: number;
}

/** CPU milliseconds per successful request on each side, and candidate − baseline. */
export interface MsPerRequest {
  baseline: number;
  candidate: number;
  delta: number;
}

export interface FunctionDelta {
  /** The function's identity across nodes and profiles (`sideFreeKey`: the same in two installs or checkouts). */
  key: string;
  /** '(anonymous)' when V8 gives no name. */
  functionName: string;
  url: string;
  /** 1-based like editors show it (0 when V8 gives none), as in `TopFunction`. */
  line: number;
  /** 1-based (0 when V8 gives none). */
  column: number;
  /** Bucket that received most of this function's self time, both sides together. */
  bucket: string;
  /** Time with this function as the leaf frame. */
  self: MsPerRequest;
  /** Time with this function anywhere on the stack (counted once per sample under recursion). */
  total: MsPerRequest;
}

export interface BucketDelta extends MsPerRequest {
  bucket: string;
}

export interface SideTotals {
  okRequests: number;
  profiles: number;
  /** Non-idle CPU of all the side's profiles, ms. */
  cpuMs: number;
  /** `cpuMs / okRequests`: what every table below divides up. */
  cpuMsPerRequest: number;
}

export interface FunctionDiff {
  baseline: SideTotals;
  candidate: SideTotals;
  /** The `top` functions by |self.delta|, largest first. */
  functions: FunctionDelta[];
  /** Functions seen on either side (before the `top` cut), so a table can say "top 15 of 1,234". */
  functionCount: number;
  /** Every bucket with time on either side, in display order; self deltas summed per bucket. */
  buckets: BucketDelta[];
}

/**
 * Function-level "where did it get slower?": self CPU time per successful request of every
 * function, baseline vs candidate, ranked by absolute change.
 *
 * Per request, not share of samples: a share moves whenever anything else moves, idle included
 * (a candidate that waits more on its subgraphs shows every CPU function as "smaller" though none
 * changed), while CPU ms per successful request changes only when a function's own cost does.
 * Per-request figures of all functions also add up to the side's CPU per request, so the table
 * explains the headline metric. `(idle)` samples are left out everywhere: they are waiting, not work.
 */
export function diffFunctions(baseline: SideProfiles, candidate: SideProfiles, options: DiffFunctionsOptions = {}): FunctionDiff {
  const rules = options.rules ?? DEFAULT_BUCKET_RULES;
  const before = tallySide(baseline, rules, 'baseline');
  const after = tallySide(candidate, rules, 'candidate');
  // Frames that only ever sat above others (like `(root)`) have no self time to rank.
  const keys = new Set([...selfTimeKeys(before), ...selfTimeKeys(after)]);
  const functions = [...keys].map((key) => functionDelta(before, after, key));
  functions.sort(
    (a, b) => Math.abs(b.self.delta) - Math.abs(a.self.delta) || a.functionName.localeCompare(b.functionName) || a.url.localeCompare(b.url) || a.line - b.line,
  );
  return {
    baseline: before.totals,
    candidate: after.totals,
    functions: functions.slice(0, Math.max(0, options.top ?? TOP_FUNCTIONS)),
    functionCount: functions.length,
    buckets: bucketDeltas(before, after),
  };
}

interface FunctionTally {
  frame: CpuProfileCallFrame;
  selfUs: number;
  totalUs: number;
  selfUsByBucket: Map<string, number>;
}

interface SideTally {
  okRequests: number;
  totals: SideTotals;
  functions: Map<string, FunctionTally>;
  bucketUs: Map<string, number>;
}

function tallySide(side: SideProfiles, rules: readonly BucketRule[], name: string): SideTally {
  if (!(side.okRequests > 0)) {
    throw new RangeError(`${name}: CPU per request needs successful requests, got okRequests = ${side.okRequests}`);
  }
  const functions = new Map<string, FunctionTally>();
  const bucketUs = new Map<string, number>();
  let cpuUs = 0;
  for (const profile of side.profiles) {
    cpuUs += addProfile(profile, rules, functions, bucketUs);
  }
  const cpuMs = cpuUs / 1000;
  return {
    okRequests: side.okRequests,
    totals: { okRequests: side.okRequests, profiles: side.profiles.length, cpuMs, cpuMsPerRequest: cpuMs / side.okRequests },
    functions,
    bucketUs,
  };
}

/** Adds one profile's non-idle self and total time to the tallies; returns its non-idle µs. */
function addProfile(profile: CpuProfile, rules: readonly BucketRule[], functions: Map<string, FunctionTally>, bucketUs: Map<string, number>): number {
  const nodeBucket = classifyNodes(profile, rules);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = parentIds(profile.nodes);
  let cpuUs = 0;
  for (const [id, us] of selfWeights(profile).selfUs) {
    const node = byId.get(id)!;
    if (isIdleFrame(node.callFrame) || us === 0) continue;
    cpuUs += us;
    const bucket = nodeBucket.get(id) ?? 'other';
    bucketUs.set(bucket, (bucketUs.get(bucket) ?? 0) + us);
    const leaf = tallyFor(functions, node.callFrame);
    leaf.selfUs += us;
    leaf.selfUsByBucket.set(bucket, (leaf.selfUsByBucket.get(bucket) ?? 0) + us);
    // Inclusive time: every function on this node's stack, once each even under recursion.
    // Walked once per node with self time, not once per sample.
    const onStack = new Set<FunctionTally>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      onStack.add(tallyFor(functions, byId.get(at)!.callFrame));
    }
    for (const tally of onStack) tally.totalUs += us;
  }
  return cpuUs;
}

/** Each function's self time in one profile, ms, `(idle)` left out; keyed by `sideFreeKey`. */
export function selfMsByFunction(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const ms = new Map<string, number>();
  for (const [id, us] of selfWeights(profile).selfUs) {
    const frame = byId.get(id)!.callFrame;
    if (isIdleFrame(frame)) continue;
    const key = sideFreeKey(frame);
    ms.set(key, (ms.get(key) ?? 0) + us / 1000);
  }
  return ms;
}

function parentIds(nodes: readonly CpuProfileNode[]): Map<number, number> {
  const parents = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  return parents;
}

function tallyFor(functions: Map<string, FunctionTally>, frame: CpuProfileCallFrame): FunctionTally {
  const key = sideFreeKey(frame);
  let tally = functions.get(key);
  if (!tally) {
    tally = { frame, selfUs: 0, totalUs: 0, selfUsByBucket: new Map() };
    functions.set(key, tally);
  }
  return tally;
}

function selfTimeKeys(side: SideTally): string[] {
  return [...side.functions].filter(([, tally]) => tally.selfUs > 0).map(([key]) => key);
}

function functionDelta(before: SideTally, after: SideTally, key: string): FunctionDelta {
  const a = before.functions.get(key);
  const b = after.functions.get(key);
  const frame = (a ?? b)!.frame;
  return {
    key,
    functionName: frame.functionName || '(anonymous)',
    url: frame.url,
    line: Math.max(0, frame.lineNumber + 1),
    column: Math.max(0, frame.columnNumber + 1),
    bucket: dominantBucket([a, b]),
    self: msPerRequest((a?.selfUs ?? 0) / before.okRequests, (b?.selfUs ?? 0) / after.okRequests),
    total: msPerRequest((a?.totalUs ?? 0) / before.okRequests, (b?.totalUs ?? 0) / after.okRequests),
  };
}

/** The bucket with most self time over both sides. */
function dominantBucket(tallies: ReadonlyArray<FunctionTally | undefined>): string {
  const combined = new Map<string, number>();
  for (const tally of tallies) {
    for (const [bucket, us] of tally?.selfUsByBucket ?? []) combined.set(bucket, (combined.get(bucket) ?? 0) + us);
  }
  let best: [string, number] = ['other', 0];
  for (const entry of combined) if (entry[1] > best[1]) best = entry;
  return best[0];
}

function bucketDeltas(before: SideTally, after: SideTally): BucketDelta[] {
  const names = orderBucketNames([...before.bucketUs.keys(), ...after.bucketUs.keys()]);
  return names
    .filter((bucket) => before.bucketUs.has(bucket) || after.bucketUs.has(bucket))
    .map((bucket) => ({
      bucket,
      ...msPerRequest((before.bucketUs.get(bucket) ?? 0) / before.okRequests, (after.bucketUs.get(bucket) ?? 0) / after.okRequests),
    }));
}

/** µs per request → ms per request on each side, and their difference. */
function msPerRequest(baselineUs: number, candidateUs: number): MsPerRequest {
  const baseline = baselineUs / 1000;
  const candidate = candidateUs / 1000;
  return { baseline, candidate, delta: candidate - baseline };
}
