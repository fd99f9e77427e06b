/** A bisection in the terminal: the verdict, the points counted, each step with its reproduce line. */
import type { PublishedBisect } from '@gwprof/results';
import { formatTextTable } from '../text-table.js';
import { instructionBucketLine } from '../compare/instruction-moves.js';
import { allocationCallersLine, largestStepLine, pointHeaders, confirmationLine, noiseLine, pointRows, stepTitle, undecidedLines } from './bisect-rows.js';

export function renderBisectTable(bisect: PublishedBisect): string {
  const { analysis } = bisect;
  const table = formatTextTable(
    pointHeaders(bisect).map((header, i) => ({ header, align: i === 2 || i === 3 || i === 4 ? ('right' as const) : ('left' as const) })),
    pointRows(bisect).map((row) => [...row.slice(0, 5), row[5]!.slice(0, 90)]),
  );
  const steps = analysis.steps.flatMap((step) => {
    const confirmation = confirmationLine(bisect, step);
    const moves = bisect.confirmations.find((c) => c.good === step.good && c.bad === step.bad)?.moves;
    return [
      `  ${stepTitle(bisect, step)}`,
      ...(confirmation ? [`    ${confirmation}`] : []),
      ...(moves ? [`    ${instructionBucketLine(moves)}`] : []),
      ...optional(allocationCallersLine(bisect, step)).map((line) => `    ${line}`),
      `    reproduce: ${step.reproduce}`,
    ];
  });
  const undecided = undecidedLines(bisect);
  const noise = noiseLine(bisect);
  return [
    `BISECT: ${analysis.verdict.toUpperCase()}`,
    ...analysis.reasons.map((r) => `  ${r}`),
    '',
    table,
    ...(steps.length > 0 ? ['', 'Steps:', ...steps] : []),
    ...optional(largestStepLine(bisect)).map((line) => `\n${line}`),
    ...(undecided.length > 0 ? ['', 'Not named as steps:', ...undecided.map((line) => `  ${line}`)] : []),
    ...(noise ? ['', noise] : []),
  ].join('\n');
}

function optional(line: string | null): string[] {
  return line === null ? [] : [line];
}
