/**
 * The `analysis` part of a comparison by instructions, from its record alone: the verdict on the
 * epochs' batches, the gating metric, each epoch's change, where the instructions went (from the
 * profile pair's reduced profiles, which the caller reads), and what the measure saw.
 */
import { buildsBySide, type CompareAnalysis, type CompareLevel, type CompareResult } from '@gwprof/results';
import type { BucketRule } from '../profiles/rules.js';
import { comparisonOutcome } from '../compare/comparison-outcome.js';
import { instructionBreakdown, instructionMoves, type InstructionProfile } from './instruction-profile.js';
import { INSTRUCTION_LEVEL, allocationKind, allocationMetric, instructionMetric, instructionObservations } from './instruction-test.js';
import type { ComparisonVerdict } from '../compare/verdict.js';
import { instructionMeasure } from '../compare/measure-statement.js';
import { disturbedEpochs } from './disturbed-epochs.js';
import { allocationReason, allocationVerdict, exitCodeWithAllocations } from './allocation-verdict.js';
import { instructionTestDesign } from '../judge-record.js';

export function analyzeInstructionComparison(
  compare: CompareResult,
  verdict: ComparisonVerdict,
  profiles: { baseline: InstructionProfile; candidate: InstructionProfile } | null,
  rules: readonly BucketRule[],
): CompareAnalysis {
  const design = compare.config.design;
  if (!design?.instructions) throw new RangeError('a comparison by instructions needs design.instructions');
  const batches = compare.batches ?? [];
  const setAside = new Set(disturbedEpochs(batches, design.threshold).map((d) => d.epoch));
  const counted = batches.filter((b) => !setAside.has(b.epoch));
  const allocations = allocationMetric(counted);
  const record = compare.instructionProfile;
  const moves =
    profiles && record?.sides
      ? instructionMoves(
          {
            breakdown: instructionBreakdown(profiles.baseline, rules),
            ok: record.sides.baseline.batch.ok,
            requests: record.sides.baseline.batch.requests,
          },
          {
            breakdown: instructionBreakdown(profiles.candidate, rules),
            ok: record.sides.candidate.batch.ok,
            requests: record.sides.candidate.batch.requests,
          },
          record.separateCallers,
          !record.sides.baseline.node && !record.sides.candidate.node,
          record.callEdges === true,
        )
      : null;
  const level: CompareLevel = {
    level: INSTRUCTION_LEVEL,
    label: 'one request at a time',
    decision: verdict.decisions.get(INSTRUCTION_LEVEL) ?? null,
    gating: instructionMetric(counted),
    blocks: instructionObservations(batches).map((o) => ({ block: o.epoch, epoch: o.epoch, relativeChange: Math.expm1(o.x) })),
    metrics: allocations ? [allocations] : [],
    buckets: [],
    functions: [],
    instructionMoves: moves,
    allocation: null,
    pprof: null,
  };
  const outcome = comparisonOutcome(compare, verdict);
  const allocation = compare.state === 'complete' ? allocationVerdict(batches, instructionTestDesign(compare)) : null;
  return {
    levels: [level],
    ...outcome,
    ...(allocation
      ? {
          verdictReasons: [...outcome.verdictReasons, allocationReason(allocation)],
          exitCode: exitCodeWithAllocations(outcome.exitCode, allocation),
          allocationVerdict: allocation,
        }
      : {}),
    windows: [],
    measure: instructionMeasure(design, compare.config, compare.instructionEpochs ?? [], record?.error, buildsBySide(compare), allocationKind(counted)),
  };
}
