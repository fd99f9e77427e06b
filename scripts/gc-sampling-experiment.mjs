#!/usr/bin/env node
// Why does the `gc` bucket grow with the sampling interval? A ground-truth experiment.
//
// Each run is a child Node process with a known, allocation-heavy workload (builds object trees,
// serialises them, keeps a ring of survivors so both scavenges and mark-compacts happen). It
// profiles itself through `node:inspector` exactly like gwprof's preload, and records Node's own
// GC entries (`perf_hooks`, type "gc": the main thread's GC pauses) in the same window, with
// timestamps on the profile's clock. The parent compares, per run, the GC time the profile
// implies under several ways of weighting samples with the GC time Node measured:
//   count     every sample weighs the same (share of samples)
//   next-gap  a sample lasts until the next one (Chrome DevTools' convention)
//   prev-gap  a sample stands for the time since the previous one
//   midpoint  half of each neighbouring gap
// and checks which samples fall inside a measured GC pause.
//
// Runs alternate the intervals (1, 2, 4 ms) so drift hits all alike; by default each child is
// pinned to one core with its helper threads, as gwprof pins a gateway (`--no-pin` to compare).
// CPU-heavy: run it under the shared lock.
//
//   flock /work/load.lock node scripts/gc-sampling-experiment.mjs [--runs 3] [--duration 8] [--intervals 1000,2000,4000] [--cpu 1] [--no-pin] [--json out.json]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    child: { type: 'boolean', default: false },
    out: { type: 'string' },
    interval: { type: 'string', default: '1000' },
    intervals: { type: 'string', default: '1000,2000,4000' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '8' },
    cpu: { type: 'string', default: '1' },
    'no-pin': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});

if (values.child) await child(Number(values.interval), Number(values.duration), values.out);
else parent();

// ---------------------------------------------------------------------------------------------
// Child: the workload, profiled, with GC entries as ground truth.

async function child(intervalUs, durationSec, outFile) {
  const inspector = await import('node:inspector');
  const { PerformanceObserver, performance } = await import('node:perf_hooks');

  // performance.now() and V8's profile clock are both CLOCK_MONOTONIC: find the offset once.
  const hrUs = Number(process.hrtime.bigint() / 1000n);
  const originUs = hrUs - performance.now() * 1000;

  const survivors = new Array(20_000);
  let cursor = 0;
  let sink = 0;
  const oneRequest = (seed) => {
    const tree = { id: seed, items: [] };
    for (let i = 0; i < 60; i++) tree.items.push({ name: `item-${seed}-${i}`, value: i * seed, tags: ['a', 'b', String(i)] });
    const text = JSON.stringify(tree);
    sink += JSON.parse(text).items.length;
    survivors[cursor++ % survivors.length] = tree; // some survive to old space: mark-compacts too
    let x = 0;
    for (let i = 0; i < 3000; i++) x += Math.sqrt(i * seed) % 7; // plain CPU work between allocations
    sink += x;
  };
  const runFor = (ms) =>
    new Promise((resolve) => {
      const end = performance.now() + ms;
      let seed = 1;
      const turn = () => {
        for (let i = 0; i < 20; i++) oneRequest(seed++);
        if (performance.now() < end) setImmediate(turn);
        else resolve();
      };
      turn();
    });

  await runFor(2000); // warm-up: JIT and heap settle

  const gcEntries = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcEntries.push({ startUs: originUs + entry.startTime * 1000, durationUs: entry.duration * 1000, kind: entry.detail?.kind ?? entry.kind });
    }
  });
  observer.observe({ entryTypes: ['gc'] });

  const session = new inspector.Session();
  session.connect();
  const post = (method, params = {}) =>
    new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadCpuMs();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: intervalUs });
  await post('Profiler.start');
  await runFor(durationSec * 1000);
  const { profile } = await post('Profiler.stop');
  const mainAfter = mainThreadCpuMs();
  const cpu = process.cpuUsage(cpuBefore);
  await new Promise((resolve) => setTimeout(resolve, 50)); // let the observer deliver the last entries
  observer.disconnect();
  writeFileSync(
    outFile,
    JSON.stringify({ intervalUs, profile, gcEntries, processCpuMs: (cpu.user + cpu.system) / 1000, mainThreadCpuMs: mainAfter - mainBefore, sink }),
  );
}

/** The main thread's CPU time from /proc (10 ms resolution), or NaN off Linux. */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// Parent: run the children, weigh the samples, compare with Node's GC entries.

function parent() {
  const intervals = values.intervals.split(',').map(Number);
  const runs = Number(values.runs);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-gc-experiment-'));
  const self = fileURLToPath(import.meta.url);
  const rows = [];
  for (let run = 0; run < runs; run++) {
    // Rotate the order each round so no interval always runs first.
    const order = intervals.map((_, i) => intervals[(i + run) % intervals.length]);
    for (const intervalUs of order) {
      const out = path.join(dir, `run-${run}-${intervalUs}.json`);
      const nodeArgs = [self, '--child', '--interval', String(intervalUs), '--duration', values.duration, '--out', out];
      const [command, args] = values['no-pin'] ? [process.execPath, nodeArgs] : ['taskset', ['-c', values.cpu, process.execPath, ...nodeArgs]];
      const result = spawnSync(command, args, { stdio: 'inherit' });
      if (result.status !== 0) throw new Error(`child failed: ${command} ${args.join(' ')}`);
      const row = analyse(JSON.parse(readFileSync(out, 'utf8')));
      rows.push({ run, ...row });
      printRow(row);
    }
  }
  printSummary(rows, intervals);
  console.log(`\nchild outputs (profile + GC entries) in ${dir}`);
  if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
}

function analyse({ intervalUs, profile, gcEntries, processCpuMs, mainThreadCpuMs }) {
  const { samples, timeDeltas, startTime, endTime, nodes } = profile;
  const isGc = new Set(nodes.filter((n) => n.callFrame.functionName === '(garbage collector)').map((n) => n.id));
  const isIdle = new Set(nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const stamps = [];
  let t = startTime;
  for (const delta of timeDeltas) stamps.push((t += delta));
  const n = samples.length;
  const prevGap = (i) => (i === 0 ? stamps[0] - startTime : stamps[i] - stamps[i - 1]);
  const nextGap = (i) => (i + 1 < n ? stamps[i + 1] - stamps[i] : Math.max(0, endTime - stamps[i]));
  const weights = {
    count: () => 1,
    nextGap,
    prevGap,
    midpoint: (i) => (prevGap(i) + nextGap(i)) / 2,
  };
  const windowUs = endTime - startTime;
  const pauses = gcEntries
    .map((e) => ({ start: Math.max(e.startUs, startTime), end: Math.min(e.startUs + e.durationUs, endTime), kind: e.kind }))
    .filter((p) => p.end > p.start)
    .sort((a, b) => a.start - b.start);
  const truthMs = pauses.reduce((sum, p) => sum + (p.end - p.start), 0) / 1000;
  const inPause = (time) => pauses.some((p) => time >= p.start && time <= p.end);
  // GC samples far from every reported pause are GC work Node reports no entry for (incremental
  // marking steps, sweeping on allocation): real, but outside the ground truth.
  const nearPause = (time) => pauses.some((p) => time >= p.start - 2 * intervalUs && time <= p.end + 2 * intervalUs);
  const unreported = samples.map((id, i) => isGc.has(id) && !nearPause(stamps[i]));

  const estimates = {};
  for (const [name, weight] of Object.entries(weights)) {
    let gc = 0;
    let gcNearPauses = 0;
    let all = 0;
    for (let i = 0; i < n; i++) {
      const w = weight(i);
      all += w;
      if (isGc.has(samples[i])) gc += w;
      if (isGc.has(samples[i]) && !unreported[i]) gcNearPauses += w;
    }
    // Shares of the whole window (idle included), comparable with GC ms / window ms.
    estimates[name] = { share: gc / all, shareNearPauses: gcNearPauses / all };
  }
  let gcSamples = 0;
  let gcSamplesInPause = 0;
  let samplesInPause = 0;
  let gapsAfterGc = 0;
  let gapsAfterOther = 0;
  let idle = 0;
  for (let i = 0; i < n; i++) {
    const gc = isGc.has(samples[i]);
    if (isIdle.has(samples[i])) idle++;
    if (gc) gcSamples++;
    if (inPause(stamps[i])) {
      samplesInPause++;
      if (gc) gcSamplesInPause++;
    }
    if (i > 0) (isGc.has(samples[i - 1]) ? (gapsAfterGc += prevGap(i)) : (gapsAfterOther += prevGap(i)));
  }
  const gcCount = gcSamples;
  return {
    intervalUs,
    samples: n,
    windowMs: windowUs / 1000,
    medianGapUs: median(timeDeltas.slice(1)),
    truth: { gcMs: truthMs, share: truthMs / (windowUs / 1000), pauses: pauses.length },
    estimates,
    gcSamplesInsideAPause: gcCount === 0 ? 0 : gcSamplesInPause / gcCount,
    samplesInsidePausesThatSayGc: samplesInPause === 0 ? 0 : gcSamplesInPause / samplesInPause,
    expectedSamplesInPauses: (truthMs * 1000) / intervalUs,
    samplesInPauses: samplesInPause,
    meanGapAfterGcSampleUs: gcCount === 0 ? 0 : gapsAfterGc / gcCount,
    meanGapAfterOtherSampleUs: gapsAfterOther / Math.max(1, n - 1 - gcCount),
    idleShare: idle / n,
    unreportedGcSamples: unreported.filter(Boolean).length,
    processCpuMs,
    mainThreadCpuMs,
  };
}

function pct(x) {
  return `${(100 * x).toFixed(1)}%`;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function printRow(row) {
  const e = row.estimates;
  console.log(
    `interval ${row.intervalUs} µs: ${row.samples} samples (median gap ${row.medianGapUs} µs), ` +
      `GC truth ${row.truth.gcMs.toFixed(0)} ms = ${pct(row.truth.share)} of ${row.windowMs.toFixed(0)} ms in ${row.truth.pauses} pauses; ` +
      `profile: count ${pct(e.count.share)}, next-gap ${pct(e.nextGap.share)}, prev-gap ${pct(e.prevGap.share)}, midpoint ${pct(e.midpoint.share)}; ` +
      `samples inside pauses ${row.samplesInPauses} (expected at the nominal rate ${row.expectedSamplesInPauses.toFixed(0)}), ` +
      `${pct(row.samplesInsidePausesThatSayGc)} of them say GC, ${pct(row.gcSamplesInsideAPause)} of GC samples lie inside a pause, ${row.unreportedGcSamples} far from any; ` +
      `mean gap after a GC sample ${row.meanGapAfterGcSampleUs.toFixed(0)} µs vs ${row.meanGapAfterOtherSampleUs.toFixed(0)}; ` +
      `CPU: process ${row.processCpuMs.toFixed(0)} ms, main thread ${row.mainThreadCpuMs.toFixed(0)} ms`,
  );
}

function printSummary(rows, intervals) {
  console.log('\nmean over runs (GC share of the window; error = estimate − truth, in points; "near pauses" counts only GC samples within 2 intervals of a reported pause)');
  console.log('interval | truth | count (err) | next-gap (err) | prev-gap (err) | midpoint (err) | samples in pauses / expected');
  for (const intervalUs of intervals) {
    const mine = rows.filter((row) => row.intervalUs === intervalUs);
    const mean = (pick) => mine.reduce((sum, row) => sum + pick(row), 0) / mine.length;
    const truth = mean((row) => row.truth.share);
    const cell = (name) => {
      const share = mean((row) => row.estimates[name].share);
      const near = mean((row) => row.estimates[name].shareNearPauses);
      return `${pct(share)} (${((share - truth) * 100).toFixed(1)}; near pauses ${((near - truth) * 100).toFixed(1)})`;
    };
    console.log(
      `${intervalUs} µs | ${pct(truth)} | ${cell('count')} | ${cell('nextGap')} | ${cell('prevGap')} | ${cell('midpoint')} | ` +
        `${mean((row) => row.samplesInPauses).toFixed(0)} / ${mean((row) => row.expectedSamplesInPauses).toFixed(0)}`,
    );
  }
}
