/**
 * What `gwprof bisect` records (bisect.json): the ordered points between a good and a bad end
 * (published versions of a built-in gateway, or a repository's commits with a build command), each
 * point's counted batches, the points it could not count and why, and the comparisons that
 * confirmed each step. It is rewritten after every point, and a bisection resumes from it.
 */
import type { RecordHeader, RequestSourceRecord, RunEnvironment } from './types.js';
import type { AllocationCallerMove, InstructionDesign, InstructionMoves } from './instruction-types.js';

/** Where the points come from. */
export type BisectSource =
  | { kind: 'versions'; gateway: string }
  | {
      kind: 'commits';
      /** The repository's folder. */
      repo: string;
      /** Shell command run in each commit's worktree before it starts; its exit code decides whether the commit builds. */
      build: string | null;
      /** Shell command that starts the gateway, run in the commit's worktree (a `cmd:` gateway). */
      run: string;
    };

export interface BisectConfig extends RequestSourceRecord {
  source: BisectSource;
  /** The good (older) and bad (newer) ends as given. */
  good: string;
  bad: string;
  /** Relative change per request between two neighbouring points that is a step. */
  threshold: number;
  /** A range whose interval rules out the threshold and whose ends differ by less than this share of it is not split: taken as flat. */
  splitFraction: number;
  /**
   * The least scatter of one point's count between processes (log units) the bisection assumes: a
   * floor under the scatter it measures from its own repeats. Files written before it was measured
   * said `pointSd` (the scatter assumed); readBisectResult reads that as the floor.
   */
  minPointSd: number;
  /** Counts of a point at most (the first and its repeats). */
  maxCountsPerPoint: number;
  /** How each point is counted: the comparison's design by instructions. */
  instructions: InstructionDesign;
  /** Each step found is confirmed by a full `gwprof compare --measure instructions` of its two points. */
  confirm: boolean;
  /**
   * What a point's value is: instructions per validated request, or (`memory`) allocations per
   * validated request counted in the same batches (a native gateway's allocator calls, a Node
   * gateway's bytes on V8's heap). Absent in older files: instructions.
   */
  measure?: BisectMeasure;
}

export type BisectMeasure = 'instructions' | 'memory';

/** Why a point was not counted (`git bisect skip`). */
export interface BisectSkip {
  /** `count`: a memory bisection's batch counted no allocations. */
  stage: 'install' | 'build' | 'start' | 'validate' | 'count';
  reason: string;
}

/** One counted batch of one point, in its own fresh process. */
export interface BisectCount {
  startedAt: string;
  pid: number;
  requests: number;
  ok: number;
  instructions: number;
  instructionsPerOkRequest: number;
  /** A native gateway's allocator calls in the batch; null for a Node gateway. */
  allocationCalls: number | null;
  /** A Node gateway's bytes allocated on V8's heap in the batch; null for a native gateway, absent in older files. */
  allocatedBytes?: number | null;
  warmupSec: number;
}

export interface BisectPoint {
  /** 0 is the good end, the last the bad end. */
  index: number;
  /** A version, or a commit's full hash. */
  id: string;
  /** What a reader recognises: the version, or the short hash and the commit's subject. */
  label: string;
  /** The gateway spec that runs it (a `cmd:` for a commit). */
  spec: string;
  counts: BisectCount[];
  skipped: BisectSkip | null;
}

/** The full comparison of a step's two points, in a folder of the bisection's own. */
export interface BisectConfirmation {
  good: number;
  bad: number;
  /** Relative to the bisection's folder. */
  runDir: string;
  verdict: string | null;
  relativeChange: number | null;
  interval: { low: number; high: number } | null;
  exitCode: number | null;
  /** Where the instructions went between the two points, from the comparison's profile pair; null without one. */
  moves: InstructionMoves | null;
  /** The comparison's allocation verdict (a memory bisection's confirmation); absent when it gave none. */
  allocations?: {
    verdict: string;
    relativeChange: number;
    interval: { low: number; high: number } | null;
    /** The allocator's callers that moved most between the two points. */
    functions: AllocationCallerMove[];
  };
  error?: string;
}

export interface BisectResult extends RecordHeader<'bisect'> {
  config: BisectConfig;
  environment: RunEnvironment | null;
  points: BisectPoint[];
  confirmations: BisectConfirmation[];
  /** How many times the bisection was resumed from this file. */
  resumes: number;
  stopReason: string;
  analysis: BisectAnalysis | null;
}

/** A range between two counted points: its change and the interval of it, from the measured scatter and each end's counts. */
export interface BisectRange {
  good: number;
  bad: number;
  relativeChange: number;
  /** At BisectNoise.confidence; absent in files analysed before the scatter was measured. */
  interval?: { low: number; high: number };
}

/** A step between two neighbouring counted points (only skipped points between them). */
export interface BisectStep extends BisectRange {
  /** Points between them that could not be counted: the step lies somewhere in that range. */
  skippedBetween: number[];
  kind: 'regression' | 'improvement';
  /** The interval holds the threshold even after repeats: a step, not told from the threshold. */
  nearThreshold: boolean;
  /** One line that measures the step again with the full comparison. */
  reproduce: string;
}

/** One point's scatter between processes, measured from the bisection's repeats, and what it can resolve. */
export interface BisectNoise {
  /** Pooled sd of the log counts of every point counted more than once; null before any repeat. */
  measuredSd: number | null;
  /** Its degrees of freedom: the counts beyond each repeated point's first. */
  df: number;
  pointsRepeated: number;
  /** The least sd assumed (--min-point-sd). */
  floor: number;
  /** What the decisions use: the measured sd, or the floor when larger. */
  sd: number;
  /** Two-sided confidence of a range's interval (flat, near the threshold). */
  confidence: number;
  /** A step is named only when no change lies outside its interval at this confidence (every neighbouring pair of the history at once). */
  stepConfidence: number;
  /** The smallest threshold a range can be found flat at, with the most counts a point (maxCountsPerPoint). */
  resolvableThreshold: number;
  /** Counts a point that the bisection's threshold would take at this sd. */
  countsForThreshold: number;
}

export type PublishedBisect = BisectResult & { analysis: BisectAnalysis };

export interface BisectAnalysis {
  /** Mean instructions (a memory bisection: allocations) per validated request of each counted point, by index; null when not counted. */
  perRequest: (number | null)[];
  /** What perRequest counts: instructions/req, allocations/req or bytes/req; absent in older files (instructions/req). */
  unit?: string;
  /** The confirmed step with the largest change, either way; null when none. Absent in older files. */
  largestStep?: BisectStep | null;
  /** Relative change from the good end to the bad end. */
  totalChange: number | null;
  /** Steps found by the counts, less those their confirmation did not confirm. */
  steps: BisectStep[];
  /** Steps found by the counts whose full comparison found no change, or a change the other way. */
  unconfirmedSteps?: BisectStep[];
  /** Ranges taken as flat: their interval rules out the threshold, and their ends differ by less than its split share. */
  flatRanges: BisectRange[];
  /** Ranges the measured scatter left undecided after their ends were counted up to the limit; absent in older files. */
  unresolvedRanges?: BisectRange[];
  /** The measured scatter; absent in files analysed before it was measured. */
  noise?: BisectNoise;
  /** What is still to count (empty when the bisection is finished). */
  pending: number[];
  verdict: string;
  reasons: string[];
  exitCode: number;
}
