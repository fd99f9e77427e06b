import type { CompareLevel, PublishedCompare } from '@gwprof/results';
import { escapeMarkdown, markdownCode } from './escape.js';
import {
  FUNCTION_HEADERS,
  METRIC_HEADERS,
  bucketMoveText,
  bucketsMovedMost,
  decisionText,
  failedWindows,
  functionCells,
  isDeltasOnly,
  metricCells,
  overallVerdictText,
  windowLabel,
} from './compare-rows.js';
import { fencedBlock } from './markdown-blocks.js';
import { reproduceCommand } from './reproduce-command.js';
import { type Column, formatMarkdownTable } from './text-table.js';

function levelSection(level: CompareLevel): string[] {
  const metricColumns: Column[] = METRIC_HEADERS.map((header, i) => ({ header, ...(i >= 2 ? { align: 'right' as const } : {}) }));
  // Metric cells and the decision are our own words and numbers (digits, signs, %, brackets): nothing to escape.
  const rows = [level.cpu, ...level.metrics].map((m) => metricCells(m));
  const out = [`### ${level.label}`, '', decisionText(level), '', formatMarkdownTable(metricColumns, rows), ''];
  const moved = bucketsMovedMost(level.buckets);
  out.push(moved.length > 0 ? `CPU buckets that moved most (ms per successful request): ${moved.map((b) => escapeMarkdown(bucketMoveText(b))).join(', ')}` : 'No CPU bucket moved by 0.005 ms per request or more.', '');
  if (level.functions.length > 0) {
    const functionColumns: Column[] = FUNCTION_HEADERS.map((header, i) => ({ header, ...(i < 3 ? { align: 'right' as const } : {}) }));
    const cells = level.functions.slice(0, 10).map((f) => functionCells(f).map((c, i) => (i >= 4 ? markdownCode(c, true) : escapeMarkdown(c))));
    out.push('<details><summary>Functions whose self time per successful request moved most</summary>', '', formatMarkdownTable(functionColumns, cells), '', '</details>', '');
  }
  if (level.pprof) {
    out.push(
      `Differential profile (per successful request, in the run folder): [${escapeMarkdown(level.pprof.baseline)}](${level.pprof.baseline}) → [${escapeMarkdown(level.pprof.candidate)}](${level.pprof.candidate}); ${markdownCode(level.pprof.command)}; flame graphs [baseline](${level.pprof.flamegraphs.baseline}) · [candidate](${level.pprof.flamegraphs.candidate})`,
      '',
    );
  }
  return out;
}

function setupLines(compare: PublishedCompare): string[] {
  const env = compare.environment;
  const c = compare.config;
  const withEnv = (e: Record<string, string>) => (Object.keys(e).length ? ` with ${markdownCode(Object.entries(e).map(([k, v]) => `${k}=${v}`).join(' '))}` : '');
  const lines = [`- Baseline: ${markdownCode(c.baseline)}${withEnv(c.baselineEnv)}`, `- Candidate: ${markdownCode(c.candidate)}${withEnv(c.candidateEnv)}`];
  const d = c.design;
  if (d) {
    lines.push(
      `- Load: ${c.load.kind === 'closed' ? `concurrency ${c.levels.join(', ')}` : `${c.levels.join(', ')} req/s (${c.load.arrivals} arrivals, at most ${c.load.maxInFlight} in flight)`}, query ${markdownCode(c.query)}; windows of ${d.windowSec} s after a ${d.leadInSec} s lead-in, in ABBA/BAAB blocks; both sides restarted every ${d.blocksPerEpoch} blocks`,
      `- Test: sequential (Sobel–Wald SPRT on paired log ratios of CPU ms per ok request), threshold ±${Number((d.threshold * 100).toFixed(2))}%, α ${d.alpha} (false regression, split across levels), β ${d.beta}, at least ${d.minBlocks} blocks; budget ${d.budgetMinutes} min`,
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
 * A PR comment for a comparison: the verdict in words, per level the decision and a table of
 * medians, changes and labelled intervals, what moved per successful request, the setup and how
 * to reproduce. Mode 'runs' shows deltas only.
 */
export function renderCompareMarkdown(compare: PublishedCompare): string {
  const verdict = overallVerdictText(compare);
  const sides = `candidate ${markdownCode(compare.config.candidate)} against baseline ${markdownCode(compare.config.baseline)}`;
  const lines: string[] = [`## gwprof compare: ${verdict}`, ''];
  lines.push(isDeltasOnly(compare) ? `**Deltas only** for ${sides}: two finished runs compared, one measurement per side, so no interval and no verdict.` : `**Verdict: ${verdict}** for ${sides} (exit ${compare.analysis.exitCode}).`);
  if (compare.analysis.verdictReasons.length > 0) lines.push('', ...compare.analysis.verdictReasons.map((r) => `- ${escapeMarkdown(r)}`));
  const failed = failedWindows(compare);
  if (failed.length > 0) {
    lines.push('', `${failed.length} window(s) failed validation, so no verdict can be drawn:`, '');
    for (const w of failed) lines.push(`- ${escapeMarkdown(windowLabel(w))}: ${escapeMarkdown(w.step.failures.join('; ') || 'failed')}`);
  }
  if (compare.stopReason) lines.push('', `Stopped: ${escapeMarkdown(compare.stopReason)}`);
  if (compare.state !== 'complete') lines.push('', `Compare run state: **${escapeMarkdown(compare.state)}**`);
  lines.push('');
  for (const level of compare.analysis.levels) lines.push(...levelSection(level));
  lines.push(
    isDeltasOnly(compare)
      ? 'Single runs per side: deltas only.'
      : 'Baseline and candidate are geometric means of the windows; change is their ratio (candidate / baseline − 1), from paired blocks. The decision line carries the verdict and its always-valid interval; the table\'s 95% intervals are information, not adjusted for the sequential stop.',
  );
  lines.push('', '<details><summary>Setup</summary>', '', ...setupLines(compare), '', '</details>');
  lines.push('', '### Reproduce', '', fencedBlock(reproduceCommand(compare), 'sh'), '');
  return lines.join('\n');
}
