import type { CompareLevel, PublishedCompare } from '@gwprof/results';
import { escapeMarkdown, markdownCode } from '../escape.js';
import {
  ALLOCATION_HEADERS,
  allocationBucketLine,
  allocationLine,
  allocationMoveCells,
  allocationMovesHeading,
  largestAllocationMoves,
  FUNCTION_HEADERS,
  metricHeaders,
  bucketMovesLine,
  decisionText,
  designText,
  functionCells,
  functionMovesHeading,
  isDeltasOnly,
  largestMoves,
  goldensText,
  measureLines,
  metricCells,
  overallVerdictText,
  upstreamUnseenCompareLines,
  windowLabel,
} from './compare-rows.js';
import { fencedBlock } from '../markdown-blocks.js';
import { NONE } from '../format.js';
import {
  INSTRUCTION_FUNCTION_HEADERS,
  instructionBucketLine,
  instructionFunctionCells,
  instructionFunctionMoves,
  instructionMovesNote,
} from './instruction-moves.js';
import { reproduceCommand } from '../reproduce-command.js';
import { type Column, formatMarkdownTable } from '../text-table.js';
import { ALLOCATION_CALLER_HEADERS, ALLOCATION_CALLERS_HEADING, allocationCallerCells, allocationVerdictLine } from './allocation-verdict.js';
import { failedWindows } from '@gwprof/analysis';

function levelSection(level: CompareLevel, threshold: number | null, file: FileLink): string[] {
  const metricColumns: Column[] = metricHeaders(level).map((header, i) => ({ header, ...(i >= 2 ? { align: 'right' as const } : {}) }));
  // Metric cells and the decision are our own words and numbers (digits, signs, %, brackets): nothing to escape.
  const rows = [level.gating, ...level.metrics].map((m) => metricCells(m));
  const out = [`### ${level.label}`, '', decisionText(level, threshold), '', formatMarkdownTable(metricColumns, rows), ''];
  if (level.buckets.length > 0) out.push(escapeMarkdown(bucketMovesLine(level.buckets)), '');
  const functions = largestMoves(level.functions, 10);
  if (functions.length > 0) {
    const functionColumns: Column[] = FUNCTION_HEADERS.map((header, i) => ({ header, ...(i < 5 ? { align: 'right' as const } : {}) }));
    const cells = functions.map((f) => functionCells(f).map((c, i) => (i >= 6 ? markdownCode(c, true) : escapeMarkdown(c))));
    out.push(
      `<details><summary>${escapeMarkdown(functionMovesHeading(level.functions))}</summary>`,
      '',
      formatMarkdownTable(functionColumns, cells),
      '',
      '</details>',
      '',
    );
  }
  out.push(...instructionBlock(level));
  out.push(...allocationBlock(level, file));
  if (level.pprof) {
    out.push(
      `Differential profile (per successful request, in the run folder): ${file(level.pprof.baseline, level.pprof.baseline)} → ${file(level.pprof.candidate, level.pprof.candidate)}; ${markdownCode(level.pprof.command)}; flame graphs ${file('baseline', level.pprof.flamegraphs.baseline)} · ${file('candidate', level.pprof.flamegraphs.candidate)}`,
      '',
    );
  }
  return out;
}

function instructionBlock(level: CompareLevel): string[] {
  const m = level.instructionMoves;
  if (!m) return [];
  const out = [escapeMarkdown(instructionBucketLine(m)), ''];
  const moved = instructionFunctionMoves(m, 10);
  if (moved.length > 0) {
    const columns: Column[] = INSTRUCTION_FUNCTION_HEADERS.map((header, i) => ({ header, ...(i < 3 ? { align: 'right' as const } : {}) }));
    const cells = moved.map((f) => instructionFunctionCells(f).map((c, i) => (i >= 4 ? markdownCode(c, true) : escapeMarkdown(c))));
    out.push(
      '<details><summary>Functions whose self instructions per request moved most</summary>',
      '',
      formatMarkdownTable(columns, cells),
      '',
      '</details>',
      '',
    );
  }
  out.push(escapeMarkdown(instructionMovesNote(m)), '');
  return out;
}

function allocationBlock(level: CompareLevel, file: FileLink): string[] {
  const line = allocationLine(level);
  if (!line || !level.allocation) return [];
  const out = [escapeMarkdown(line), ''];
  const byBucket = allocationBucketLine(level.allocation);
  if (byBucket) out.push(escapeMarkdown(byBucket), '');
  const moves = largestAllocationMoves(level.allocation);
  if (moves.length > 0) {
    const columns: Column[] = ALLOCATION_HEADERS.map((header, i) => ({ header, ...(i < 5 ? { align: 'right' as const } : {}) }));
    const cells = moves.map((f) => allocationMoveCells(f).map((c, i) => (i >= 6 ? markdownCode(c, true) : escapeMarkdown(c))));
    out.push(
      `<details><summary>${escapeMarkdown(allocationMovesHeading(level.allocation.functions))}</summary>`,
      '',
      formatMarkdownTable(columns, cells),
      '',
      '</details>',
      '',
    );
  }
  const graphs = level.allocation.flamegraphs;
  if (graphs) out.push(`Allocation flame graphs (all windows of a side): ${file('baseline', graphs.baseline)} · ${file('candidate', graphs.candidate)}`, '');
  return out;
}

/** The allocation verdict of a comparison by instructions, and the functions whose allocator calls moved. */
function allocationVerdictBlock(compare: PublishedCompare): string[] {
  const v = compare.analysis.allocationVerdict;
  if (!v) return [];
  const out = [escapeMarkdown(allocationVerdictLine(v, compare.config.design?.threshold ?? null)), ''];
  if (v.functions.length === 0) return out;
  const columns: Column[] = ALLOCATION_CALLER_HEADERS.map((header, i) => ({ header, ...(i < 3 ? { align: 'right' as const } : {}) }));
  const cells = v.functions.map((f) => allocationCallerCells(f).map((c, i) => (i === 3 ? markdownCode(c, true) : escapeMarkdown(c))));
  out.push(`<details><summary>${escapeMarkdown(ALLOCATION_CALLERS_HEADING)}</summary>`, '', formatMarkdownTable(columns, cells), '', '</details>', '');
  return out;
}

function setupLines(compare: PublishedCompare): string[] {
  const env = compare.environment;
  const c = compare.config;
  const withEnv = (e: Record<string, string>) =>
    Object.keys(e).length
      ? ` with ${markdownCode(
          Object.entries(e)
            .map(([k, v]) => `${k}=${v}`)
            .join(' '),
        )}`
      : '';
  const lines = [`- Baseline: ${markdownCode(c.baseline)}${withEnv(c.baselineEnv)}`, `- Candidate: ${markdownCode(c.candidate)}${withEnv(c.candidateEnv)}`];
  const design = designText(compare);
  if (design) {
    lines.push(
      `- Load: ${c.load.kind === 'closed' ? `concurrency ${c.levels.join(', ')}` : `${c.levels.join(', ')} req/s (${c.load.arrivals} arrivals, at most ${c.load.maxInFlight} in flight)`}, ${c.scenarioFile ? `scenario file ${markdownCode(c.scenarioFile)}` : `query ${markdownCode(c.query ?? NONE)}`}; ${escapeMarkdown(design.measurement)}`,
      `- Test: ${escapeMarkdown(design.test)}`,
      `- Goldens: ${escapeMarkdown(goldensText(c))}`,
    );
  }
  if (c.nodes) lines.push(`- Node.js: baseline ${escapeMarkdown(c.nodes.baseline)}, candidate ${escapeMarkdown(c.nodes.candidate)}`);
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
/** A file of the run folder: a relative link inside it, or its name where the comment lives elsewhere (a PR). */
type FileLink = (text: string, target: string) => string;
const relativeLink: FileLink = (text, target) => `[${escapeMarkdown(text)}](${target})`;
const fileName: FileLink = (text, target) => (text === target ? markdownCode(target) : `${escapeMarkdown(text)} ${markdownCode(target)}`);

/**
 * The PR comment. `fileLinks: false` names the run folder's files instead of linking them, for a
 * copy that lives elsewhere (`--markdown FILE`, a PR comment), where relative links would break.
 */
export function renderCompareMarkdown(compare: PublishedCompare, options: { fileLinks?: boolean } = {}): string {
  const file = options.fileLinks === false ? fileName : relativeLink;
  const verdict = overallVerdictText(compare);
  const sides = `candidate ${markdownCode(compare.config.candidate)} against baseline ${markdownCode(compare.config.baseline)}`;
  const lines: string[] = [`## gwprof compare: ${verdict}`, ''];
  lines.push(
    isDeltasOnly(compare)
      ? `**Deltas only** for ${sides}: two finished runs compared, one measurement per side, so no interval and no verdict.`
      : `**Verdict: ${verdict}** for ${sides} (exit ${compare.analysis.exitCode}).`,
  );
  if (compare.analysis.verdictReasons.length > 0) lines.push('', ...compare.analysis.verdictReasons.map((r) => `- ${escapeMarkdown(r)}`));
  for (const fix of compare.analysis.fixes ?? []) lines.push('', `**To fix:** ${escapeMarkdown(fix)}`);
  const measured = measureLines(compare);
  if (measured.length > 0) lines.push('', ...measured.map((line) => escapeMarkdown(line)));
  const failed = failedWindows(compare.windows);
  if (failed.length > 0) {
    lines.push('', `${failed.length} window(s) failed validation, so no verdict can be drawn:`, '');
    for (const w of failed) lines.push(`- ${escapeMarkdown(windowLabel(w))}: ${escapeMarkdown(w.step.failures.join('; ') || 'failed')}`);
  }
  for (const line of upstreamUnseenCompareLines(compare)) lines.push('', `Warning: ${escapeMarkdown(line)}`);
  if (compare.stopReason) lines.push('', `Stopped: ${escapeMarkdown(compare.stopReason)}`);
  if (compare.state !== 'complete') lines.push('', `Compare run state: **${escapeMarkdown(compare.state)}**`);
  lines.push('');
  for (const level of compare.analysis.levels) lines.push(...levelSection(level, compare.config.design?.threshold ?? null, file));
  lines.push(...allocationVerdictBlock(compare));
  lines.push(
    isDeltasOnly(compare)
      ? 'Single runs per side: deltas only.'
      : compare.config.design?.measure === 'instructions'
        ? "Baseline and candidate are geometric means of the counted batches; change is their ratio (candidate / baseline − 1), from the epochs' paired ratios. The decision line carries the verdict and the interval it was read from; the table's 95% interval is information, not adjusted for the repeated looks."
        : "Baseline and candidate are geometric means of the windows; change is their ratio (candidate / baseline − 1). The decision line carries the verdict and the interval it was read from; the table's 95% intervals, from paired blocks, are information, not adjusted for the repeated looks.",
  );
  lines.push('', '<details><summary>Setup</summary>', '', ...setupLines(compare), '', '</details>');
  lines.push('', '### Reproduce', '', fencedBlock(reproduceCommand(compare), 'sh'), '');
  return lines.join('\n');
}
