#!/usr/bin/env node
// Screenshots of a run's HTML report and one flame graph in headless Chromium, for the docs.
//   node scripts/screenshot.mjs <run-dir> [out-dir=docs] [concurrency]
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [runDir, outDir = 'docs', level] = process.argv.slice(2);
if (!runDir) {
  console.error('usage: node scripts/screenshot.mjs <run-dir> [out-dir] [concurrency]');
  process.exit(2);
}
const run = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8'));
const step = run.steps.find((s) => String(s.concurrency) === level) ?? run.steps[0];
const browser = await chromium.launch({
  executablePath: process.env.GWPROF_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(pathToFileURL(path.join(runDir, 'index.html')).href);
  await page.screenshot({ path: path.join(outDir, 'report.png'), fullPage: true });
  await page.goto(pathToFileURL(path.join(runDir, step.profile.flamegraph)).href);
  await page.waitForSelector('canvas');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: path.join(outDir, 'flamegraph.png') });
  console.log(`wrote ${path.join(outDir, 'report.png')} and ${path.join(outDir, 'flamegraph.png')} (c=${step.concurrency})`);
} finally {
  await browser.close();
}
