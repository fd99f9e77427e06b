import type { RateCapacity, RunResult } from '@gwprof/results';
import { failureDetail } from '@gwprof/analysis';
import { renderBucketTableMarkdown } from './bucket-table.js';
import { ALLOCATION_NOTE, allocationFramesNote, renderAllocationTableMarkdown, topAllocatorLines } from './allocation-table.js';
import { runUnattributedLines } from './unattributed.js';
import { LITTLES_LAW_HEADERS, capacityFacts, littlesLawCells, rateCapacityFacts } from './capacity-facts.js';
import { escapeMarkdown, markdownCode } from '../escape.js';
import { integer } from '../format.js';
import { relativeHref } from '../links.js';
import { factsMarkdownTable, truncate } from '../markdown-blocks.js';
import { configFacts } from './run-facts.js';
import { environmentFacts } from '../facts.js';
import { failureLabel } from '../failures.js';
import {
  stepMethod,
  steadyStateHeaders,
  failedStepReasons,
  failedSteps,
  fanoutNotes,
  harnessBoundLines,
  overallVerdict,
  statusText,
  stepLabel,
  stepTable,
  stepWarningLines,
  steadyStateCells,
} from './step-rows.js';
import { stepAnalysisOf } from './step-analysis.js';
import { formatMarkdownTable } from '../text-table.js';
import { renderTopFunctionsMarkdown } from './top-functions.js';
import { traceSplitMarkdown } from './trace-split.js';

const SAMPLE_MESSAGE_MAX = 300;

function verdictSection(run: RunResult): string[] {
  const verdict = overallVerdict(run);
  const lines = [`**Verdict: ${verdict.text}**`];
  const failed = failedSteps(run);
  if (failed.length > 0) {
    lines.push('');
    for (const step of failed) {
      for (const reason of failedStepReasons(step)) {
        lines.push(`- ${stepLabel(step)} **FAILED**: ${escapeMarkdown(reason)}`);
      }
      const detail = failureDetail(step);
      if (detail) lines.push(`  - ${escapeMarkdown(detail)}`);
    }
  }
  for (const fix of run.analysis?.fixes ?? []) lines.push('', `**To fix:** ${escapeMarkdown(fix)}`);
  if (run.error) lines.push('', `Harness error: ${escapeMarkdown(run.error)}`);
  return lines;
}

function steadyStateSection(run: RunResult): string[] {
  if (run.steps.length === 0) return [];
  const rows = run.steps.map((step) => steadyStateCells(run, step).map(escapeMarkdown));
  const lines = [
    '## Steady state',
    '',
    formatMarkdownTable(
      steadyStateHeaders(run).map((header, i) => ({ header, align: i === 3 || i === 5 ? 'left' : 'right' })),
      rows,
    ),
    '',
    `${stepMethod(run)} Only responses completed inside the window count; requests still in flight at its end are shown, not lost. Little's ratio = rps × mean latency / concurrency (1.0 in a steady closed loop).`,
  ];
  const unsteady = run.steps.filter((s) => s.status === 'unsteady');
  for (const step of unsteady)
    for (const reason of step.steadiness.reasons) lines.push('', `- ${stepLabel(step)} *${statusText(step)}*: ${escapeMarkdown(reason)}`);
  for (const line of harnessBoundLines(run)) lines.push('', `- *harness-bound* ${escapeMarkdown(line)}`);
  for (const note of fanoutNotes(run)) lines.push('', `- ${escapeMarkdown(note)}`);
  return lines;
}

function warningsSection(run: RunResult): string[] {
  const warnings = stepWarningLines(run);
  if (warnings.length === 0) return [];
  return ['## Warnings', '', ...warnings.map((w) => `- ${escapeMarkdown(w)}`)];
}

function stepsSection(run: RunResult): string[] {
  if (run.steps.length === 0) return ['## Steps', '', 'No steps recorded.'];
  const table = stepTable(run);
  // Status is markdown we wrote; every other cell is escaped.
  const rows = run.steps.map((step) =>
    table
      .cells(step, '')
      .map((cell, i) => (i === 1 ? (step.status === 'failed' ? '**FAILED**' : step.status === 'ok' ? 'ok' : `*${step.status}*`) : escapeMarkdown(cell))),
  );
  return [
    '## Steps',
    '',
    formatMarkdownTable(table.columns, rows),
    '',
    'rps counts successful responses only; latency is of successful responses; CPU % is of one core.',
  ];
}

function failureSamplesSection(run: RunResult): string[] {
  const withSamples = run.steps.filter((s) => s.failureSamples.length > 0);
  if (withSamples.length === 0) return [];
  const lines = ['## Failure samples', ''];
  for (const step of withSamples) {
    for (const sample of step.failureSamples) {
      lines.push(
        `- ${stepLabel(step)} ${escapeMarkdown(failureLabel(sample.kind))} ×${integer(sample.count)}: ${markdownCode(truncate(sample.message, SAMPLE_MESSAGE_MAX))}`,
      );
    }
  }
  return lines;
}

function bucketsSection(run: RunResult): string[] {
  const table = renderBucketTableMarkdown(run);
  if (!table) return [];
  return [
    "## CPU buckets (% of the gateway's sampled time)",
    '',
    table,
    '',
    '### CPU milliseconds per successful request',
    '',
    renderBucketTableMarkdown(run, 'ms'),
    '',
    'Shares move when idle time or another bucket moves; ms per request do not. Each sample weighs the time it stands for. "Node gc %" is Node\'s own account of GC pauses in the same window (the gc bucket\'s ground truth).',
    ...runUnattributedLines(run).flatMap((line) => ['', `- ${escapeMarkdown(line)}`]),
  ];
}

function allocationSection(run: RunResult): string[] {
  const table = renderAllocationTableMarkdown(run);
  if (!table) return [];
  const frames = allocationFramesNote(run);
  const lines = ['## What each request allocated (kB per successful request, beside GC)', '', table, '', ALLOCATION_NOTE, ...(frames ? ['', frames] : [])];
  for (const step of run.steps) {
    const allocation = stepAnalysisOf(run, step)?.allocation;
    if (!allocation || allocation.topAllocators.length === 0) continue;
    lines.push('', `### ${stepLabel(step)}: top allocators`, '', ...topAllocatorLines(allocation).map((line) => `- ${markdownCode(line)}`));
  }
  return lines;
}

function topFunctionsSection(run: RunResult): string[] {
  const blocks = run.steps.map((step) => ({ step, table: renderTopFunctionsMarkdown(stepAnalysisOf(run, step), 10) })).filter((b) => b.table !== '');
  if (blocks.length === 0) return [];
  const lines = ['## Top self-time functions'];
  for (const { step, table } of blocks) lines.push('', `### ${stepLabel(step)}`, '', table);
  return lines;
}

function rateCapacitySection(capacity: RateCapacity): string[] {
  const lines = ['## Capacity (fixed-rate ladder)', ''];
  for (const fact of rateCapacityFacts(capacity)) lines.push(`- ${escapeMarkdown(fact.label)}: ${escapeMarkdown(fact.value)}`);
  for (const note of capacity.notes) lines.push(`- ${escapeMarkdown(note)}`);
  lines.push('', 'Latency is measured from each request’s intended send time, so queueing at the gateway shows in full (no coordinated omission).');
  return lines;
}

function capacitySection(run: RunResult): string[] {
  if (run.analysis?.rateCapacity) return rateCapacitySection(run.analysis.rateCapacity);
  const capacity = run.analysis?.capacity;
  if (!capacity) return ['## Capacity', '', 'No capacity analysis in this run.'];
  const lines = ['## Capacity', ''];
  for (const fact of capacityFacts(capacity)) lines.push(`- ${escapeMarkdown(fact.label)}: ${escapeMarkdown(fact.value)}`);
  if (capacity.littlesLaw.length > 0) {
    lines.push(
      '',
      "Little's law (concurrency ≈ throughput × mean latency):",
      '',
      formatMarkdownTable(
        LITTLES_LAW_HEADERS.map((header, i) => ({ header, align: i < 5 ? 'right' : 'left' })),
        capacity.littlesLaw.map((check) => littlesLawCells(check).map(escapeMarkdown)),
      ),
    );
    const flagged = capacity.littlesLaw.filter((c) => c.flag !== 'ok');
    if (flagged.length > 0) {
      lines.push('');
      for (const c of flagged) lines.push(`- c=${c.concurrency}: **${escapeMarkdown(c.flag)}** ${escapeMarkdown(c.note)}`);
    }
  }
  if (capacity.notes.length > 0) {
    lines.push('', 'Notes:', '');
    for (const note of capacity.notes) lines.push(`- ${escapeMarkdown(note)}`);
  }
  return lines;
}

function markdownLink(text: string, path: string | undefined): string | null {
  const href = relativeHref(path);
  return href === null ? null : `[${escapeMarkdown(text)}](${href})`;
}

function flameGraphsSection(run: RunResult): string[] {
  const lines: string[] = [];
  for (const step of run.steps) {
    const links = [
      markdownLink('flame graph', stepAnalysisOf(run, step)?.flamegraph ?? undefined),
      markdownLink('.cpuprofile', step.profile?.cpuprofile),
      markdownLink('allocation flame graph', stepAnalysisOf(run, step)?.allocation?.flamegraph ?? undefined),
      markdownLink('.heapprofile', step.profile?.heap?.heapprofile),
    ].filter((l): l is string => l !== null);
    if (links.length > 0) lines.push(`- ${stepLabel(step)}: ${links.join(' · ')}`);
  }
  const artifacts = Object.entries(run.artifacts)
    .map(([name, path]) => markdownLink(name, path))
    .filter((l): l is string => l !== null);
  if (lines.length === 0 && artifacts.length === 0) return [];
  const out = ['## Flame graphs', '', ...lines];
  if (artifacts.length > 0) out.push('', `Other artifacts: ${artifacts.join(' · ')}`);
  out.push('', 'The full report with charts: [index.html](index.html)');
  return out;
}

/** summary.md of a sweep run. Untrusted text (gateway messages, env, names) is escaped. */
export function renderSummaryMarkdown(run: RunResult): string {
  const sections: string[][] = [
    [
      `# gwprof run ${markdownCode(run.runId)}`,
      '',
      `Gateway ${markdownCode(run.config.gateway)} · started ${escapeMarkdown(run.startedAt)}${
        run.finishedAt ? ` · finished ${escapeMarkdown(run.finishedAt)}` : ''
      } · state ${escapeMarkdown(run.state)} · ${escapeMarkdown(run.tool.name)} ${escapeMarkdown(run.tool.version)}`,
    ],
    verdictSection(run),
    stepsSection(run),
    steadyStateSection(run),
    warningsSection(run),
    failureSamplesSection(run),
    bucketsSection(run),
    topFunctionsSection(run),
    allocationSection(run),
    capacitySection(run),
    traceSplitMarkdown(run),
    flameGraphsSection(run),
    ['## Configuration', '', factsMarkdownTable(configFacts(run.config))],
    ['## Environment', '', factsMarkdownTable(environmentFacts(run.environment))],
  ];
  return `${sections
    .filter((s) => s.length > 0)
    .map((s) => s.join('\n'))
    .join('\n\n')}\n`;
}
