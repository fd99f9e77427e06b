#!/usr/bin/env node
// Overhead of gwprof's in-process CPU profiler on the Mesh gateway.
// One gateway process; measurement windows alternate profiling on and off (on/off, off/on, …)
// so slow drifts of a shared machine hit both alike. Figure of merit: gateway CPU time per
// successful request in each window; the overhead is the median of the on/off ratios of pairs.
//
//   node scripts/bench-profiler-overhead.mjs [--pairs 10] [--duration 10] [--concurrency 20] [--interval 4000]
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  DEFAULT_SUBGRAPH_PORTS, TreeUsageMeter, createRunLogs, fixturesDir, gatewayFromSpec, loadScenario,
  planResources, runLoad, startTestBed,
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

const runDir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-overhead-'));
const logs = createRunLogs(runDir);
const scenario = loadScenario({
  query: path.join(fixturesDir, 'test-query.graphql'),
  expect: path.join(fixturesDir, 'test-query.expected.json'),
});
const resources = planResources({ maxConcurrency: concurrency });
const bed = await startTestBed({
  resources, runDir, logs, subgraphPorts: DEFAULT_SUBGRAPH_PORTS, subgraphDelayMs: 0, gatewayPort: 4000,
  profiler: 'inspector', onProgress: (line) => process.stderr.write(`${line}\n`),
});
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

try {
  const { gateway, profiler } = await bed.launchGateway({ adapter: gatewayFromSpec(values.gateway), gatewayEnv: {}, processName: 'gateway' });
  if (!profiler) throw new Error('profiler did not connect');
  const window = async (profiled, label) => {
    const meter = new TreeUsageMeter(() => [gateway.process.pid]);
    if (profiled) await profiler.start(intervalUs);
    meter.start();
    const outcome = await runLoad({ url: gateway.url, scenario, connections: concurrency, durationSec, timeoutSec: 10 }).done;
    const usage = meter.stop();
    if (profiled) await profiler.stop(path.join(runDir, `${label}.cpuprofile`));
    if (outcome.requests.failed > 0) throw new Error(`${label}: ${outcome.requests.failed} failed responses`);
    const cpuMsPerRequest = (usage.cpuSeconds * 1000) / outcome.requests.ok;
    process.stderr.write(`${label}: ${profiled ? 'on ' : 'off'} ${cpuMsPerRequest.toFixed(3)} CPU ms/req, ${(outcome.requests.ok / outcome.durationSec).toFixed(1)} req/s\n`);
    return cpuMsPerRequest;
  };
  await runLoad({ url: gateway.url, scenario, connections: concurrency, durationSec: 10, timeoutSec: 10 }).done; // warm-up
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
  await bed.close();
}
