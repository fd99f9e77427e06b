import type { PublishedCompare, Verdict } from '@gwprof/results';
import { type Painter, painter } from './ansi.js';
import { escapeTerminal } from './escape.js';
import {
  bucketMoveText,
  bucketsMovedMost,
  changeIsWorse,
  failedTrials,
  isDeltasOnly,
  metricRow,
  overallVerdictText,
  verdictTone,
} from './compare-rows.js';
import type { TerminalOptions } from './step-table.js';
import { type Column, formatTextTable } from './text-table.js';

const VERDICT_COLUMNS: Column[] = [
  { header: '95% CI', align: 'right' },
  { header: 'verdict' },
  { header: 'trials b/c', align: 'right' },
];

function paintVerdict(p: Painter, verdict: Verdict): string {
  if (verdict === 'regression') return p.bold(p.red(verdict));
  if (verdict === 'improvement') return p.green(verdict);
  if (verdict === 'inconclusive') return p.yellow(verdict);
  return verdict;
}

/**
 * The compare result for the terminal: per level a row per metric (baseline and candidate medians,
 * delta, 95% CI, verdict, trials per side), the buckets that moved most, then the overall verdict,
 * its reasons and why trials stopped. Mode 'runs' has no CI or verdict columns.
 */
export function renderCompareTable(compare: PublishedCompare, opts: TerminalOptions = {}): string {
  const p = painter(opts.color);
  const deltasOnly = isDeltasOnly(compare);
  const columns: Column[] = [
    { header: 'metric' },
    { header: 'unit' },
    { header: 'baseline', align: 'right' },
    { header: 'candidate', align: 'right' },
    { header: 'delta', align: 'right' },
    ...(deltasOnly ? [] : VERDICT_COLUMNS),
  ];
  const lines: string[] = [
    `baseline ${escapeTerminal(compare.config.baseline)}  vs  candidate ${escapeTerminal(compare.config.candidate)}${
      deltasOnly ? '' : `  (threshold ${Number((compare.config.threshold * 100).toFixed(2))}%)`
    }`,
  ];
  for (const level of compare.analysis.levels) {
    const rows = level.metrics.map((m) => {
      const row = metricRow(m);
      const worse = changeIsWorse(m);
      const delta = deltasOnly && worse !== null ? (worse ? p.red(row.delta) : p.green(row.delta)) : row.delta;
      const cells = [escapeTerminal(row.label), escapeTerminal(row.unit), row.baseline, row.candidate, delta];
      if (!deltasOnly) cells.push(row.ci, paintVerdict(p, row.verdict), row.trials);
      return m.verdict === 'regression' && !deltasOnly ? cells.map((c, i) => (i === 0 ? p.red(c) : c)) : cells;
    });
    lines.push('', p.bold(`c=${level.concurrency}`), formatTextTable(columns, rows, '  '));
    const moved = bucketsMovedMost(level.buckets);
    if (moved.length > 0) lines.push(`  CPU buckets moved most: ${moved.map((b) => escapeTerminal(bucketMoveText(b))).join(', ')}`);
  }
  const failed = failedTrials(compare);
  if (failed.length > 0) {
    lines.push('', p.red(`${failed.length} trial(s) failed validation:`));
    for (const t of failed) {
      lines.push(p.red(`  ${t.side} #${t.index} c=${t.step.concurrency}: ${t.step.failures.map(escapeTerminal).join('; ') || 'failed'}`));
    }
  }
  const tone = verdictTone(compare);
  const verdictText = deltasOnly
    ? 'Deltas only: two finished runs compared, no confidence interval or verdict'
    : `Verdict: ${overallVerdictText(compare)}`;
  lines.push('', tone === 'bad' ? p.bold(p.red(verdictText)) : tone === 'ok' ? p.bold(p.green(verdictText)) : p.bold(p.yellow(verdictText)));
  for (const reason of compare.analysis.verdictReasons) lines.push(`  - ${escapeTerminal(reason)}`);
  if (compare.stopReason) lines.push(`Stopped: ${escapeTerminal(compare.stopReason)}`);
  if (compare.state !== 'complete') lines.push(p.yellow(`Compare run ${compare.state}`));
  return lines.join('\n');
}
