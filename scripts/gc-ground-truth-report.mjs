#!/usr/bin/env node
// Sets each step's CPU profile beside what the gateway recorded itself (scripts/gc-recorder-preload.cjs):
// GC pause time from perf_hooks in the profile's window, the gc bucket (samples weighed by time and
// by count), and CPU per successful request: the profile's non-idle ms against each thread's CPU.
//
//   node scripts/gc-ground-truth-report.mjs RUN_DIR RECORD_DIR
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { analyzeProfile, parseCpuProfile } from '../packages/analysis/dist/index.js';

const [runDir, recordDir] = process.argv.slice(2);
const results = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8'));
const records = readdirSync(recordDir)
  .filter((name) => /^gc-\d+\.jsonl$/.test(name))
  .flatMap((name) => readFileSync(path.join(recordDir, name), 'utf8').trim().split('\n').map((line) => JSON.parse(line)));
const pauses = records.filter((r) => r.gc).map((r) => r.gc);
const snapshots = records.filter((r) => r.threads).map((r) => r.threads).sort((a, b) => a.tUs - b.tUs);

/** CPU ms of each thread name between two times, from the nearest snapshots inside the window. */
function threadCpu(fromUs, toUs) {
  const inside = snapshots.filter((s) => s.tUs >= fromUs && s.tUs <= toUs);
  if (inside.length < 2) return null;
  const [first, last] = [inside[0], inside.at(-1)];
  const byName = {};
  for (const [tid, ms] of Object.entries(last.cpuMsByTid)) {
    const name = tid === String(Object.keys(last.cpuMsByTid).map(Number).sort((a, b) => a - b)[0]) ? 'main' : last.nameByTid[tid];
    byName[name] = (byName[name] ?? 0) + ms - (first.cpuMsByTid[tid] ?? 0);
  }
  return { byName, spanMs: (last.tUs - first.tUs) / 1000 };
}

for (const step of results.steps) {
  const file = step.profile?.cpuprofile;
  if (!file) continue;
  const profile = parseCpuProfile(readFileSync(path.join(runDir, file), 'utf8'), file);
  const analysis = analyzeProfile(profile);
  const windowMs = (profile.endTime - profile.startTime) / 1000;
  const inWindow = pauses.filter((p) => p.startUs >= profile.startTime && p.startUs < profile.endTime);
  const nodeGcMs = inWindow.reduce((sum, p) => sum + p.durationUs / 1000, 0);
  const ok = step.requests.ok;
  const cpu = threadCpu(profile.startTime, profile.endTime);
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  console.log(`step c=${step.concurrency}: ${analysis.samples} samples at ${analysis.samplingIntervalUs} µs, window ${windowMs.toFixed(0)} ms (samples cover ${analysis.durationMs.toFixed(0)} ms), ${ok} ok requests`);
  console.log(
    `  gc: perf_hooks ${nodeGcMs.toFixed(0)} ms in ${inWindow.length} pauses = ${pct(nodeGcMs / windowMs)} of the window; ` +
      `profile by time ${analysis.msByBucket.gc.toFixed(0)} ms = ${pct(analysis.buckets.gc)}; by count ${pct(analysis.counts.gc / analysis.samples)}`,
  );
  if (cpu) {
    const total = Object.values(cpu.byName).reduce((a, b) => a + b, 0);
    const scale = windowMs / cpu.spanMs; // snapshots are every 250 ms: scale to the window
    const parts = Object.entries(cpu.byName).sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name} ${((ms * scale) / ok).toFixed(2)}`);
    console.log(
      `  CPU ms per ok request: profile (main thread, non-idle) ${(analysis.busyMs / ok).toFixed(2)}; process ${((total * scale) / ok).toFixed(2)} = ${parts.join(', ')}` +
        `; results.json ${step.gateway?.cpuMsPerOkRequest ?? '?'}`,
    );
  }
}
