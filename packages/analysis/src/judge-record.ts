/**
 * The verdict of a comparison record as it stands, by the measure its design names: the one judge
 * that collect asks after every epoch and publish asks once more from the file.
 */
import { compareLoadAt, loadLabel, type CompareResult } from '@gwprof/results';
import { failedWindows, judgeComparison } from './compare/compare-windows.js';
import { judgeInstructions, type InstructionTestDesign } from './instructions/instruction-test.js';
import type { ComparisonVerdict } from './compare/verdict.js';
import { compareValidationFixes, type SideFailures } from './failure-diagnosis.js';

export function judgeRecord(compare: Pick<CompareResult, 'config' | 'windows' | 'batches' | 'plan'>): ComparisonVerdict {
  const verdict = judgeByDesign(compare);
  if (verdict.verdict !== 'invalid') return verdict;
  const fixes = compareValidationFixes(failedSides(compare), compare.config);
  return fixes.length > 0 ? { ...verdict, fixes } : verdict;
}

/** Each failed window's or batch's failures, with its side. */
function failedSides(compare: Pick<CompareResult, 'windows' | 'batches'>): SideFailures[] {
  const windows = failedWindows(compare.windows).map((w) => ({ side: w.side, ...w.step }));
  const batches = (compare.batches ?? []).filter((b) => b.ok < b.requests);
  return [...windows, ...batches];
}

function judgeByDesign(compare: Pick<CompareResult, 'config' | 'windows' | 'batches' | 'plan'>): ComparisonVerdict {
  const design = compare.config.design;
  if (!design) throw new RangeError('only a comparison that measured both sides has a verdict');
  const { threshold, alpha, minEpochs, spendingPower } = design;
  // A run that ended before its plan was fixed never reached a look.
  const maxEpochs = compare.plan?.maxEpochs ?? minEpochs;
  if (design.measure === 'instructions') return judgeInstructions(compare.batches ?? [], instructionTestDesign(compare));
  const { load, levels } = compare.config;
  const label = (level: number) => loadLabel(compareLoadAt(load, level));
  return judgeComparison(compare.windows, {
    levels,
    label,
    threshold,
    alpha,
    minEpochs,
    maxEpochs,
    spendingPower,
    holdWithoutFarthest: design.holdWithoutFarthest,
  });
}

/** The test of a comparison by instructions, from its design and plan: the same for its instructions and its allocations. */
export function instructionTestDesign(compare: Pick<CompareResult, 'config' | 'plan'>): InstructionTestDesign {
  const design = compare.config.design;
  if (!design?.instructions) throw new RangeError('a comparison by instructions needs design.instructions');
  const { threshold, alpha, minEpochs, spendingPower } = design;
  const lastLooks = compare.plan?.lastLooks;
  return {
    threshold,
    alpha,
    minEpochs,
    maxEpochs: compare.plan?.maxEpochs ?? minEpochs,
    ...(lastLooks ? { lastLooks } : {}),
    spendingPower,
    minEpochSd: design.instructions.minEpochSd,
  };
}
