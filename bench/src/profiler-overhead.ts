#!/usr/bin/env node
// Overhead of gwprof's in-process CPU profiler on the Mesh gateway (backs
// docs/validation/profiler-overhead.md, and the default sampling interval, DEFAULTS.samplingIntervalUs).
// One gateway process; measurement windows alternate profiling on and off (on/off, off/on, …)
// so slow drifts of a shared machine hit both alike. Figure of merit: gateway CPU time per
// successful request in each window; the overhead is the median of the on/off ratios of pairs.
// What it proves: how much the profiler adds to the CPU per request it reports, at an interval.
//
//   node bench/dist/profiler-overhead.js [--pairs 8] [--duration 10] [--concurrency 20] [--interval 4000] [--gateway mesh]
// Prints one JSON object (save it with > docs/bench/profiler-overhead.json).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from '@gwprof/analysis';
import { DEFAULTS, SEED_QUERY, TreeUsageMeter, gatewayFromSpec, loadScenario, openSession } from '@gwprof/collect';
import { closedLoopFor } from './common.js';

const { values } = parseArgs({
  options: {
    pairs: { type: 'string', default: '8' },
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '20' },
    interval: { type: 'string', default: '4000' },
    gateway: { type: 'string', default: 'mesh' },
  },
});
const pairs = Number(values.pairs);
const durationSec = Number(values.duration);
const concurrency = Number(values.concurrency);
const intervalUs = Number(values.interval);

const scenario = loadScenario(SEED_QUERY);
const session = openSession({
  outDir: mkdtempSync(path.join(os.tmpdir(), 'gwprof-overhead-')), label: 'overhead', maxConcurrency: concurrency, gatewayPackages: {},
  profiler: 'inspector', commandLine: process.argv.slice(2), subgraphPorts: DEFAULTS.subgraphPorts, subgraphDelayMs: 0,
  gatewayPort: DEFAULTS.gatewayPort, onProgress: (line) => process.stderr.write(`${line}\n`),
});
const runDir = session.runDir;
const bed = await session.startBed();
const load = (url: string, seconds: number) => closedLoopFor({ url, connections: concurrency, seconds, timeoutMs: 10_000, scenario });

try {
  const { gateway, profiler } = await bed.launchGateway({ adapter: gatewayFromSpec(values.gateway), gatewayEnv: {}, processName: 'gateway' });
  if (!profiler) throw new Error('profiler did not connect');
  const window = async (profiled: boolean, label: string): Promise<number> => {
    const meter = new TreeUsageMeter(() => [gateway.process.pid]);
    if (profiled) await profiler.start(intervalUs);
    meter.start();
    const outcome = await load(gateway.url, durationSec);
    const usage = meter.stop();
    if (profiled) await profiler.stop(path.join(runDir, `${label}.cpuprofile`));
    if (outcome.requests.failed > 0) throw new Error(`${label}: ${outcome.requests.failed} failed responses`);
    const cpuMsPerRequest = (usage.cpuSeconds * 1000) / outcome.requests.ok;
    process.stderr.write(`${label}: ${profiled ? 'on ' : 'off'} ${cpuMsPerRequest.toFixed(3)} CPU ms/req, ${(outcome.requests.ok / durationSec).toFixed(1)} req/s\n`);
    return cpuMsPerRequest;
  };
  await load(gateway.url, 10); // warm-up
  const ratios: number[] = [];
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const onFirst = i % 2 === 0;
    const first = await window(onFirst, `pair${i + 1}-a`);
    const second = await window(!onFirst, `pair${i + 1}-b`);
    const [withProfiler, without] = onFirst ? [first, second] : [second, first];
    on.push(withProfiler);
    off.push(without);
    ratios.push(withProfiler / without);
  }
  const overhead = median(ratios) - 1;
  const result = {
    gateway: values.gateway, pairs, durationSec, concurrency, samplingIntervalUs: intervalUs,
    medianCpuMsPerRequest: { on: median(on), off: median(off) },
    pairRatios: ratios.map((r) => Number(r.toFixed(4))),
    medianOverheadPercent: Number((overhead * 100).toFixed(2)),
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await session.close();
}
