#!/usr/bin/env node
// What `--trace` costs gwprof's load engine: the engine alone (bench/dist/loadgen-engine.js) on
// core 0, plain and with a traceparent on every request (sampled over the whole window), in pairs
// of alternating order against the golden server on the other core (the varied stream, 0.2 ms
// service: a native gateway's pace). Prints each run and the median CPU µs per request of each
// side, with the traced/plain ratio per pair.
//
//   node bench/dist/trace-cost.js [--pairs 5] [--seconds 10] [--engine closed|open] [--port 4890]
import path from 'node:path';
import { median } from '@gwprof/analysis';
import { benchArgs } from './args.js';
import { engineSummary, repoRoot, startPinnedServer, waitForPort } from './common.js';

const { values } = benchArgs({
  options: {
    pairs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '10' },
    engine: { type: 'string', default: 'closed' },
    port: { type: 'string', default: '4890' },
  },
});
const url = `http://127.0.0.1:${values.port}/graphql`;

interface EngineRun {
  traced: boolean;
  requests: number;
  rps: number;
  cpuUsPerRequest: number;
  failed: number;
}

async function engineRun(traced: boolean): Promise<EngineRun> {
  const args = ['--url', url, '--stream', 'varied', '--engine', values.engine];
  args.push('--rate', '3000', '--warmup', '3', '--seconds', values.seconds, ...(traced ? ['--trace'] : []));
  const r = await engineSummary<{ requests: number; rps: number; failed: number; cpuUserUs: number; cpuSystemUs: number }>(
    path.join(repoRoot, 'bench/dist/loadgen-engine.js'),
    args,
  );
  return { traced, requests: r.requests, rps: r.rps, failed: r.failed, cpuUsPerRequest: (r.cpuUserUs + r.cpuSystemUs) / r.requests };
}

const server = startPinnedServer([path.join(repoRoot, 'bench/dist/golden-server.js'), '--stream', 'varied', '--port', values.port, '--service-ms', '0.2']);
try {
  await waitForPort(Number(values.port));
  const ratios: number[] = [];
  const runs: EngineRun[] = [];
  for (let pair = 1; pair <= Number(values.pairs); pair++) {
    const order = pair % 2 === 1 ? [false, true] : [true, false];
    const done: EngineRun[] = [];
    for (const traced of order) done.push(await engineRun(traced));
    const plain = done.find((r) => !r.traced)!;
    const tracedRun = done.find((r) => r.traced)!;
    ratios.push(tracedRun.cpuUsPerRequest / plain.cpuUsPerRequest);
    runs.push(...done);
    for (const r of done)
      process.stdout.write(
        `pair ${pair} ${r.traced ? 'traced' : 'plain '}: ${r.cpuUsPerRequest.toFixed(1)} µs/req at ${r.rps.toFixed(0)} ok req/s, ${r.failed} failed\n`,
      );
  }
  const of = (traced: boolean) => median(runs.filter((r) => r.traced === traced).map((r) => r.cpuUsPerRequest));
  process.stdout.write(
    `\nmedian CPU per request: plain ${of(false).toFixed(1)} µs, traced ${of(true).toFixed(1)} µs; traced/plain per pair: median ${median(ratios).toFixed(3)}, range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}\n`,
  );
} finally {
  server.kill();
}
