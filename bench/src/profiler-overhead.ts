#!/usr/bin/env node
// Overhead of gwprof's in-process profilers on a gateway (backs docs/validation/profiler-overhead.md,
// docs/allocations.md, and the defaults DEFAULTS.samplingIntervalUs and DEFAULTS.heapSamplingBytes).
// One gateway process; measurement windows run in rounds, each round every setting once in an order
// drawn for the round, so slow drifts of a shared machine hit all settings alike. Figure of merit:
// gateway CPU time per successful request in each window; a setting's overhead is the median over
// rounds of its window against the reference window of the same round.
// Without --heap: the CPU sampler at --interval against no profiler. With --heap B1,B2,…: the CPU
// sampler plus the allocation sampler at each Bi bytes against the CPU sampler alone (what
// allocation profiles add to a sweep).
//
//   node bench/dist/profiler-overhead.js [--rounds 8] [--duration 10] [--concurrency 20] [--interval 4000] [--heap 32768,65536,131072] [--gateway mesh]
// Prints one JSON object (save it with > bench/results/profiler-overhead/….json).
import path from 'node:path';
import { benchArgs } from './args.js';
import { median, mulberry32 } from '@gwprof/analysis';
import { SEED_QUERY, TreeUsageMeter, gatewayFromSpec, loadScenario } from '@gwprof/collect';
import { benchSession, closedLoopFor } from './common.js';

const { values } = benchArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    duration: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '20' },
    interval: { type: 'string', default: '4000' },
    heap: { type: 'string', default: '0' },
    gateway: { type: 'string', default: 'mesh' },
  },
});
const rounds = Number(values.rounds);
const durationSec = Number(values.duration);
const concurrency = Number(values.concurrency);
const intervalUs = Number(values.interval);
const heapSettings = values.heap
  .split(',')
  .map(Number)
  .filter((bytes) => bytes > 0);

const scenario = loadScenario(SEED_QUERY);
const session = benchSession('overhead', concurrency);
const runDir = session.runDir;
const bed = await session.startBed();
const load = (url: string, seconds: number) => closedLoopFor({ url, connections: concurrency, seconds, timeoutMs: 10_000, scenario });

try {
  const { gateway, profiler } = await bed.launchGateway({ adapter: gatewayFromSpec(values.gateway), gatewayEnv: {}, processName: 'gateway' });
  if (!profiler) throw new Error('profiler did not connect');
  /** A setting: no profiler (null), the CPU sampler alone (0), or the CPU sampler with allocations every `bytes`. */
  type Setting = number | null;
  const reference: Setting = heapSettings.length > 0 ? 0 : null;
  const settings: Setting[] = heapSettings.length > 0 ? [0, ...heapSettings] : [null, 0];
  const name = (setting: Setting) => (setting === null ? 'off' : setting === 0 ? 'cpu' : `cpu+heap ${setting}`);
  const window = async (setting: Setting, label: string): Promise<number> => {
    const meter = new TreeUsageMeter(() => [gateway.process.pid]);
    const heapSamplingBytes = setting ? setting : null;
    if (setting !== null) await profiler.start({ intervalUs, heapSamplingBytes });
    meter.start();
    const outcome = await load(gateway.url, durationSec);
    const usage = meter.stop();
    if (setting !== null)
      await profiler.stop({
        cpuprofile: path.join(runDir, `${label}.cpuprofile`),
        heapprofile: heapSamplingBytes ? path.join(runDir, `${label}.heapprofile`) : null,
      });
    if (outcome.requests.failed > 0) throw new Error(`${label}: ${outcome.requests.failed} failed responses`);
    const cpuMsPerRequest = (usage.cpuSeconds * 1000) / outcome.requests.ok;
    process.stderr.write(`${label} ${name(setting)}: ${cpuMsPerRequest.toFixed(3)} CPU ms/req, ${(outcome.requests.ok / durationSec).toFixed(1)} req/s\n`);
    return cpuMsPerRequest;
  };
  await load(gateway.url, 10); // warm-up
  const random = mulberry32(20261125);
  const measured = new Map<Setting, number[]>(settings.map((setting) => [setting, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = settings
      .map((setting) => ({ setting, key: random() }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.setting);
    for (const setting of order) measured.get(setting)!.push(await window(setting, `round${round}-${name(setting).replace(/\W+/g, '-')}`));
  }
  const against = measured.get(reference)!;
  const compared = settings
    .filter((setting) => setting !== reference)
    .map((setting) => {
      const ratios = measured.get(setting)!.map((ms, i) => ms / against[i]!);
      const sorted = [...ratios].sort((a, b) => a - b);
      return {
        setting: name(setting),
        heapSamplingBytes: setting || null,
        medianCpuMsPerRequest: median(measured.get(setting)!),
        roundRatios: ratios.map((r) => Number(r.toFixed(4))),
        medianOverheadPercent: Number(((median(ratios) - 1) * 100).toFixed(2)),
        quartilesPercent: [sorted[Math.floor((sorted.length - 1) / 4)]!, sorted[Math.ceil(((sorted.length - 1) * 3) / 4)]!].map((r) =>
          Number(((r - 1) * 100).toFixed(2)),
        ),
      };
    });
  const result = {
    gateway: values.gateway,
    rounds,
    durationSec,
    concurrency,
    samplingIntervalUs: intervalUs,
    reference: name(reference),
    referenceMedianCpuMsPerRequest: median(against),
    settings: compared,
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await session.close();
}
