import type { RunResult } from '@gwprof/results';
import { painter } from './ansi.js';
import { STEP_COLUMNS, failedStepReasons, failedSteps, fanoutNotes, stepCells, unsteadyLines } from './step-rows.js';
import { escapeTerminal } from './escape.js';
import { formatTextTable } from './text-table.js';

export interface TerminalOptions {
  /** ANSI colors (failed steps in red). Off by default so output is plain text. */
  color?: boolean;
}

/** The sweep's terminal table: one row per step, then why each failed step failed. */
export function renderStepTable(run: RunResult, opts: TerminalOptions = {}): string {
  const p = painter(opts.color);
  if (run.steps.length === 0) return 'No steps recorded.';
  const rows = run.steps.map((step) => {
    const status = step.status === 'ok' ? p.green('ok') : step.status === 'unsteady' ? p.yellow('unsteady') : p.bold(p.red('FAILED'));
    const cells = stepCells(step, status);
    return step.status === 'failed' ? cells.map((cell, i) => (i === 1 ? cell : p.red(cell))) : cells;
  });
  const lines = [formatTextTable(STEP_COLUMNS, rows)];

  const failed = failedSteps(run);
  if (failed.length > 0) {
    lines.push('');
    for (const step of failed) {
      for (const reason of failedStepReasons(step)) {
        lines.push(p.red(`FAILED c=${step.concurrency}: ${escapeTerminal(reason)}`));
      }
    }
  }
  const unsteady = unsteadyLines(run);
  if (unsteady.length > 0) {
    lines.push('');
    for (const line of unsteady) lines.push(p.yellow(`unsteady ${escapeTerminal(line)}`));
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
