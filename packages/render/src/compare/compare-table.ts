import type { PublishedCompare } from '@gwprof/results';
import { painter } from '../ansi.js';
import { escapeTerminal } from '../escape.js';
import {
  FUNCTION_HEADERS,
  metricHeaders,
  bucketMovesLine,
  changeIsWorse,
  decisionText,
  functionCells,
  functionMovesHeading,
  isDeltasOnly,
  largestMoves,
  measureLines,
  metricCells,
  overallVerdictText,
  upstreamUnseenCompareLines,
  verdictTone,
  windowLabel,
} from './compare-rows.js';
import type { TerminalOptions } from '../ansi.js';
import {
  INSTRUCTION_FUNCTION_HEADERS,
  instructionBucketLine,
  instructionFunctionCells,
  instructionFunctionMoves,
  instructionMovesNote,
} from './instruction-moves.js';
import { type Column, formatTextTable } from '../text-table.js';
import { ALLOCATION_CALLER_HEADERS, ALLOCATION_CALLERS_HEADING, allocationCallerCells, allocationVerdictLine } from './allocation-verdict.js';
import { failedWindows } from '@gwprof/analysis';

const columns = (headers: string[], numericFrom: number): Column[] =>
  headers.map((header, i) => ({ header, ...(i >= numericFrom ? { align: 'right' as const } : {}) }));

/**
 * The comparison for the terminal: per level the sequential decision, the metrics (medians per side,
 * change, interval), the buckets and functions that moved most per successful request; then the
 * verdict, its reasons and why measuring stopped.
 */
export function renderCompareTable(compare: PublishedCompare, opts: TerminalOptions = {}): string {
  const p = painter(opts.color);
  const deltasOnly = isDeltasOnly(compare);
  const lines = [
    `baseline ${escapeTerminal(compare.config.baseline)}  vs  candidate ${escapeTerminal(compare.config.candidate)}${
      compare.config.design ? `  (threshold ±${Number((compare.config.design.threshold * 100).toFixed(2))}%)` : ''
    }`,
  ];
  const threshold = compare.config.design?.threshold ?? null;
  for (const level of compare.analysis.levels) {
    const rows = [level.gating, ...level.metrics].map((m) => {
      const cells = metricCells(m).map(escapeTerminal);
      const worse = changeIsWorse(m, level);
      if (worse !== null) cells[4] = worse ? p.red(cells[4]!) : p.green(cells[4]!);
      return cells;
    });
    lines.push('', p.bold(level.label), `  ${escapeTerminal(decisionText(level, threshold))}`, formatTextTable(columns(metricHeaders(level), 2), rows, '  '));
    if (level.buckets.length > 0) lines.push(`  ${escapeTerminal(bucketMovesLine(level.buckets))}`);
    const functions = largestMoves(level.functions, 8);
    if (functions.length > 0) {
      lines.push(
        `  ${escapeTerminal(functionMovesHeading(level.functions))}:`,
        formatTextTable(
          columns(FUNCTION_HEADERS, 0).map((c, i) => (i < 5 ? c : { header: c.header })),
          functions.map((f) => functionCells(f).map(escapeTerminal)),
          '    ',
        ),
      );
    }
    if (level.pprof) lines.push(`  Differential profile: ${escapeTerminal(level.pprof.command)}  (in the run folder)`);
    if (level.instructionMoves) {
      const m = level.instructionMoves;
      lines.push(`  ${escapeTerminal(instructionBucketLine(m))}`);
      const moved = instructionFunctionMoves(m);
      if (moved.length > 0)
        lines.push(
          '  Functions whose self instructions per request moved most:',
          formatTextTable(
            columns(INSTRUCTION_FUNCTION_HEADERS, 0).map((c, i) => (i < 3 ? c : { header: c.header })),
            moved.map((f) => instructionFunctionCells(f).map(escapeTerminal)),
            '    ',
          ),
        );
      lines.push(`  ${escapeTerminal(instructionMovesNote(m))}`);
    }
  }
  lines.push(...allocationLines(compare));
  const failed = failedWindows(compare.windows);
  if (failed.length > 0) {
    lines.push('', p.red(`${failed.length} window(s) failed validation:`));
    for (const w of failed) lines.push(p.red(`  ${escapeTerminal(windowLabel(w))}: ${w.step.failures.map(escapeTerminal).join('; ') || 'failed'}`));
  }
  for (const line of upstreamUnseenCompareLines(compare)) lines.push('', p.yellow(`Warning: ${escapeTerminal(line)}`));
  const tone = verdictTone(compare);
  const verdictText = deltasOnly
    ? 'Deltas only: two finished runs compared, no interval and no verdict'
    : `Verdict: ${overallVerdictText(compare)} (exit ${compare.analysis.exitCode})`;
  lines.push('', tone === 'bad' ? p.bold(p.red(verdictText)) : tone === 'ok' ? p.bold(p.green(verdictText)) : p.bold(p.yellow(verdictText)));
  for (const reason of compare.analysis.verdictReasons) lines.push(`  - ${escapeTerminal(reason)}`);
  for (const fix of compare.analysis.fixes ?? []) lines.push(p.bold(`  To fix: ${escapeTerminal(fix)}`));
  for (const line of measureLines(compare)) lines.push(escapeTerminal(line));
  if (compare.stopReason) lines.push(`Stopped: ${escapeTerminal(compare.stopReason)}`);
  if (compare.state !== 'complete') lines.push(p.yellow(`Compare run ${compare.state}`));
  return lines.join('\n');
}

/** The allocation verdict of a comparison by instructions, and the functions whose allocator calls moved. */
function allocationLines(compare: PublishedCompare): string[] {
  const v = compare.analysis.allocationVerdict;
  if (!v) return [];
  const lines = ['', escapeTerminal(allocationVerdictLine(v, compare.config.design?.threshold ?? null))];
  if (v.functions.length > 0)
    lines.push(
      `  ${ALLOCATION_CALLERS_HEADING}:`,
      formatTextTable(
        columns(ALLOCATION_CALLER_HEADERS, 0).map((c, i) => (i < 3 ? c : { header: c.header })),
        v.functions.slice(0, 8).map((f) => allocationCallerCells(f).map(escapeTerminal)),
        '    ',
      ),
    );
  return lines;
}
