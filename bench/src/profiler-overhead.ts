#!/usr/bin/env node
// Overhead of gwprof's in-process CPU profiler on the Mesh gateway.
// One gateway process; measurement windows alternate profiling on and off (on/off, off/on, …)
// so slow drifts of a shared machine hit both alike. Figure of merit: gateway CPU time per
// successful request in each window; the overhead is the median of the on/off ratios of pairs.
//
//   node scripts/bench-profiler-overhead.mjs [--pairs 10] [--duration 10] [--concurrency 20] [--interval 4000]
import { parseArgs } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import {
  DEFAULTS, LoadRecorder, RequestStream, SEED_QUERY, TreeUsageMeter, gatewayFromSpec, loadScenario, openSession, startClosedLoop,
} from '../packages/collect/dist/index.js';

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
/** The sweep's own engine: closed loop for `seconds`, every response validated. */
async function load(url, seconds) {
  const recorder = new LoadRecorder(performance.now());
  const engine = startClosedLoop({ url, connections: concurrency, timeoutMs: 10_000, stream: new RequestStream(scenario), recorder });
  await new Promise((r) => setTimeout(r, seconds * 1000 + 20));
  await engine.stop();
  return recorder.window(0, seconds);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

try {
  const { gateway, profiler } = await bed.launchGateway({ adapter: gatewayFromSpec(values.gateway), gatewayEnv: {}, processName: 'gateway' });
  if (!profiler) throw new Error('profiler did not connect');
  const window = async (profiled, label) => {
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
  const ratios = [];
  const on = [];
  const off = [];
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
