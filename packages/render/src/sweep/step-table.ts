import type { RunResult } from '@gwprof/results';
import { painter, type TerminalOptions } from '../ansi.js';
import {
  STEP_COLUMNS,
  failedStepReasons,
  failedSteps,
  fanoutNotes,
  harnessBoundLines,
  stepLabel,
  stepTable,
  unsteadyLines,
  upstreamUnseenLines,
} from './step-rows.js';
import { escapeTerminal } from '../escape.js';
import { formatTextTable } from '../text-table.js';

/** Columns of the step tables left to summary.md and the report in a terminal, so it fits 120 columns. */
const TERMINAL_HIDDEN = new Set([
  'p90 ms',
  'max ms',
  'in flight',
  'order warn',
  'ok req per gw CPU-s',
  'gw threads',
  'subgraphs CPU %',
  'loadgen CPU %',
  'harness cores busy %',
]);
const LADDER_TERMINAL_HIDDEN = new Set(['mean ms', 'p80 ms', 'p95 ms', 'max ms', 'ok req per gw CPU-s', 'gw RSS MB', 'gc %', 'loadgen CPU %']);

/** The sweep's terminal table: one row per step, then why each failed step failed. */
export function renderStepTable(run: RunResult, opts: TerminalOptions = {}): string {
  const p = painter(opts.color);
  if (run.steps.length === 0) return 'No steps recorded.';
  const table = stepTable(run);
  // A terminal is about 120 columns: the rarer figures stay in summary.md and the report.
  const hide = table.columns === STEP_COLUMNS ? TERMINAL_HIDDEN : LADDER_TERMINAL_HIDDEN;
  const shown = table.columns.map((column, i) => (hide.has(column.header) ? -1 : i)).filter((i) => i >= 0);
  const rows = run.steps.map((step) => {
    const status = step.status === 'ok' ? p.green('ok') : step.status === 'failed' ? p.bold(p.red('FAILED')) : p.yellow(step.status);
    const cells = shown.map((i) => table.cells(step, status)[i]!);
    return step.status === 'failed' ? cells.map((cell, i) => (i === 1 ? cell : p.red(cell))) : cells;
  });
  const lines = [
    formatTextTable(
      shown.map((i) => table.columns[i]!),
      rows,
    ),
  ];
  // After a blank line, so whoever reads the table (a script, a test) finds its rows alone.
  if (shown.length < table.columns.length)
    lines.push(
      '',
      `(${table.columns
        .filter((c) => hide.has(c.header))
        .map((c) => c.header)
        .join(', ')}: summary.md)`,
    );

  const failed = failedSteps(run);
  if (failed.length > 0) {
    lines.push('');
    for (const step of failed) {
      for (const reason of failedStepReasons(step)) {
        lines.push(p.red(`FAILED ${stepLabel(step)}: ${escapeTerminal(reason)}`));
      }
    }
  }
  const overloaded = run.steps.filter((s) => s.status === 'overloaded');
  if (overloaded.length > 0) {
    lines.push('');
    for (const step of overloaded)
      for (const warning of step.warnings.filter((w) => /fell behind/.test(w)))
        lines.push(p.yellow(`overloaded ${stepLabel(step)}: ${escapeTerminal(warning)}`));
  }
  const unsteady = unsteadyLines(run);
  if (unsteady.length > 0) {
    lines.push('');
    for (const line of unsteady) lines.push(p.yellow(`unsteady ${escapeTerminal(line)}`));
  }
  const bound = harnessBoundLines(run);
  if (bound.length > 0) {
    lines.push('');
    for (const line of bound) lines.push(p.yellow(`harness-bound ${escapeTerminal(line)}`));
  }
  const unseen = upstreamUnseenLines(run);
  if (unseen.length > 0) {
    lines.push('');
    for (const line of unseen) lines.push(p.yellow(`warning ${escapeTerminal(line)}`));
  }
  const sharing = fanoutNotes(run);
  if (sharing.length > 0) {
    lines.push('');
    for (const line of sharing) lines.push(`note ${escapeTerminal(line)}`);
  }
  if (run.state !== 'complete') {
    lines.push('', p.yellow(`Run ${run.state}${run.error ? `: ${escapeTerminal(run.error)}` : ''}`));
  }
  return lines.join('\n');
}
