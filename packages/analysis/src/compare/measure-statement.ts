/**
 * What a comparison's verdict measured, and what that measure cannot see: stated in the verdict,
 * the PR comment and compare.json, so no reader takes a count for a time or the reverse.
 */
import type { AllocationKind, CompareConfig, CompareDesign, InstructionEpoch, MeasureStatement, SideBuilds } from '@gwprof/results';

/** What the sides' answers were checked against, where that is not the same goldens for both. */
type Goldens = Pick<CompareConfig, 'expect' | 'candidateExpect' | 'expectNone'>;

export function timeMeasure(goldens: Goldens): MeasureStatement {
  return {
    kind: 'time',
    measured: "the gateway process's CPU time (user + system) per successful request, in timed windows of both sides",
    cannotSee: ["changes smaller than the machine's drift between the sides' windows, which the epochs' spread measures", ...unseenAnswers(goldens)],
    notes: goldensNotes(goldens),
  };
}

/** Without goldens a successful request is one with a 2xx, JSON and no errors, whatever its data. */
function unseenAnswers(goldens: Goldens): string[] {
  return goldens.expectNone ? ['wrong data in an answer: answers were not compared with goldens (--expect-none), only their status, JSON and errors'] : [];
}

function goldensNotes(goldens: Goldens): string[] {
  if (!goldens.candidateExpect) return [];
  return [`each side's answers were checked against its own goldens: the baseline's ${goldens.expect ?? 'none'}, the candidate's ${goldens.candidateExpect}`];
}

export function instructionMeasure(
  design: CompareDesign,
  goldens: Goldens,
  epochs: readonly InstructionEpoch[],
  profileError?: string,
  native: SideBuilds = {},
  /** What the allocation row counts, when one is shown: what it counts is said. */
  allocationsShown: AllocationKind | null = null,
): MeasureStatement {
  const flags = design.instructions?.v8Flags.join(' ') ?? '';
  const sides = ['baseline', 'candidate'] as const;
  const allNative = sides.every((side) => native[side] !== undefined);
  const unreached = sides.filter((side) => native[side] === undefined && epochs.some((e) => !e.sides[side].node));
  const batches = `in batches of ${design.instructions?.batchRequests ?? '?'} requests sent one at a time`;
  return {
    kind: 'instructions',
    measured: allNative
      ? `user-space instructions executed by the gateway process per successful request (callgrind's Ir, all its threads), ${batches}`
      : `user-space instructions executed by the gateway process per successful request (callgrind's Ir, all its threads), ${batches}; Node gateways at V8's baseline tiers (${flags})`,
    cannotSee: [
      'kernel and system-call time',
      'cache misses, memory stalls and branch mispredictions (an instruction costs the same however long it waits)',
      'contention between threads or requests (requests go one at a time)',
      'waiting on I/O and on the subgraphs',
      ...(allNative ? nativeUnseen : nodeUnseen),
      `time itself: under callgrind the gateway runs 30 to 60 times slower on valgrind's clock, so no CPU time per request is shown beside the count (--measure time measures it)`,
      ...unseenAnswers(goldens),
    ],
    notes: [
      ...goldensNotes(goldens),
      ...sides.flatMap((side) => {
        const build = native[side];
        return build
          ? [`the ${side} is a native gateway (${build.name} ${build.version}, ${build.profile}): counted as built, with nothing added to its process`]
          : [];
      }),
      ...(allocationsShown === 'allocator calls' ? [NATIVE_ALLOCATIONS] : allocationsShown === 'V8 bytes' ? [NODE_ALLOCATIONS] : []),
      ...unreached.map(
        (side) =>
          `the ${side} is not a Node process that gwprof's preload reached: counted without V8 flags and without a full GC before each batch, so its count may vary with its JIT and GC`,
      ),
      ...(profileError
        ? [`no breakdown of where the instructions went: the pair that shows it failed (${profileError}); the verdict does not depend on it`]
        : []),
    ],
  };
}

/** What the allocation row of a native gateway counts, and what it cannot. */
const NATIVE_ALLOCATIONS =
  "a native gateway's allocations per request are the calls into its allocator that obtain memory (Rust's allocation shims, jemalloc, mimalloc, the C library's malloc family), counted in the same batches: not bytes, not frees, and not an allocation the compiler inlined into its caller";

/** What the allocation row of a Node gateway counts, and what it cannot. */
const NODE_ALLOCATIONS =
  "a Node gateway's allocations per request are the bytes allocated on V8's heap in the same batches (the used heap's growth plus what each GC freed, by v8.GCProfiler): not the process's malloc (Buffers' backing stores, native addons), and an object a GC moves is counted once";

/** What a count of Node gateways cannot see: V8's optimising tier. */
const nodeUnseen = [
  "effects of V8's optimising tier (TurboFan), such as deoptimisation loops: the count runs without it",
  "a change's size in optimised code: the count weighs JavaScript at its baseline-tier cost, so a change in work done outside JavaScript (stack traces, the GC, native code) reads smaller than in time, and one in plain JavaScript larger (Apollo Gateway 2.9.0 → 2.14.4: +20% counted, +41% CPU time)",
];

/** What a count of native gateways cannot see: valgrind runs their threads one at a time. */
const nativeUnseen = [
  "how the gateway's threads share the cores: valgrind runs one thread at a time, so the async runtime's scheduling, work stealing and lock waits across cores are not what they are natively",
];
