// Each test file's time from vitest's JSON reports (README's test command's, then the long tier's),
// slowest first, and the runs against test/budget.json: README's test command (install included)
// against its target `testCommandTargetSeconds` (said, not failed: this machine's speed drifts by
// ±30%) and its limit `testCommandSeconds` (the target and that drift); it and the long tier
// together against `wholeTargetSeconds` (CI's 25 minutes) and `wholeSeconds` (that and the drift).
// Exit 1 past a limit, so a suite that grows is seen the day it grows, not the day CI's limit is hit.
//   node scripts/test-times.mjs [--command-seconds N] [--long-seconds M]
// N and M are the wall seconds of README's test command and of `pnpm test:long` (.ci/run times
// them); without them, vitest's own start-to-end times stand in.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const budget = JSON.parse(readFileSync(path.join(root, 'test', 'budget.json'), 'utf8'));
const { values } = parseArgs({ options: { 'command-seconds': { type: 'string' }, 'long-seconds': { type: 'string' } } });

/**
 * One vitest JSON report: its files, slowest first, and vitest's start to its last file's end. A
 * file's seconds are test/file-times-reporter.ts's (import, hooks and tests) when it wrote them
 * beside the report; the JSON report's own span leaves out `beforeAll` and import.
 */
function readReport(file) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const timesFile = file.replace(/\.json$/, '.files.json');
  const whole = existsSync(timesFile) ? new Map(JSON.parse(readFileSync(timesFile, 'utf8')).map((t) => [t.file, t.seconds])) : new Map();
  const files = report.testResults
    .map((result) => ({
      name: path.relative(root, result.name),
      seconds: whole.get(result.name) ?? (result.endTime - result.startTime) / 1000,
      tests: result.assertionResults.length,
      status: result.status,
    }))
    .sort((a, b) => b.seconds - a.seconds);
  const wallSeconds = files.length ? (Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime) / 1000 : 0;
  return { files, wallSeconds, passed: report.numPassedTests, failed: report.numFailedTests };
}

function printFiles(title, { files, wallSeconds }) {
  const width = Math.max(title.length, ...files.map((f) => f.name.length));
  console.log(`\n${title.padEnd(width)}  seconds  tests`);
  for (const file of files)
    console.log(
      `${file.name.padEnd(width)}  ${file.seconds.toFixed(1).padStart(7)}  ${String(file.tests).padStart(5)}${file.status === 'passed' ? '' : `  ${file.status}`}`,
    );
  const summed = files.reduce((sum, f) => sum + f.seconds, 0);
  console.log(`${files.length} files: ${wallSeconds.toFixed(0)} s from vitest's start to the last file's end (files summed: ${summed.toFixed(0)} s)`);
}

const tiers = [
  { title: "README's test command (pnpm test)", report: 'vitest.json', given: values['command-seconds'] },
  { title: 'the long tier (pnpm test:long)', report: 'vitest-long.json', given: values['long-seconds'] },
]
  .filter((tier) => existsSync(path.join(root, 'test-results', tier.report)))
  .map((tier) => {
    const report = readReport(path.join(root, 'test-results', tier.report));
    printFiles(tier.title, report);
    return { ...tier, ...report, seconds: tier.given === undefined ? report.wallSeconds : Number(tier.given) };
  });

console.log('');
let over = false;
const command = tiers.find((tier) => tier.report === 'vitest.json');
if (command) {
  const what = command.given === undefined ? "vitest's part of README's test command" : "README's test command";
  if (command.seconds > budget.testCommandSeconds) {
    console.log(`${what} took ${command.seconds.toFixed(0)} s, over its limit of ${budget.testCommandSeconds} s (test/budget.json): find what grew above`);
    over = true;
  } else if (command.seconds > budget.testCommandTargetSeconds)
    console.log(
      `${what}: ${command.seconds.toFixed(0)} s, over its target of ${budget.testCommandTargetSeconds} s, within its limit of ${budget.testCommandSeconds} s (test/budget.json)`,
    );
  else console.log(`${what}: ${command.seconds.toFixed(0)} s, within its target of ${budget.testCommandTargetSeconds} s (test/budget.json)`);
}
const whole = tiers.reduce((sum, tier) => sum + tier.seconds, 0);
if (whole > budget.wholeSeconds) {
  console.log(`the tests took ${whole.toFixed(0)} s in all, over the limit of ${budget.wholeSeconds} s (test/budget.json): find what grew above`);
  over = true;
} else if (whole > budget.wholeTargetSeconds)
  console.log(
    `both tiers: ${whole.toFixed(0)} s, over their target of ${budget.wholeTargetSeconds} s, within their limit of ${budget.wholeSeconds} s (test/budget.json)`,
  );
else console.log(`both tiers: ${whole.toFixed(0)} s, within their target of ${budget.wholeTargetSeconds} s (test/budget.json)`);
const passed = tiers.reduce((sum, tier) => sum + tier.passed, 0);
const failed = tiers.reduce((sum, tier) => sum + tier.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(over ? 1 : 0);
