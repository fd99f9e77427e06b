/**
 * What a comparison by instructions records: each side's gateway runs under callgrind, counting
 * is on only for fixed batches of requests, and a batch's count is what the gateway process
 * executed in user space while it answered them.
 */
import type { LevelDecision, MetricComparison } from './compare-types.js';
import type { FailureCounts, FailureSample } from './failures.js';

/** How a comparison by instructions is measured (CompareDesign.instructions). */
export interface InstructionDesign {
  /** Requests sent one at a time, uncounted, after each side's start and before its first batch. */
  warmupRequests: number;
  /** Requests in a counted batch: the scenario's first ones, the same on both sides and in every batch. */
  batchRequests: number;
  /** Counted batches of each side per epoch (pair of processes). */
  batchesPerEpoch: number;
  /** V8 flags given to a Node gateway so that its counts repeat (baseline tiers, fixed seeds, predictable GC). */
  v8Flags: string[];
  /** valgrind's command line before the program. */
  valgrindArgs: string[];
  /** Floor on the epochs' standard deviation (log units) in the test: the measured noise between processes. */
  minEpochSd: number;
  /** --separate-callers of the pair that shows where the instructions went; 0: no such pair. Absent in older results: 0. */
  profileCallers?: number;
  /** Requests in that pair's one batch a side (its counts are deterministic enough; deep contexts are slow to count). */
  profileRequests?: number;
}

/** One counted batch of one side: what callgrind counted while it answered the batch, and how the answers fared. */
export interface InstructionBatch {
  epoch: number;
  side: 'baseline' | 'candidate';
  /** From 1 within its epoch. */
  batch: number;
  startedAt: string;
  /** Requests sent, and those that passed validation. */
  requests: number;
  ok: number;
  failureCounts: FailureCounts;
  failureSamples: FailureSample[];
  /** Instructions the gateway process executed while counting was on (callgrind's Ir total, all its threads). */
  instructions: number;
  /** instructions / ok; null when no request passed. */
  instructionsPerOkRequest: number | null;
  /** Wall seconds the counted batch took (under callgrind: not the gateway's speed). */
  seconds: number;
  /** The full GC forced through the preload before the batch; null when the gateway is not Node (no preload). */
  forcedGcMs: number | null;
  /** callgrind's dump of the batch, relative to the run folder. */
  dumpFile: string;
  /**
   * A native gateway's calls into its allocator that obtain memory during the batch (analysis's
   * allocation-calls.ts); null for a Node gateway, whose heap is V8's; absent in older records.
   */
  allocationCalls?: number | null;
  /**
   * Those calls by the function that made them (the allocator's direct caller, callgrind's call edges);
   * absent for a Node gateway and in older records.
   */
  allocationCallers?: Record<string, number>;
  /**
   * A Node gateway's bytes allocated on V8's heap during the batch (the growth of its used heap plus
   * what each GC freed, v8.GCProfiler, read through the preload); null for a native gateway, absent in older records.
   */
  allocatedBytes?: number | null;
}

/** One side's process in an epoch of a comparison by instructions. */
export interface InstructionSide {
  pid: number;
  /** A Node gateway: it ran with the design's V8 flags and the preload answered (GC before each batch). */
  node: boolean;
  startup: { prepareMs: number; listenMs: number; readyMs: number };
  warmupSec: number;
  /** Warm-up requests that failed validation (a failed warm-up request fails the comparison too). */
  warmupFailures: number;
}

/**
 * The pair of processes that shows where the instructions went, after the verdict's epochs: both
 * sides under callgrind with --separate-callers (each count then knows its callers) and V8 writing
 * its perf map (which JIT code is which JavaScript function), one batch each. Its counts do not
 * enter the verdict: the deeper contexts and the map cost time, and the verdict's processes run
 * without them.
 */
export interface InstructionProfileRecord {
  /** Why the pair gave no profile (it never changes the verdict); absent when it did. */
  error?: string;
  startedAt: string;
  finishedAt: string | null;
  /** valgrind's --separate-callers: callers kept per count; a chain that fills them is truncated. */
  separateCallers: number;
  /**
   * No callers were kept: the verdict's own last batches, their stacks guessed from callgrind's call
   * edges, up to `separateCallers` frames (analysis's guessedStacks). Absent for a pair with callers kept.
   */
  callEdges?: boolean;
  /** V8 flags added to the design's for this pair. */
  v8Flags: string[];
  /** null when the pair failed (see error). */
  sides: { baseline: InstructionProfileSide; candidate: InstructionProfileSide } | null;
}

export interface InstructionProfileSide {
  pid: number;
  node: boolean;
  /** Its batch; the dump it names is removed once reduced (on Mesh it ran to a gigabyte). */
  batch: InstructionBatch;
  /** V8's perf map of the process, copied into the run folder; null when it wrote none (not Node). */
  perfMapFile: string | null;
  /**
   * The dump reduced to a profile of instructions (analysis's InstructionProfile: a CPU profile's
   * shape, instructions where it holds µs, frames named through the perf map), relative to the run folder.
   */
  profileFile: string;
}

/** Where the instructions went, per successful request, from the profile pair: by bucket and by function. */
export interface InstructionMoves {
  separateCallers: number;
  /** Stacks guessed from the call edges of the verdict's own batches (see InstructionProfileRecord). */
  callEdges?: boolean;
  /** Neither side is a Node process: frames are the binaries' own symbols, and there is no JIT code to name. */
  native?: boolean;
  /** Each side's instructions per successful request in the profile pair (not the verdict's batches). */
  totalPerOkRequest: { baseline: number; candidate: number };
  /** Share of each side's instructions whose caller chain filled every kept place: their outer frames, and so maybe their bucket, are unknown. */
  truncatedShare: { baseline: number; candidate: number };
  /**
   * Share of each side's instructions placed by a guess: cut off before any frame that decides their
   * bucket (an ordinary or entry rule's frame), so frames beyond the cut could have placed them
   * elsewhere. Absent in older files, and when a profile does not record which contexts were cut off.
   */
  guessedShare?: { baseline: number; candidate: number };
  /** Share of each side's instructions in JIT code V8's perf map did not name. */
  unnamedJitShare: { baseline: number; candidate: number };
  /** Requests of the profile pair's batch that failed (a timeout under callgrind): their work is in the counts but not in the divisor. Absent in older files. */
  failedRequests?: { baseline: number; candidate: number };
  /** Every bucket with instructions on either side, largest move first. */
  buckets: InstructionBucketMove[];
  /** The functions whose self instructions per request moved most, largest move first. */
  functions: InstructionFunctionMove[];
}

export interface InstructionBucketMove {
  bucket: string;
  baselinePerOkRequest: number;
  candidatePerOkRequest: number;
  deltaPerOkRequest: number;
}

export interface InstructionFunctionMove extends InstructionBucketMove {
  functionName: string;
  url: string;
  /** 1-based; 0 for pseudo-frames such as (garbage collector). */
  line: number;
}

/** What a comparison by instructions counts as allocations: a native gateway's allocator calls, or a Node gateway's bytes on V8's heap. */
export type AllocationKind = 'allocator calls' | 'V8 bytes';

/**
 * The verdict on allocations per validated request, from the same batches and the same test as the
 * instructions' (the epochs the instruction verdict stopped at): a regression fails the comparison
 * (exit 1) as an instruction regression does; undecided, it is shown and leaves the exit code alone.
 */
export interface AllocationVerdict {
  kind: AllocationKind;
  /** allocations/req or bytes/req. */
  unit: string;
  decision: LevelDecision;
  /** Each side's allocations per validated request, and the change with a plain 95% interval. */
  metric: MetricComparison;
  /** The functions whose allocations per request moved most, largest move first: a native gateway's allocator callers; [] for Node. */
  functions: AllocationCallerMove[];
}

/** A function that calls the allocator, and its calls per validated request on each side (mean over the verdict's batches). */
export interface AllocationCallerMove {
  functionName: string;
  baselinePerOkRequest: number;
  candidatePerOkRequest: number;
  deltaPerOkRequest: number;
}
