// Each test file's time from vitest's JSON report, slowest first, and the whole run's against the
// budget in test/budget.json: exit 1 when the run took longer, so a suite that grows is seen the day
// it grows, not the day CI's limit is hit.
//   node scripts/test-times.mjs [test-results/vitest.json]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportPath = path.resolve(process.argv[2] ?? path.join(root, 'test-results', 'vitest.json'));
const budget = JSON.parse(readFileSync(path.join(root, 'test', 'budget.json'), 'utf8'));
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

const files = report.testResults
  .map((file) => ({
    name: path.relative(root, file.name),
    seconds: (file.endTime - file.startTime) / 1000,
    tests: file.assertionResults.length,
    status: file.status,
  }))
  .sort((a, b) => b.seconds - a.seconds);
const wallSeconds = (Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime) / 1000;

const width = Math.max(...files.map((f) => f.name.length));
console.log(`\n${'test file'.padEnd(width)}  seconds  tests`);
for (const file of files)
  console.log(
    `${file.name.padEnd(width)}  ${file.seconds.toFixed(1).padStart(7)}  ${String(file.tests).padStart(5)}${file.status === 'passed' ? '' : `  ${file.status}`}`,
  );
const summed = files.reduce((sum, f) => sum + f.seconds, 0);
console.log(`\n${files.length} files: ${wallSeconds.toFixed(0)} s from vitest's start to the last file's end (files summed: ${summed.toFixed(0)} s)`);
if (wallSeconds > budget.seconds) {
  console.log(`the tests took ${wallSeconds.toFixed(0)} s, over the budget of ${budget.seconds} s in test/budget.json: find what grew in the table above`);
  process.exit(1);
}
console.log(`within the budget of ${budget.seconds} s (test/budget.json)`);
