#!/usr/bin/env node
// Where a sweep's CPU per request went by thread, from a published run folder: the process's CPU
// per successful request (/proc), the sum of the bucket costs (sampled main-thread time), and the
// main thread's and the other threads' own CPU (per-thread /proc counters, read by the preload).
//
//   node scripts/thread-cpu-table.mjs profiles/<run-id>
import { readFileSync } from 'node:fs';
import path from 'node:path';

const runDir = process.argv[2];
if (!runDir) {
  console.error('usage: node scripts/thread-cpu-table.mjs <run-dir>');
  process.exit(2);
}
const run = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8'));
const f = (x) => (x === null || x === undefined ? '–' : x.toFixed(2));
console.log(`run ${run.runId} (${run.config.gateway}), ms of CPU per successful request`);
console.log('| conc | process (/proc) | sum of buckets | main thread | other threads | other threads share |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const step of run.steps) {
  const analysis = run.analysis?.steps.find((a) => a.stepId === step.id);
  const threads = step.profile?.threadCpuMs;
  const ok = step.requests.ok;
  const main = threads && ok ? threads.main / ok : null;
  const others = threads && ok ? threads.others / ok : null;
  const share = threads ? threads.others / (threads.main + threads.others) : null;
  console.log(`| ${step.concurrency} | ${f(step.gateway.cpuMsPerOkRequest)} | ${f(analysis?.busyMsPerOkRequest)} | ${f(main)} | ${f(others)} | ${share === null ? '–' : `${(share * 100).toFixed(0)}%`} |`);
}
