/**
 * A batch's instructions as a CPU profile, so the same bucket rules place them: each callgrind
 * context (a function with up to K callers) becomes one "sample" whose weight is its self count,
 * on a stack of the JavaScript frames in its caller chain, named through V8's perf map. Native
 * frames in between (builtins, the runtime, Node's C++) are left out, so their instructions fall to
 * the JavaScript function that called them, as V8's sampler shows them; a chain that passes through
 * the garbage collector is `(garbage collector)`; one with no JavaScript frame is `(program)`; JIT
 * code the perf map does not name is `(unnamed JIT code)`, on its own.
 * A native gateway's profile keeps every frame instead, each named by callgrind from the binary's
 * symbols, with its ELF object as url (the native bucket rules read both); what the compiler inlined
 * counts for the function it was inlined into.
 * Weights are instructions where a profile holds µs: the analysis's "ms" are thousands of instructions.
 */
import type { CallgrindContext } from './callgrind-contexts.js';
import { CallgrindReader, readDumpFile } from './callgrind-reader.js';
import type { InstructionMoves } from '@gwprof/results';
import { sideFreeKey, type CpuProfile, type CpuProfileCallFrame, type CpuProfileNode } from '../profiles/cpuprofile.js';
import { classifyNodes } from '../profiles/buckets.js';
import type { BucketRule } from '../profiles/rules.js';
import { nodesWithSettledBucket } from '../profiles/settled-buckets.js';
import type { PerfMap } from './perf-map.js';
import type { CallGraph } from './call-graph.js';
import { guessedStacks } from './guessed-stacks.js';

/** The collector's own code: a context whose chain passes through one of these is GC work. */
const GC_FRAME =
  /^(?:v8::internal::(?:Heap::|Scavenger|ScavengerCollector|MarkCompactCollector|MinorMarkCompactCollector|MinorMarkSweepCollector|ConcurrentMarking|Sweeper|IncrementalMarking|MarkingVisitor|MainMarkingVisitor|GCTracer|ArrayBufferSweeper|Evacuat|FullEvacuator|YoungGenerationEvacuator)|heap::base::|cppgc::)/;
const ADDRESS = /^0x([0-9a-f]+)$/i;

export interface InstructionProfile {
  profile: CpuProfile;
  total: number;
  /** Instructions in contexts whose caller chain filled all K places: their outer frames are unknown. */
  truncated: number;
  /**
   * Of each sample's instructions (`profile.samples[i]`), those from contexts whose chain filled all
   * K places; absent in profiles reduced before it was recorded.
   */
  truncatedBySample?: number[];
  /** Instructions in JIT code the perf map did not name. */
  unnamedJit: number;
}

const PROGRAM = '(program)';
/** A native frame callgrind could name only by its address. */
export const NO_SYMBOL = '(code without a symbol)';
const pseudo = (functionName: string): CpuProfileCallFrame => ({ functionName, scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 });

/** Builds an instruction profile context by context: `leafOf` once per context, `add` for its counts. */
export class InstructionProfileBuilder {
  private readonly nodes: CpuProfileNode[] = [{ id: 1, callFrame: pseudo('(root)'), children: [] }];
  private readonly childOf = new Map<string, number>();
  private readonly frames = new Map<string, { address: boolean; js: CpuProfileCallFrame | null; gc: boolean }>();
  private readonly frameKeys = new WeakMap<CpuProfileCallFrame, string>();
  private readonly selfByLeaf = new Map<number, number>();
  private readonly truncatedByLeaf = new Map<number, number>();
  private total = 0;
  private truncated = 0;
  private unnamedJit = 0;

  constructor(
    private readonly perfMap: PerfMap,
    private readonly separateCallers: number,
    /** Frames of a native program: all of them kept, named by their symbols. */
    private readonly native = false,
  ) {}

  /** The profile node of a context, and how to count its instructions (truncated, unnamed JIT). */
  leafOf(frames: readonly string[], object = '', cutOff?: boolean): { node: number; truncated: boolean; unnamed: boolean } {
    if (this.native) return this.nativeLeafOf(frames, object);
    const js: CpuProfileCallFrame[] = [];
    let gc = false;
    let unnamed = false;
    for (const [i, name] of frames.entries()) {
      const frame = this.frameNamed(name);
      if (frame.address) {
        if (frame.js) js.push(frame.js);
        else if (i === 0) {
          unnamed = true;
          js.push(pseudo('(unnamed JIT code)'));
        }
        continue;
      }
      // GC below the innermost JavaScript frame is the collector's; above it, the JS called into native code that collected.
      if (js.length === 0 && frame.gc) gc = true;
    }
    let node: number;
    if (gc) node = this.child(1, pseudo('(garbage collector)'));
    else if (js.length === 0) node = this.child(1, pseudo(PROGRAM));
    else {
      node = 1;
      for (let i = js.length - 1; i >= 0; i--) node = this.child(node, js[i]!);
    }
    return { node, truncated: cutOff ?? frames.length - 1 >= this.separateCallers, unnamed };
  }

  /** What a Node context's frame name stands for, looked up once per name (guessed stacks repeat names millions of times). */
  private frameNamed(name: string): { address: boolean; js: CpuProfileCallFrame | null; gc: boolean } {
    let frame = this.frames.get(name);
    if (frame) return frame;
    const address = ADDRESS.exec(name);
    if (address) {
      const code = this.perfMap.lookup(Number.parseInt(address[1]!, 16));
      const js = code?.js
        ? { functionName: code.js.functionName, scriptId: '0', url: code.js.url, lineNumber: code.js.line - 1, columnNumber: code.js.column - 1 }
        : null;
      frame = { address: true, js, gc: false };
    } else frame = { address: false, js: null, gc: GC_FRAME.test(name) };
    this.frames.set(name, frame);
    return frame;
  }

  /**
   * A native context's frames, outermost first. callgrind marks a recursive call's depth as a
   * segment of digits after the function ("f'2"): it belongs to the frame before it. Callers' objects
   * are not in a context's name: every frame takes its innermost function's object.
   */
  private nativeLeafOf(frames: readonly string[], object: string): { node: number; truncated: boolean; unnamed: boolean } {
    // Code without a symbol is named by its address, which moves between builds: one entry per object pairs it across them.
    const names = frames.filter((name, i) => i === 0 || !/^\d+$/.test(name)).map((name) => (ADDRESS.test(name) ? NO_SYMBOL : name));
    let node = 1;
    for (let i = names.length - 1; i >= 0; i--)
      node = this.child(node, { functionName: names[i]!, scriptId: '0', url: object || '(unknown object)', lineNumber: -1, columnNumber: -1 });
    return { node, truncated: names.length - 1 >= this.separateCallers, unnamed: false };
  }

  add(leaf: { node: number; truncated: boolean; unnamed: boolean }, self: number): void {
    this.total += self;
    if (leaf.truncated) {
      this.truncated += self;
      this.truncatedByLeaf.set(leaf.node, (this.truncatedByLeaf.get(leaf.node) ?? 0) + self);
    }
    if (leaf.unnamed) this.unnamedJit += self;
    this.selfByLeaf.set(leaf.node, (this.selfByLeaf.get(leaf.node) ?? 0) + self);
  }

  finish(): InstructionProfile {
    const leaves = [...this.selfByLeaf.entries()];
    const profile: CpuProfile = {
      nodes: this.nodes,
      startTime: 0,
      endTime: this.total,
      samples: leaves.map(([id]) => id),
      timeDeltas: leaves.map(([, n]) => n),
    };
    const truncatedBySample = leaves.map(([id]) => this.truncatedByLeaf.get(id) ?? 0);
    return { profile, total: this.total, truncated: this.truncated, truncatedBySample, unnamedJit: this.unnamedJit };
  }

  private child(parent: number, frame: CpuProfileCallFrame): number {
    let frameKey = this.frameKeys.get(frame);
    if (frameKey === undefined) this.frameKeys.set(frame, (frameKey = `${frame.functionName}|${frame.url}|${frame.lineNumber}|${frame.columnNumber}`));
    const key = `${parent}|${frameKey}`;
    const known = this.childOf.get(key);
    if (known !== undefined) return known;
    const id = this.nodes.length + 1;
    this.nodes.push({ id, callFrame: frame, children: [] });
    this.nodes[parent - 1]!.children!.push(id);
    this.childOf.set(key, id);
    return id;
  }
}

export function instructionProfile(contexts: readonly CallgrindContext[], perfMap: PerfMap, separateCallers: number, native = false): InstructionProfile {
  const builder = new InstructionProfileBuilder(perfMap, separateCallers, native);
  for (const context of contexts) builder.add(builder.leafOf(context.frames, context.object), context.self);
  return builder.finish();
}

/** The instruction profile of a dump file, read line by line; `native` for a program that is not Node. */
export async function instructionProfileOfFile(file: string, perfMap: PerfMap, separateCallers: number, native = false): Promise<InstructionProfile> {
  const builder = new InstructionProfileBuilder(perfMap, separateCallers, native);
  await readDumpFile(
    file,
    new CallgrindReader(
      { context: (frames, object) => builder.leafOf(frames, object), self: (leaf, self) => builder.add(leaf, self) },
      { gatewayBinary: native },
    ),
  );
  return builder.finish();
}

/** How far a Node side's stacks are guessed from its call graph (see `guessedStacks`). */
export const GUESSED_STACK_FRAMES = 160;
/** Shares below this part of a dump's total are not followed further up (legacy Mesh: some 700 thousand stacks, 15 s a side). */
const GUESSED_SHARE_FLOOR = 1e-6;

/**
 * A Node side's instruction profile from a dump without callers: stacks guessed from its call graph
 * (see `guessedStacks`), then named and placed as the pair's kept callers are.
 */
export function instructionProfileOfCallGraph(graph: CallGraph, perfMap: PerfMap): InstructionProfile {
  const builder = new InstructionProfileBuilder(perfMap, GUESSED_STACK_FRAMES);
  const stacks = guessedStacks(graph, { maxFrames: GUESSED_STACK_FRAMES, minInstructions: GUESSED_SHARE_FLOOR * graph.total });
  for (const stack of stacks) builder.add(builder.leafOf(stack.frames, stack.object, stack.truncated), stack.self);
  return builder.finish();
}

/** Where a batch's instructions went: by bucket, and by function (self), as counts over the batch. */
export interface InstructionBreakdown {
  total: number;
  truncated: number;
  /** Truncated instructions whose visible frames do not decide their bucket; null when the profile does not say which were truncated. */
  guessed: number | null;
  unnamedJit: number;
  byBucket: Record<string, number>;
  /** Keyed by "functionName|url|line" (line 1-based; 0 for pseudo-frames). */
  byFunction: Map<string, { functionName: string; url: string; line: number; bucket: string; self: number }>;
}

/**
 * A context whose chain was cut off keeps its bucket when its visible frames decide it (see
 * `nodesWithSettledBucket`); otherwise the bucket is a guess. `(program)`, a chain with no
 * JavaScript frame, is a guess too when cut off: a JavaScript caller beyond the cut would have taken it.
 */
export function instructionBreakdown(profile: InstructionProfile, rules: readonly BucketRule[]): InstructionBreakdown {
  const bucketOf = classifyNodes(profile.profile, rules);
  const settled = nodesWithSettledBucket(profile.profile, rules);
  const byId = new Map(profile.profile.nodes.map((node) => [node.id, node]));
  const truncatedBySample = profile.truncatedBySample;
  let guessed = 0;
  const byBucket: Record<string, number> = {};
  const byFunction: InstructionBreakdown['byFunction'] = new Map();
  const bucketsOfFunction = new Map<string, Map<string, number>>();
  const samples = profile.profile.samples ?? [];
  const weights = profile.profile.timeDeltas ?? [];
  for (const [i, id] of samples.entries()) {
    const weight = weights[i] ?? 0;
    const bucket = bucketOf.get(id) ?? 'other';
    byBucket[bucket] = (byBucket[bucket] ?? 0) + weight;
    const frame = byId.get(id)!.callFrame;
    if (!settled.has(id) || frame.functionName === PROGRAM) guessed += truncatedBySample?.[i] ?? 0;
    const line = frame.lineNumber + 1;
    // The same function in the two sides' installs or checkouts is one entry.
    const key = sideFreeKey(frame);
    const entry = byFunction.get(key) ?? { functionName: frame.functionName, url: frame.url, line, bucket, self: 0 };
    entry.self += weight;
    byFunction.set(key, entry);
    const buckets = bucketsOfFunction.get(key) ?? new Map<string, number>();
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + weight);
    bucketsOfFunction.set(key, buckets);
  }
  // A function reached from several buckets is listed under the one holding most of its instructions.
  for (const [key, buckets] of bucketsOfFunction) byFunction.get(key)!.bucket = [...buckets].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  return {
    total: profile.total,
    truncated: profile.truncated,
    guessed: truncatedBySample ? guessed : null,
    unnamedJit: profile.unnamedJit,
    byBucket,
    byFunction,
  };
}

/** How many function moves a comparison keeps. */
const FUNCTION_MOVES = 30;

/** The two sides' breakdowns per successful request, and what moved, largest first. */
export function instructionMoves(
  baseline: { breakdown: InstructionBreakdown; ok: number; requests: number },
  candidate: { breakdown: InstructionBreakdown; ok: number; requests: number },
  separateCallers: number,
  native = false,
  callEdges = false,
): InstructionMoves {
  const per = (side: { breakdown: InstructionBreakdown; ok: number }, n: number) => n / Math.max(1, side.ok);
  const buckets = [...new Set([...Object.keys(baseline.breakdown.byBucket), ...Object.keys(candidate.breakdown.byBucket)])].map((bucket) => {
    const b = per(baseline, baseline.breakdown.byBucket[bucket] ?? 0);
    const c = per(candidate, candidate.breakdown.byBucket[bucket] ?? 0);
    return { bucket, baselinePerOkRequest: b, candidatePerOkRequest: c, deltaPerOkRequest: c - b };
  });
  const keys = new Set([...baseline.breakdown.byFunction.keys(), ...candidate.breakdown.byFunction.keys()]);
  const functions = [...keys].map((key) => {
    const bf = baseline.breakdown.byFunction.get(key);
    const cf = candidate.breakdown.byFunction.get(key);
    const f = (cf ?? bf)!;
    const b = per(baseline, bf?.self ?? 0);
    const c = per(candidate, cf?.self ?? 0);
    return {
      functionName: f.functionName,
      url: f.url,
      line: f.line,
      bucket: f.bucket,
      baselinePerOkRequest: b,
      candidatePerOkRequest: c,
      deltaPerOkRequest: c - b,
    };
  });
  const largest = <T extends { deltaPerOkRequest: number }>(list: T[]) => list.sort((x, y) => Math.abs(y.deltaPerOkRequest) - Math.abs(x.deltaPerOkRequest));
  const share = (side: { breakdown: InstructionBreakdown }, n: number) => (side.breakdown.total > 0 ? n / side.breakdown.total : 0);
  return {
    separateCallers,
    ...(native ? { native } : {}),
    ...(callEdges ? { callEdges } : {}),
    totalPerOkRequest: { baseline: per(baseline, baseline.breakdown.total), candidate: per(candidate, candidate.breakdown.total) },
    truncatedShare: { baseline: share(baseline, baseline.breakdown.truncated), candidate: share(candidate, candidate.breakdown.truncated) },
    // With stacks guessed from call edges every bucket is a guess: no share of them is told apart as one.
    ...(!callEdges && baseline.breakdown.guessed !== null && candidate.breakdown.guessed !== null
      ? { guessedShare: { baseline: share(baseline, baseline.breakdown.guessed), candidate: share(candidate, candidate.breakdown.guessed) } }
      : {}),
    unnamedJitShare: { baseline: share(baseline, baseline.breakdown.unnamedJit), candidate: share(candidate, candidate.breakdown.unnamedJit) },
    failedRequests: { baseline: baseline.requests - baseline.ok, candidate: candidate.requests - candidate.ok },
    buckets: largest(buckets),
    functions: largest(functions).slice(0, FUNCTION_MOVES),
  };
}
