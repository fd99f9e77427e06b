#!/usr/bin/env node
// gwprof's load engine alone in a process, so its CPU can be read from /proc like any other load
// generator's (bench/src/loadgen-cost.ts runs it beside wrk). It loads the stream, warms up, then
// measures one window: the requests that completed in it, every response validated as in a sweep,
// and this process's CPU over it from /proc/self/stat (all its threads: V8's GC helpers too).
// Prints one JSON line.
//
// With --trace, every request carries a traceparent as in `sweep --trace`, sampled over the whole
// window at the sweep's rule (what tracing costs the engine: bench/src/trace-cost.ts).
//
//   node bench/dist/loadgen-engine.js --url http://127.0.0.1:4890/graphql --stream stub|varied [--engine closed|open] [--connections 10] [--rate 3000] [--warmup 3] [--seconds 15] [--trace]
import { readFileSync } from 'node:fs';
import { DEFAULTS, LoadRecorder, RequestStream, RequestTraces, startClosedLoop, startOpenLoop, wireRequests } from '@gwprof/collect';
import { benchArgs } from './args.js';
import { sleep } from './common.js';
import { streamScenario } from './loadgen-streams.js';

const { values } = benchArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:4890/graphql' },
    stream: { type: 'string', default: 'stub' },
    engine: { type: 'string', default: 'closed' },
    connections: { type: 'string', default: '10' },
    rate: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '15' },
    trace: { type: 'boolean', default: false },
  },
});

/** This process's user and system CPU so far, µs, as the kernel counts it (/proc/self/stat, clock ticks). */
function procCpuUs(): { user: number; system: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tickUs = 1e6 / 100; // USER_HZ, 100 on Linux
  return { user: Number(fields[11]) * tickUs, system: Number(fields[12]) * tickUs };
}

const warmup = Number(values.warmup);
const seconds = Number(values.seconds);
const scenario = streamScenario(values.stream);
const recorder = new LoadRecorder(performance.now());
const stream = new RequestStream(scenario);
const traces = values.trace ? new RequestTraces(DEFAULTS.traceSampling) : null;
const common = {
  wire: wireRequests(values.url, stream.bodies, { traced: traces !== null }),
  timeoutMs: 10_000,
  stream,
  recorder,
  ...(traces ? { traces } : {}),
};
const engine =
  values.engine === 'open'
    ? startOpenLoop({ ...common, rate: Number(values.rate), arrivals: 'poisson', maxInFlight: 1000, seed: 1 })
    : startClosedLoop({ ...common, connections: Number(values.connections) });
const at = (second: number) => sleep(Math.max(0, recorder.startedAt + second * 1000 - performance.now()));
await at(warmup);
traces?.startSampling();
const before = procCpuUs();
await at(warmup + seconds);
const after = procCpuUs();
// Responses of the window's last moments are filed when they complete; a few ms later nothing of the window is left.
await sleep(20);
const window = recorder.window(warmup, warmup + seconds);
await engine.stop();
const cpu = { user: after.user - before.user, system: after.system - before.system };
process.stdout.write(
  `${JSON.stringify({
    engine: values.engine,
    seconds,
    requests: window.requests.total,
    ok: window.requests.ok,
    failed: window.requests.failed,
    orderWarnings: window.orderWarnings,
    failureSamples: window.failureSamples,
    rps: window.requests.ok / seconds,
    cpuUserUs: cpu.user,
    cpuSystemUs: cpu.system,
    lagP99Ms: window.lagMs?.p99 ?? null,
    traced: traces?.stopSampling().length ?? null,
  })}\n`,
);
process.exit(0);
