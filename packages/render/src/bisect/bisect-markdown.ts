/** A bisection as markdown: summary.md, and the text for an issue comment. */
import type { PublishedBisect } from '@gwprof/results';
import { escapeMarkdown, markdownCode } from '../escape.js';
import { formatMarkdownTable } from '../text-table.js';
import { fencedBlock } from '../markdown-blocks.js';
import { INSTRUCTION_FUNCTION_HEADERS, instructionBucketLine, instructionFunctionCells, instructionFunctionMoves } from '../compare/instruction-moves.js';
import {
  allocationCallersLine,
  largestStepLine,
  pointHeaders,
  bisectStatement,
  confirmationLine,
  noiseLine,
  pointRows,
  stepTitle,
  undecidedLines,
} from './bisect-rows.js';

export function renderBisectMarkdown(bisect: PublishedBisect): string {
  const { analysis, config } = bisect;
  const subject = config.source.kind === 'versions' ? `${config.source.gateway} ${config.good} → ${config.bad}` : `${config.good} → ${config.bad}`;
  const parts = [
    `## gwprof bisect: ${escapeMarkdown(analysis.verdict)}`,
    '',
    `${escapeMarkdown(subject)}, ${config.measure === 'memory' ? 'allocations' : 'instructions'} per validated request ${analysis.totalChange !== null ? `${(analysis.totalChange * 100).toFixed(2)}%` : '–'} from end to end.`,
    ...analysis.reasons.map((r) => `- ${escapeMarkdown(r)}`),
    '',
  ];
  const largest = largestStepLine(bisect);
  if (largest) parts.push(`**${escapeMarkdown(largest)}**`, '');
  for (const step of analysis.steps) {
    parts.push(`### ${escapeMarkdown(stepTitle(bisect, step))}`, '');
    const confirmation = confirmationLine(bisect, step);
    if (confirmation) parts.push(escapeMarkdown(confirmation), '');
    const callers = allocationCallersLine(bisect, step);
    if (callers) parts.push(escapeMarkdown(callers), '');
    const moves = bisect.confirmations.find((c) => c.good === step.good && c.bad === step.bad)?.moves;
    if (moves) {
      parts.push(escapeMarkdown(instructionBucketLine(moves)), '');
      const top = instructionFunctionMoves(moves, 6);
      if (top.length > 0)
        parts.push(
          formatMarkdownTable(
            INSTRUCTION_FUNCTION_HEADERS.map((header, i) => ({ header, align: i < 3 ? ('right' as const) : ('left' as const) })),
            top.map((f) => instructionFunctionCells(f).map((cell, i) => (i === 4 ? markdownCode(cell, true) : escapeMarkdown(cell)))),
          ),
          '',
        );
    }
    parts.push('Reproduce:', '', fencedBlock(step.reproduce, 'sh'), '');
  }
  const undecided = undecidedLines(bisect);
  if (undecided.length > 0) parts.push('### Not named as steps', '', ...undecided.map((line) => `- ${escapeMarkdown(line)}`), '');
  const noise = noiseLine(bisect);
  if (noise) parts.push('### Noise', '', escapeMarkdown(noise), '');
  parts.push(
    '### Points counted',
    '',
    formatMarkdownTable(
      pointHeaders(bisect).map((header, i) => ({ header, align: i === 0 || (i >= 2 && i <= 4) ? ('right' as const) : ('left' as const) })),
      pointRows(bisect).map((row) => row.map((cell) => escapeMarkdown(cell))),
    ),
    '',
    escapeMarkdown(bisectStatement(bisect)),
    '',
  );
  return parts.join('\n');
}
