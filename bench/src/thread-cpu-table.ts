#!/usr/bin/env node
// Where a sweep's CPU per request went by thread, from a published run folder (backs the section
// "Buckets against the process's CPU, by thread" of docs/cpu-buckets.md): the process's CPU per
// successful request (/proc), the sum of the bucket costs (sampled main-thread time), and the main
// thread's and the other threads' own CPU (per-thread /proc counters, read by the preload). What it
// shows: how close the sum of the buckets comes to the process's CPU, and what share other threads
// (GC helpers, libuv, the profiler's) take. Reads the run folder only; drives no load.
//
//   node bench/dist/thread-cpu-table.js profiles/<run-id>
import { loadLevel, readRunResult, type RunResult } from '@gwprof/results';
import { fixed } from './common.js';

const runDir = process.argv[2];
if (!runDir) {
  console.error('usage: node bench/dist/thread-cpu-table.js <run-dir>');
  process.exit(2);
}
let run: RunResult;
try {
  run = readRunResult(runDir);
} catch (error) {
  console.error(`thread-cpu-table: ${(error as Error).message}`);
  process.exit(2);
}
const f = (x: number | null | undefined): string => fixed(x, 2);
// A concurrency sweep's steps are held at a number of connections, a rate sweep's at a rate.
const levelHeader = run.steps[0]?.load.kind === 'open' ? 'req/s' : 'conc';
console.log(`run ${run.runId} (${run.config.gateway}), ms of CPU per successful request`);
console.log(`| ${levelHeader} | process (/proc) | sum of buckets | main thread | other threads | other threads share |`);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const step of run.steps) {
  const analysis = run.analysis?.steps.find((a) => a.stepId === step.id);
  const threads = step.profile?.threadCpuMs;
  const ok = step.requests.ok;
  const main = threads && ok ? threads.main / ok : null;
  const others = threads && ok ? threads.others / ok : null;
  const share = threads ? threads.others / (threads.main + threads.others) : null;
  console.log(
    `| ${loadLevel(step.load)} | ${f(step.gateway.cpuMsPerOkRequest)} | ${f(analysis?.busyMsPerOkRequest)} | ${f(main)} | ${f(others)} | ${share === null ? '–' : `${(share * 100).toFixed(0)}%`} |`,
  );
}
