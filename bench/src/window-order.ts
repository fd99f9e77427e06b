#!/usr/bin/env node
// Whether the order of the windows in a block adds noise to a comparison (backs "The noise study" of
// docs/validation/compare-error-rates.md): the side contrast's scatter in balanced blocks (ABBA,
// BAAB) against the other orders, and the trend of a window's CPU per request with its place in the
// block. Reads the JSON logs of recordings and real runs; drives no load.
//
//   node bench/dist/window-order.js [--since 2026-11-26] [--until 2026-11-27T00:00] bench/results/compare-epochs/compare-recordings.json bench/results/compare-epochs/compare-runs.json
//
// Only entries of the default design (no extra flags) dated from --since up to (not including) --until.
import { readFileSync } from 'node:fs';
import { benchArgs } from './args.js';
import { defaultDesignEntries, type LoggedComparison } from './compare/json-log.js';
import { blockContrasts, orderSummary, pooledSd, sideBias, type BlockContrast, type OrderWindow } from './compare/window-order.js';

const { values: args, positionals } = benchArgs(
  { options: { since: { type: 'string', default: '' }, until: { type: 'string', default: '9999' } }, allowPositionals: true },
  { usage: 'compare-recordings.json compare-runs.json …', min: 1 },
);

const entries = positionals.flatMap((file) =>
  defaultDesignEntries(JSON.parse(readFileSync(file, 'utf8')) as Array<LoggedComparison<OrderWindow>>, args.since, args.until),
);
const percent = (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`;
const rows = entries.map((e) => ({
  aa: e.kind === 'A/A' || e.burnPercent === 0,
  label: `${e.date!.slice(0, 16).replace('T', ' ')} ${e.gateway ?? ''} ${e.label ?? e.kind ?? ''}`,
  blocks: blockContrasts(e.windows),
}));
const sdOf = (blocks: BlockContrast[], balanced: boolean) => {
  const x = blocks.filter((b) => b.balanced === balanced).map((b) => b.logRatio);
  return x.length < 2 ? '–' : percent(pooledSd([x]));
};
const lines = ['| comparison | blocks | balanced | sd balanced | sd other orders |', '| --- | ---: | ---: | ---: | ---: |'];
for (const row of rows)
  lines.push(
    `| ${row.label} | ${row.blocks.length} | ${row.blocks.filter((b) => b.balanced).length} | ${sdOf(row.blocks, true)} | ${sdOf(row.blocks, false)} |`,
  );
const summary = orderSummary(rows.map((r) => r.blocks));
const bias = sideBias(rows.filter((r) => r.aa).map((r) => r.blocks));
lines.push(
  '',
  `Pooled, each comparison's blocks of an order about their own mean: balanced blocks ${summary.balanced.blocks}, sd ${percent(summary.balanced.sd, 2)}; other orders ${summary.unbalanced.blocks}, sd ${percent(summary.unbalanced.sd, 2)}; variance ratio ${summary.varianceRatio.toFixed(2)}.`,
  `Trend of log CPU per request by place in a balanced block: ${percent(summary.trend.mean, 2)} per window (sd ${percent(summary.trend.sd, 2)}, standard error ${percent(summary.trend.sd / Math.sqrt(summary.trend.blocks), 2)}, ${summary.trend.blocks} blocks).`,
  `Side bias over the ${bias.comparisons} A/A comparisons: the candidate reads ${percent(bias.mean, 2)} against the baseline (standard error ${percent(bias.standardError, 2)}), above it in ${bias.positive}.`,
);
process.stdout.write(`${lines.join('\n')}\n`);
