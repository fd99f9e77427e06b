/**
 * What a comparison by instructions records: each side's gateway runs under callgrind, counting
 * is on only for fixed batches of requests, and a batch's count is what the gateway process
 * executed in user space while it answered them.
 */
import type { FailureCounts, FailureSample } from './types.js';

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
