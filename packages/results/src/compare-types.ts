/**
 * A comparison's compare.json: the raw record (epochs, windows, batches: what was measured), written
 * by collect after every window or batch, and `analysis` (the verdict, metrics, moves), written by
 * the publish pass.
 */
import type { ExitCode } from './exit-codes.js';
import type {
  AllocationVerdict,
  InstructionBatch,
  InstructionDesign,
  InstructionMoves,
  InstructionProfileRecord,
  InstructionSide,
} from './instruction-types.js';
import type { RecordHeader, RequestSourceRecord, RunEnvironment } from './record-types.js';
import type { StepAnalysis, StepRecord } from './step-types.js';

export interface SampleSummary {
  n: number;
  median: number;
  mean: number;
  /** exp(mean of logs) over positive values (NaN otherwise): what the change compares. */
  geometricMean: number;
  values: number[];
}

/** An informational metric of one level: both sides' windows and the change between them. */
export interface MetricComparison {
  /** e.g. rps, p50, p99, rssMaxMB, fanout */
  metric: string;
  unit: string;
  higherIsBetter: boolean;
  baseline: SampleSummary;
  candidate: SampleSummary;
  /**
   * Ratio of the geometric means of the candidate's and the baseline's windows, minus 1 (the mean
   * of the blocks' paired log ratios); null when undefined.
   */
  relativeChange: number | null;
  /** Interval of the relative change, at `confidence`; null with fewer than two blocks. */
  interval: [number, number] | null;
  confidence: number | null;
  /** How the interval was computed, in words (its level, paired or not, adjusted for looks or not). */
  method: string;
}

/** The sequential test of a level's gating metric (CPU ms per successful request). */
/**
 * The sequential test of a level's gating metric (CPU ms per successful request) on epoch means:
 * every verdict is read off one interval, the one shown (analysis's epoch-test.ts).
 */
export interface LevelDecision {
  outcome: 'regression' | 'no change' | 'improvement' | 'continue';
  /** Epochs (process pairs) with a block at this level, and the blocks in them. */
  epochs: number;
  blocks: number;
  /** exp(mean of the epochs' log ratios) − 1: candidate over baseline. */
  relativeChange: number;
  /**
   * mean ± boundary · sd/√epochs, as relative changes: under no change it lies wholly above 0 at any
   * look with probability ≤ alpha. null before the first look.
   */
  interval: { low: number; high: number } | null;
  /** The false-regression rate of this level's test (α split across levels), spent over looks up to maxEpochs. */
  alpha: number;
  maxEpochs: number;
  reason: string;
  /** Epochs left out of the test: by instructions, those far from the others on both sides at once. */
  setAsideEpochs?: number[];
}

/** One block of a level: the gating metric's change in it, candidate over baseline (geometric means). */
export interface BlockChange {
  block: number;
  epoch: number;
  relativeChange: number;
}

/**
 * Whether a bucket's or a function's cost moved more than its own noise: the epochs' paired
 * differences (candidate − baseline, ms per successful request), their t interval at a level that
 * holds for all the items tested together, and `moved` when it excludes 0. null with fewer than two
 * epochs, or for a comparison of finished runs.
 */
export interface MoveNoise {
  interval: [number, number];
  /** The interval's confidence for each item; the family of `familySize` items tested holds at `familyConfidence`. */
  confidence: number;
  familyConfidence: number;
  familySize: number;
  moved: boolean;
}

/** A CPU bucket of one level: milliseconds per successful request on each side. */
export interface BucketDelta {
  bucket: string;
  baselineMsPerOkRequest: number;
  candidateMsPerOkRequest: number;
  deltaMsPerOkRequest: number;
  noise: MoveNoise | null;
}

/** A function whose self time per successful request moved between the sides. */
export interface FunctionMove {
  functionName: string;
  url: string;
  line: number;
  bucket: string;
  baselineMsPerOkRequest: number;
  candidateMsPerOkRequest: number;
  deltaMsPerOkRequest: number;
  noise: MoveNoise | null;
}

/** A function whose allocation per successful request moved between the sides. */
export interface AllocationMove {
  functionName: string;
  url: string;
  line: number;
  bucket: string;
  baselineBytesPerOkRequest: number;
  candidateBytesPerOkRequest: number;
  deltaBytesPerOkRequest: number;
  noise: MoveNoise | null;
}

/** A bucket's allocation per successful request on each side. */
export interface AllocationBucketMove {
  bucket: string;
  baselineBytesPerOkRequest: number;
  candidateBytesPerOkRequest: number;
  deltaBytesPerOkRequest: number;
  noise: MoveNoise | null;
}

/** What each side allocated per successful request at a level, all its windows together. */
export interface AllocationComparison {
  baselineBytesPerOkRequest: number;
  candidateBytesPerOkRequest: number;
  deltaBytesPerOkRequest: number;
  /** The change's noise from the epochs, alone (a family of one). */
  noise: MoveNoise | null;
  /** Node's GC pause ms per successful request on each side (null without Node's account). */
  gcMsPerOkRequest: { baseline: number | null; candidate: number | null };
  /** Every bucket that allocated, largest move first (the CPU rules applied to allocation stacks). */
  buckets: AllocationBucketMove[];
  /** The functions whose allocation moved most, largest move first. */
  functions: AllocationMove[];
  /** Allocation flame graph pages of each side (all its windows), relative to the run folder. */
  flamegraphs: { baseline: string; candidate: string } | null;
  /**
   * Whose frames the buckets and functions name: a comparison's windows take no inlining-off
   * profile, so a function V8 inlined is charged to its caller (AllocationSummary.frames). Absent in older files: physical.
   */
  frames?: 'physical';
}

export interface CompareLevel {
  /** Connections, or requests per second for an open-loop comparison (config.load). */
  level: number;
  /** "c=20" or "300 req/s". */
  label: string;
  /** null for a comparison of finished runs (one value per side: deltas only). */
  decision: LevelDecision | null;
  /** The gating metric (design.measure: CPU ms or instructions per successful request), summarised like the others. */
  gating: MetricComparison;
  /** The gating metric's change block by block; [] for a comparison of finished runs. */
  blocks: BlockChange[];
  metrics: MetricComparison[];
  /** Largest move first; [] without profiles. */
  buckets: BucketDelta[];
  /** The functions whose self time per request moved most; [] without profiles. */
  functions: FunctionMove[];
  /** A comparison by instructions: where they went, from its profile pair; absent or null without one. */
  instructionMoves?: InstructionMoves | null;
  /** Allocation per request of both sides; null without allocation profiles. */
  allocation: AllocationComparison | null;
  /**
   * pprof profiles of each side (all its windows, CPU per successful request) for
   * `pprof -diff_base`, and a flame graph page of each; paths relative to the run folder.
   */
  pprof: { baseline: string; candidate: string; command: string; flamegraphs: { baseline: string; candidate: string } } | null;
}

/** One measured window of a comparison: a short step on one side, at its place in a block of windows in random order. */
export interface CompareWindow {
  /** The pair of processes it ran on; both sides are restarted between epochs. */
  epoch: number;
  /** Blocks are numbered across the comparison; a block holds windowsPerSide windows of each side at one level. */
  block: number;
  /** The window's place in its block, from 0: the sides' order is drawn at random for each block. */
  position: number;
  side: 'baseline' | 'candidate';
  step: StepRecord;
  /** With design.gcBeforeWindow: the full GC forced on this side just before the window (absent otherwise). */
  forcedGc?: { ms: number; heapAfterBytes: number } | null;
}

/** A side's warm-up after its start: load until its CPU per request stopped falling (not part of the statistics). */
export interface WarmupRecord {
  startedAt: string;
  /** Waiting for the gateways to be quiet before it, s. */
  settleSec: number;
  seconds: number;
  /** False when it reached the longest warm-up still falling. */
  steady: boolean;
  note: string;
  /** The gateway's CPU ms per successful response, second by second (null: no response that second). */
  cpuMsPerRequest: Array<number | null>;
}

/** One side's start in an epoch: where the time went. */
export interface EpochSide {
  pid: number;
  /** 1 for the side started first (launched first, when the sides start together). Each side is warmed up at once after its own start. */
  order: number;
  /** ms: the adapter's preparation (a build, only the first time), until it listened, until it answered. */
  startup: { prepareMs: number; listenMs: number; readyMs: number };
  warmup: WarmupRecord | null;
}

export interface CompareEpoch {
  epoch: number;
  startedAt: string;
  /** When its last window ended (the look after it happens then); null while it runs. */
  finishedAt: string | null;
  /** How long stopping the previous epoch's processes took, ms. */
  stopMs: number;
  /** The seed both sides' V8 got this epoch (--hash-seed, --random-seed); null when seeds are not set. */
  seed: number | null;
  /** Both sides were launched and warmed up at the same time (a simultaneous comparison); absent in older files: one after the other. */
  warmedTogether?: boolean;
  sides: { baseline: EpochSide; candidate: EpochSide };
}

/** An epoch of a comparison by instructions: a fresh pair of processes under callgrind. */
export interface InstructionEpoch {
  epoch: number;
  startedAt: string;
  finishedAt: string | null;
  sides: { baseline: InstructionSide; candidate: InstructionSide };
}

/** How many looks the comparison's error spending is spread over, fixed before the first look. */
export interface EpochPlan {
  maxEpochs: number;
  /** The pace it was fixed from: seconds per epoch, measured on the epochs before the first look (the first excluded when there are others). */
  epochSeconds: number;
  fixedAfterEpoch: number;
  /**
   * A plan re-fixed from the pace after every epoch, before that epoch's look (by instructions): the
   * last look as planned at each look from the first on; maxEpochs is the latest. Absent: fixed once.
   */
  lastLooks?: number[];
}

/** What the budget fits at the epochs' pace against the fewest epochs a verdict needs, as known after `afterEpoch`. */
export interface BudgetFit {
  afterEpoch: number;
  epochsThatFit: number;
  epochsNeeded: number;
  /** The pace: seconds per epoch (the first epoch's, builds and all, until there are others). */
  epochSeconds: number;
  /** The smallest whole --budget that would fit the epochs needed at that pace; null when the budget does. */
  budgetMinutesNeeded: number | null;
}

export interface CompareConfig extends RequestSourceRecord {
  baseline: string;
  candidate: string;
  /**
   * The goldens the candidate's answers were checked against when they are its own (a PR that
   * changes answers on purpose, --candidate-goldens); null or absent: the baseline's (`expect`).
   */
  candidateExpect?: string | null;
  /** The demo's subgraphs both sides shared: Node or native; absent in older results (node). */
  subgraphs?: 'node' | 'native';
  baselineEnv: Record<string, string>;
  candidateEnv: Record<string, string>;
  /** closed: levels are connections; open: levels are requests per second, at these arrivals and cap. */
  load: { kind: 'closed' } | { kind: 'open'; arrivals: 'poisson' | 'uniform'; maxInFlight: number };
  /** Load levels; every epoch measures a block at each level still open. */
  levels: number[];
  profile: boolean;
  /** Mean bytes between allocation samples; null when allocations were not sampled. */
  heapSamplingBytes: number | null;
  /** The Node.js each side ran on (process.version of the binary); null for a comparison of finished runs. */
  nodes: { baseline: string; candidate: string } | null;
  /** How the windows were measured and judged; null for a comparison of two finished runs (nothing measured). */
  design: CompareDesign | null;
}

/** The measurement and the sequential test of a comparison that measured both sides. */
export interface CompareDesign {
  /** `no change` means the interval lies within ±threshold. */
  threshold: number;
  /** False regression rate of the whole comparison (split across levels); the same for improvement. */
  alpha: number;
  /** No verdict before this many epochs. */
  minEpochs: number;
  /** Error spending α · (n / maxEpochs)^ρ over the looks. */
  spendingPower: number;
  /**
   * A regression or an improvement must also hold with the epoch that pulls most its way left out;
   * otherwise the comparison goes on, and ends inconclusive at its last look. Absent in older results (false).
   */
  holdWithoutFarthest?: boolean;
  /** Measured seconds per window, after a lead-in of leadInSec on the same connections. */
  windowSec: number;
  leadInSec: number;
  /** Longest warm-up of each side after its start, s; it ends once CPU per request stops falling. */
  warmupSec: number;
  /** Blocks at each level before both sides are restarted (a new epoch). */
  blocksPerEpoch: number;
  /** Windows of each side in a block, in random order. */
  windowsPerSide: number;
  /**
   * Both sides loaded at the same time in every window, each at the level, sharing the gateway
   * core, instead of in turn: the machine's drift then moves both alike. Absent in older results (false).
   */
  simultaneous?: boolean;
  /**
   * A full GC forced on each side just before each of its windows, so that every window starts
   * from the same point of the collector's cycle. Absent in older results (false).
   */
  gcBeforeWindow?: boolean;
  /**
   * Both sides launched and warmed up at the same time at the start of each epoch (always so when
   * simultaneous), then measured as the design says. Absent in older results (false).
   */
  warmTogether?: boolean;
  budgetMinutes: number;
  /**
   * What the verdict is decided on: the gateway's CPU time per successful request in timed
   * windows, or its instructions per successful request counted under callgrind. Absent in older
   * results: time.
   */
  measure?: 'time' | 'instructions';
  /** How instructions are counted; present when measure is instructions. */
  instructions?: InstructionDesign;
  /** V8 flags on both sides' node command lines. */
  v8Flags: string[];
  /** A fresh --hash-seed and --random-seed every epoch, the same for both sides. */
  seedPerEpoch: boolean;
}

/** Everything derived from the windows (or the two finished runs) by the publish pass. */
export interface CompareAnalysis {
  levels: CompareLevel[];
  /** `error`: the comparison did not run to its end; `invalid`: a response failed validation. */
  verdict: 'regression' | 'no change' | 'improvement' | 'inconclusive' | 'invalid' | 'error' | 'deltas only';
  verdictReasons: string[];
  /** What fixes an invalid comparison, a command each (--candidate-goldens, gwprof goldens …); absent when none does. */
  fixes?: string[];
  /** The process's exit code (EXIT, analysis's exit-code.ts): 0 no change or improvement, 1 regression, 2 error, 3 inconclusive, 4 invalid, 130 interrupted. */
  exitCode: ExitCode;
  /** Profile analysis of each window that has a profile. */
  windows: StepAnalysis[];
  /** What the verdict measured, and what that measure cannot see; absent in files published before it was stated. */
  measure?: MeasureStatement;
  /** A comparison by instructions: the verdict on allocations per request; absent when they were not counted on both sides. */
  allocationVerdict?: AllocationVerdict;
}

/** The gating measure in words, for the verdict, the comment and compare.json. */
export interface MeasureStatement {
  kind: 'time' | 'instructions';
  /** One line: what was measured, per what, and how. */
  measured: string;
  /** What this measure cannot see, one item each. */
  cannotSee: string[];
  /** Remarks on this run's sides (a gateway counted without V8 flags, …). */
  notes: string[];
}

export interface CompareResult extends RecordHeader<'compare'> {
  /** 'windows': both builds measured here; 'runs': two finished sweeps' tables (deltas only). */
  mode: 'windows' | 'runs';
  config: CompareConfig;
  environment: RunEnvironment | null;
  /** mode 'runs': the two run folders compared. */
  runs: { baseline: string; candidate: string } | null;
  epochs: CompareEpoch[];
  windows: CompareWindow[];
  /** A comparison by instructions: its counted batches, and each epoch's sides; absent otherwise. */
  batches?: InstructionBatch[];
  instructionEpochs?: InstructionEpoch[];
  /** A comparison by instructions: the pair that shows where they went; absent without one. */
  instructionProfile?: InstructionProfileRecord | null;
  /** The looks' plan, fixed before the first look; null until then, and for a comparison of finished runs. */
  plan: EpochPlan | null;
  /** The budget against the epochs a verdict needs, checked after each epoch before the first look; absent in older results. */
  budgetFit?: BudgetFit | null;
  /** Why measuring stopped: every level decided, the budget, a failure, an interruption. */
  stopReason: string;
  /** Written by the publish pass; null until then. */
  analysis: CompareAnalysis | null;
}

/** A comparison after the publish pass: what every compare renderer takes. */
export type PublishedCompare = CompareResult & { analysis: CompareAnalysis };
