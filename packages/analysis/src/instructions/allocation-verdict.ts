/**
 * The verdict on allocations per validated request of a comparison by instructions: counted in the
 * verdict's own batches (a native gateway's allocator calls, or a Node gateway's bytes on V8's heap),
 * decided by the instructions' test at the instructions' last look, over the epochs they kept. Counts
 * that repeat decide a change of the threshold (1%) where Apollo Router's dhat budgets allow 5%.
 * A regression fails the comparison (exit 1) beside the instructions'; a verdict not reached is shown
 * and leaves the exit code to the instructions.
 */
import { EXIT, type AllocationCallerMove, type AllocationVerdict, type ExitCode, type InstructionBatch } from '@gwprof/results';
import { mean } from '../descriptive.js';
import { disturbedEpochs } from './disturbed-epochs.js';
import { allocationKind, allocationsPerOkRequest, allocationUnit, decidePerRequest, perRequestMetric, type InstructionTestDesign } from './instruction-test.js';

/** Functions listed where allocations moved. */
const TOP_FUNCTIONS = 10;

/** null when the sides do not both count allocations of one kind. */
export function allocationVerdict(batches: readonly InstructionBatch[], design: InstructionTestDesign): AllocationVerdict | null {
  const kind = allocationKind(batches);
  if (kind === null) return null;
  const perRequest = allocationsPerOkRequest(kind);
  const setAside = new Set(disturbedEpochs(batches, design.threshold).map((d) => d.epoch));
  const counted = batches.filter((b) => !setAside.has(b.epoch));
  const unit = allocationUnit(kind);
  return {
    kind,
    unit,
    decision: decidePerRequest(batches, design, perRequest),
    metric: perRequestMetric(counted, perRequest, kind === 'allocator calls' ? 'allocationsPerOkRequest' : 'allocatedBytesPerOkRequest', unit),
    functions: kind === 'allocator calls' ? callerMoves(counted) : [],
  };
}

/**
 * Each allocator caller's calls per validated request on each side, the mean over that side's
 * batches; the largest moves first, those that did not move left out.
 */
export function callerMoves(batches: readonly InstructionBatch[], top = TOP_FUNCTIONS): AllocationCallerMove[] {
  const perSide = (side: InstructionBatch['side']) => {
    const mine = batches.filter((b) => b.side === side && b.ok > 0 && b.allocationCallers);
    const names = new Set(mine.flatMap((b) => Object.keys(b.allocationCallers!)));
    return new Map([...names].map((name) => [name, mean(mine.map((b) => (b.allocationCallers![name] ?? 0) / b.ok))]));
  };
  const baseline = perSide('baseline');
  const candidate = perSide('candidate');
  const names = new Set([...baseline.keys(), ...candidate.keys()]);
  return [...names]
    .map((functionName) => {
      const b = baseline.get(functionName) ?? 0;
      const c = candidate.get(functionName) ?? 0;
      return { functionName, baselinePerOkRequest: b, candidatePerOkRequest: c, deltaPerOkRequest: c - b };
    })
    .filter((m) => m.deltaPerOkRequest !== 0)
    .sort((x, y) => Math.abs(y.deltaPerOkRequest) - Math.abs(x.deltaPerOkRequest) || x.functionName.localeCompare(y.functionName))
    .slice(0, top);
}

/** The exit code with the allocation verdict's part: a regression of allocations fails a comparison the instructions passed or left undecided. */
export function exitCodeWithAllocations(exitCode: ExitCode, verdict: AllocationVerdict | null): ExitCode {
  const fails = verdict?.decision.outcome === 'regression';
  return fails && (exitCode === EXIT.ok || exitCode === EXIT.inconclusive) ? EXIT.failed : exitCode;
}

/** One line for the verdict's reasons. */
export function allocationReason(verdict: AllocationVerdict): string {
  const { outcome, reason } = verdict.decision;
  // The test's words are about time; more allocations are more, not slower.
  const words = reason.replace(/: slower$/, ': more per request').replace(/: faster$/, ': fewer per request');
  return `${verdict.kind === 'allocator calls' ? 'allocations' : 'V8 heap bytes allocated'} per request: ${outcome === 'continue' ? 'undecided' : outcome} (${words})`;
}
