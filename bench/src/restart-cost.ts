#!/usr/bin/env node
// Where a gateway restart's time goes, and how long its JIT warm-up lasts (backs the restart and
// warm-up design of `gwprof compare`, docs/compare.md). Each restart starts the gateway as compare
// does (profiler preload on), records how long preparing (a build, once), listening and answering
// took, then holds a closed loop for --seconds and records, second by second, the gateway's CPU
// per successful request; then stops it and times the stop. The warm-up curve says when CPU per
// request stops falling: the criterion compare's warm-up ends on.
//
//   node bench/dist/restart-cost.js [--gateway mesh] [--restarts 6] [--seconds 30] [--concurrency 20] [--out bench/results/compare-epochs/restart-cost.json]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.js';
import { median } from '@gwprof/analysis';
import { LoadRecorder, RequestStream, VARIED_QUERY, cpuSeconds, gatewayFromSpec, loadScenario, startClosedLoop, wireRequests } from '@gwprof/collect';
import { benchSession, sleep } from './common.js';

const { values } = benchArgs({
  options: {
    gateway: { type: 'string', default: 'mesh' },
    restarts: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '30' },
    concurrency: { type: 'string', default: '20' },
    out: { type: 'string' },
  },
});
const restarts = Number(values.restarts);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Restart {
  startup: { prepareMs: number; listenMs: number; readyMs: number };
  /** Second by second after the load started: successful responses, and gateway CPU ms per one. */
  okPerSecond: number[];
  cpuMsPerRequest: Array<number | null>;
  stopMs: number;
}

const scenario = loadScenario(VARIED_QUERY);
const session = benchSession('restart', concurrency);
const results: Restart[] = [];
try {
  const bed = await session.startBed();
  const adapter = gatewayFromSpec(values.gateway);
  for (let i = 1; i <= restarts; i++) {
    const { gateway, profiler } = await bed.launchGateway({ adapter, gatewayEnv: {}, processName: `gateway-${i}` });
    const recorder = new LoadRecorder(performance.now());
    const stream = new RequestStream(scenario);
    const engine = startClosedLoop({ wire: wireRequests(gateway.url, stream.bodies), connections: concurrency, timeoutMs: 10_000, stream, recorder });
    const cpu: number[] = [cpuSeconds(gateway.pids())];
    for (let s = 1; s <= seconds; s++) {
      await sleep(Math.max(0, s * 1000 - (performance.now() - recorder.startedAt)));
      cpu.push(cpuSeconds(gateway.pids()));
    }
    await engine.stop();
    const okPerSecond = recorder.okPerSecond(0, seconds);
    const cpuMsPerRequest = okPerSecond.map((ok, s) => (ok > 0 ? ((cpu[s + 1]! - cpu[s]!) * 1000) / ok : null));
    profiler?.close();
    const t0 = performance.now();
    await gateway.stop();
    const restart = { startup: gateway.startup, okPerSecond, cpuMsPerRequest, stopMs: performance.now() - t0 };
    results.push(restart);
    log(
      `restart ${i}: prepare ${Math.round(restart.startup.prepareMs)} ms, listen ${Math.round(restart.startup.listenMs)} ms, ready ${Math.round(restart.startup.readyMs)} ms, stop ${Math.round(restart.stopMs)} ms; CPU ms/req by second: ${cpuMsPerRequest.map((v) => (v === null ? '–' : v.toFixed(2))).join(' ')}`,
    );
  }
} finally {
  await session.close();
}

const summary = {
  gateway: values.gateway,
  restarts,
  seconds,
  concurrency,
  medianMs: {
    prepare: median(results.map((r) => r.startup.prepareMs)),
    listen: median(results.map((r) => r.startup.listenMs)),
    ready: median(results.map((r) => r.startup.readyMs)),
    stop: median(results.map((r) => r.stopMs)),
  },
  /** Each second's median over the restarts, relative to the median of the last 10 seconds. */
  cpuPerRequestRelativeToSettled: Array.from({ length: seconds }, (_, s) => {
    const relative = results.flatMap((r) => {
      const settled = median(r.cpuMsPerRequest.slice(-10).filter((v): v is number => v !== null));
      const v = r.cpuMsPerRequest[s];
      return v === null || v === undefined ? [] : [v / settled];
    });
    return relative.length > 0 ? Number(median(relative).toFixed(3)) : null;
  }),
};
console.log(JSON.stringify(summary, null, 2));
if (values.out)
  writeFileSync(
    path.resolve(values.out),
    `${JSON.stringify({ command: `node bench/dist/restart-cost.js ${process.argv.slice(2).join(' ')}`.trim(), date: new Date().toISOString(), summary, restarts: results }, null, 2)}\n`,
  );
