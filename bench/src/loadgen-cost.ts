#!/usr/bin/env node
// What gwprof's own load generator costs per request (backs docs/validation/loadgen-cost.md): its
// CPU time (process.cpuUsage of this process, which runs only the load) per completed request, for
// the closed-loop engine and the open-loop scheduler at the same throughput, against a stub gateway
// fast enough not to be the limit (fixtures/stub-gateway.mjs on its own core). Pairs alternate
// which engine goes first. What it proves: the load generator's cost per request is small beside
// a gateway's, and the open-loop scheduler keeps its sends on time (lag p99) at that rate.
//
//   node bench/dist/loadgen-cost.js [--pairs 5] [--seconds 15] [--service-ms 0.2] [--connections 10] [--out bench/results/loadgen-cost/loadgen-cost.json]
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.js';
import { median } from '@gwprof/analysis';
import { LoadRecorder, RequestStream, loadScenario, startClosedLoop, startOpenLoop } from '@gwprof/collect';
import { fixed, repoRoot, sleep } from './common.js';

const { values } = benchArgs({
  options: {
    pairs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '15' },
    'service-ms': { type: 'string', default: '0.2' },
    connections: { type: 'string', default: '10' },
    port: { type: 'string', default: '4890' },
    out: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const url = `http://127.0.0.1:${values.port}/graphql`;
const scenario = loadScenario({ query: path.join(repoRoot, 'fixtures/stub.graphql'), expect: path.join(repoRoot, 'fixtures/stub.expected.json') });
const cores = os.availableParallelism();
const pin = (cpus: string, cmd: string, args: string[]): [string, string[]] => (cores >= 2 ? ['taskset', ['-c', cpus, cmd, ...args]] : [cmd, args]);

if (cores >= 2) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
const [cmd, args] = pin(String(cores - 1), process.execPath, [path.join(repoRoot, 'fixtures/stub-gateway.mjs')]);
const stub = spawn(cmd, args, { env: { ...process.env, PORT: values.port, STUB_SERVICE_MS: values['service-ms'] }, stdio: 'ignore' });
await sleep(800);

interface Measured {
  rps: number;
  failed: number;
  cpuUsPerRequest: number;
  cpuPercent: number;
  lagP99Ms: number | null;
}
type Engine = ReturnType<typeof startClosedLoop>;

/** Runs one engine for `seconds` and returns its CPU µs per completed request and its throughput. */
async function measure(start: (recorder: LoadRecorder) => Engine): Promise<Measured> {
  const recorder = new LoadRecorder(performance.now());
  const cpuBefore = process.cpuUsage();
  const engine = start(recorder);
  await sleep(seconds * 1000 + 20);
  const window = recorder.window(0, seconds);
  await engine.stop();
  const cpu = process.cpuUsage(cpuBefore);
  const completed = window.requests.total;
  return {
    rps: window.requests.ok / seconds,
    failed: window.requests.failed,
    cpuUsPerRequest: (cpu.user + cpu.system) / completed,
    cpuPercent: (cpu.user + cpu.system) / 1e4 / seconds,
    lagP99Ms: window.lagMs?.p99 ?? null,
  };
}

const closed = (recorder: LoadRecorder): Engine =>
  startClosedLoop({ url, connections: Number(values.connections), timeoutMs: 10_000, stream: new RequestStream(scenario), recorder });
try {
  await measure(closed); // warm both sides' JIT
  const probe = await measure(closed);
  const rate = Math.round(probe.rps * 0.8);
  const open = (recorder: LoadRecorder): Engine =>
    startOpenLoop({ url, rate, arrivals: 'poisson', maxInFlight: 1000, timeoutMs: 10_000, stream: new RequestStream(scenario), recorder, seed: 1 });
  const rows: { pair: number; closed: Measured; open: Measured }[] = [];
  for (let pair = 1; pair <= Number(values.pairs); pair++) {
    const order = pair % 2 ? (['closed', 'open'] as const) : (['open', 'closed'] as const);
    // Filled in run order, so the JSON lists the first engine first.
    const row = { pair } as { pair: number; closed: Measured; open: Measured };
    for (const kind of order) row[kind] = await measure(kind === 'closed' ? closed : open);
    rows.push(row);
    process.stderr.write(
      `pair ${pair}: closed ${row.closed.cpuUsPerRequest.toFixed(1)} µs/req at ${row.closed.rps.toFixed(0)} req/s · open ${row.open.cpuUsPerRequest.toFixed(1)} µs/req at ${row.open.rps.toFixed(0)} req/s (lag p99 ${row.open.lagP99Ms} ms)\n`,
    );
  }
  const summary = {
    closed: { rps: median(rows.map((r) => r.closed.rps)), cpuUsPerRequest: median(rows.map((r) => r.closed.cpuUsPerRequest)) },
    // A lag is null only for closed-loop load; JSON writes a NaN median as null, as before.
    open: {
      rate,
      rps: median(rows.map((r) => r.open.rps)),
      cpuUsPerRequest: median(rows.map((r) => r.open.cpuUsPerRequest)),
      lagP99Ms: median(rows.map((r) => r.open.lagP99Ms ?? Number.NaN)),
    },
  };
  if (values.out)
    writeFileSync(
      path.resolve(values.out),
      `${JSON.stringify({ command: `node bench/dist/loadgen-cost.js ${process.argv.slice(2).join(' ')}`.trim(), date: new Date().toISOString(), node: process.version, summary, rows }, null, 2)}\n`,
    );
  process.stdout.write(
    `${[
      '| engine | median ok req/s | median CPU µs per request (load generator) | open-loop lag p99 |',
      '| --- | ---: | ---: | ---: |',
      `| closed loop, ${values.connections} connections | ${summary.closed.rps.toFixed(0)} | ${summary.closed.cpuUsPerRequest.toFixed(1)} | – |`,
      `| open loop, Poisson at ${rate} req/s | ${summary.open.rps.toFixed(0)} | ${summary.open.cpuUsPerRequest.toFixed(1)} | ${fixed(summary.open.lagP99Ms, 2)} ms |`,
    ].join('\n')}\n`,
  );
} finally {
  stub.kill('SIGKILL');
}
