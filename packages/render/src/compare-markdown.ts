import type { PublishedCompare } from '@gwprof/results';
import { escapeMarkdown, markdownCode } from './escape.js';
import { bucketMoveText, bucketsMovedMost, failedTrials, isDeltasOnly, metricRow, overallVerdictText } from './compare-rows.js';
import { fencedBlock } from './markdown-blocks.js';
import { reproduceCommand } from './reproduce-command.js';
import { type Column, formatMarkdownTable } from './text-table.js';

function levelTable(compare: PublishedCompare, deltasOnly: boolean): string[] {
  const columns: Column[] = [
    { header: 'metric' },
    { header: 'baseline' },
    { header: 'candidate' },
    { header: 'delta', align: 'right' },
    ...(deltasOnly
      ? []
      : ([
          { header: '95% CI', align: 'right' },
          { header: 'verdict' },
          { header: 'trials', align: 'right' },
        ] satisfies Column[])),
  ];
  const out: string[] = [];
  for (const level of compare.analysis.levels) {
    const rows = level.metrics.map((m) => {
      const row = metricRow(m);
      const unit = row.unit ? ` ${escapeMarkdown(row.unit)}` : '';
      // Numbers, deltas and CIs are our own formatting (digits, signs, %, brackets): nothing to escape.
      const cells = [escapeMarkdown(row.label), `${row.baseline}${unit}`, `${row.candidate}${unit}`, row.delta];
      if (!deltasOnly) {
        cells.push(row.ci, row.verdict === 'regression' ? '**regression**' : escapeMarkdown(row.verdict), row.trials);
      }
      return cells;
    });
    out.push(`### Concurrency ${level.concurrency}`, '', formatMarkdownTable(columns, rows));
    const moved = bucketsMovedMost(level.buckets);
    out.push(
      '',
      moved.length > 0
        ? `CPU buckets that moved most (percentage points of gateway CPU samples): ${moved.map((b) => escapeMarkdown(bucketMoveText(b))).join(', ')}`
        : 'No CPU bucket moved by 0.05 points or more.',
      '',
    );
  }
  return out;
}

function environmentLines(compare: PublishedCompare): string[] {
  const env = compare.environment;
  const c = compare.config;
  const lines = [
    `- Baseline: ${markdownCode(c.baseline)}${Object.keys(c.baselineEnv).length ? ` with ${markdownCode(Object.entries(c.baselineEnv).map(([k, v]) => `${k}=${v}`).join(' '))}` : ''}`,
    `- Candidate: ${markdownCode(c.candidate)}${Object.keys(c.candidateEnv).length ? ` with ${markdownCode(Object.entries(c.candidateEnv).map(([k, v]) => `${k}=${v}`).join(' '))}` : ''}`,
    `- Load: concurrency ${escapeMarkdown(c.concurrency.join(', '))}, ${c.durationSec} s per trial after ${c.warmupSec} s warm-up, query ${markdownCode(c.query)}`,
  ];
  if (compare.mode === 'trials') {
    lines.push(
      `- Trials: alternating sides, ${c.minTrials}–${c.maxTrials} per side${c.budgetMinutes === null ? '' : `, budget ${c.budgetMinutes} min`}; threshold ${Number((c.threshold * 100).toFixed(2))}%`,
    );
  }
  if (env) {
    lines.push(
      `- Machine: ${escapeMarkdown(env.cpuModel)} × ${env.cpuCount}, ${escapeMarkdown(env.platform)}, Node ${escapeMarkdown(env.node)}; gateway CPU set ${escapeMarkdown(env.cpuSets.gateway ?? 'not pinned')}, others ${escapeMarkdown(env.cpuSets.others ?? 'not pinned')}${env.gitCommit ? `; commit ${markdownCode(env.gitCommit)}` : ''}`,
    );
  }
  return lines;
}

/**
 * A PR comment for a comparison: the verdict in words, the seed-003-style table (baseline,
 * candidate, delta, CI, verdict, trials), the buckets that moved, the setup and how to reproduce.
 * Mode 'runs' shows deltas only.
 */
export function renderCompareMarkdown(compare: PublishedCompare): string {
  const deltasOnly = isDeltasOnly(compare);
  const verdict = overallVerdictText(compare);
  const lines: string[] = [`## gwprof compare: ${verdict}`, ''];
  const sides = `candidate ${markdownCode(compare.config.candidate)} against baseline ${markdownCode(compare.config.baseline)}`;
  lines.push(
    deltasOnly
      ? `**Deltas only** for ${sides}: two finished runs compared, one measurement per side, so no confidence interval and no verdict.`
      : `**Verdict: ${verdict}** for ${sides}.`,
  );
  if (compare.analysis.verdictReasons.length > 0) {
    lines.push('');
    for (const reason of compare.analysis.verdictReasons) lines.push(`- ${escapeMarkdown(reason)}`);
  }
  const failed = failedTrials(compare);
  if (failed.length > 0) {
    lines.push('', `${failed.length} trial(s) failed validation, so no verdict can be drawn from them:`, '');
    for (const t of failed) {
      lines.push(`- ${t.side} trial ${t.index} at c=${t.step.concurrency}: ${escapeMarkdown(t.step.failures.join('; ') || 'failed')}`);
    }
  }
  if (compare.stopReason) lines.push('', `Stopped: ${escapeMarkdown(compare.stopReason)}`);
  if (compare.state !== 'complete') lines.push('', `Compare run state: **${escapeMarkdown(compare.state)}**`);
  lines.push('');
  lines.push(...levelTable(compare, deltasOnly));
  lines.push(
    deltasOnly
      ? 'Medians of single runs; no confidence interval or verdict: compare with trials for that.'
      : 'Baseline and candidate are medians over trials; delta is candidate / baseline − 1; the 95% CI is that of the relative change. A regression needs significance and a change beyond the threshold.',
  );
  lines.push('', '<details><summary>Setup</summary>', '', ...environmentLines(compare), '', '</details>');
  lines.push('', '### Reproduce', '', fencedBlock(reproduceCommand(compare), 'sh'), '');
  return lines.join('\n');
}
