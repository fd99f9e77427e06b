#!/usr/bin/env node
// Screenshots of a sweep's HTML report and of one step's flame graph in headless Chromium, for the docs.
//   node scripts/screenshot.mjs <run-dir> [out-dir=docs] [level]
// level: the step's connections (closed loop) or target rate (open loop); default the first step
// with a flame graph.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { loadLabel, loadLevel, readRunResult } from '../packages/results/dist/index.js';
import { ensureChromium } from './ensure-chromium.mjs';

const [runDir, outDir = 'docs', level] = process.argv.slice(2);
if (!runDir) {
  console.error('usage: node scripts/screenshot.mjs <run-dir> [out-dir] [level]');
  process.exit(2);
}
const run = readRunResult(runDir);
const withFlameGraph = (run.analysis?.steps ?? []).filter((a) => a.flamegraph !== null);
const stepOf = (analysis) => run.steps.find((s) => s.id === analysis.stepId);
const chosen = withFlameGraph.find((a) => level === undefined || String(loadLevel(stepOf(a).load)) === level);
if (!chosen) {
  console.error(`screenshot: ${runDir} has no flame graph${level === undefined ? '' : ` for level ${level}`}; publish it first (gwprof report ${runDir})`);
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: ensureChromium(),
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(pathToFileURL(path.join(runDir, 'index.html')).href);
  // The top of the report: verdict, charts and the step table.
  await page.screenshot({ path: path.join(outDir, 'report.png'), fullPage: true, clip: { x: 0, y: 0, width: 1400, height: 1500 } });
  await page.goto(pathToFileURL(path.join(runDir, chosen.flamegraph)).href);
  await page.waitForSelector('canvas');
  // Left Heavy merges identical stacks: where the time went, rather than when.
  await page.getByText('Left Heavy').click();
  // speedscope draws after it has parsed the embedded profile.
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(outDir, 'flamegraph.png') });
  console.log(`wrote ${path.join(outDir, 'report.png')} and ${path.join(outDir, 'flamegraph.png')} (${loadLabel(stepOf(chosen).load)})`);
} finally {
  await browser.close();
}
