#!/usr/bin/env node
// What gwprof's own load engine costs per request, side by side with wrk (backs
// docs/validation/loadgen-cost.md). Against one server on its own core, for each stream, in pairs
// whose order rotates: wrk (one thread, bench/wrk/graphql.lua checking status 200, "data" and no
// "errors" in every response), gwprof's closed loop and gwprof's open loop, each on the other core,
// all sending the same requests with the same headers. gwprof validates every response fully, as in
// a sweep (status, JSON, no errors, data equal to the golden, key order).
//
// CPU per request is the load process's CPU (all its threads, user + system, as the kernel counts
// it) over its requests: wrk's from its exit rusage (GNU time) over every request it completed;
// gwprof's engine (bench/src/loadgen-engine.ts, a process of its own) from /proc/<pid>/stat over a
// window after a warm-up, over the requests completed in it. The ratio to wrk is taken within
// each pair, and its median reported.
//
// Streams: `stub` is fixtures/stub-gateway.mjs (a tiny answer); `varied` is the default sweep stream
// against bench/src/golden-server.ts, which answers every request with its golden's bytes (about
// 2 KB). Both servers hold each request for --service-ms (0.2 ms: about 4,000 req/s, a native
// gateway's pace, where each response wakes the load generator on its own).
//
//   node bench/dist/loadgen-cost.js [--streams stub,varied] [--pairs 5] [--seconds 15] [--connections 10] [--service-ms 0.2] [--engine-script bench/dist/loadgen-engine.js] [--out bench/results/loadgen-cost/loadgen-vs-wrk.json]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '@gwprof/analysis';
import { requestBodies } from '@gwprof/collect';
import { benchArgs } from './args.js';
import { engineSummary, fixed, repoRoot, runTimed, startPinnedServer, waitForPort } from './common.js';
import { streamScenario } from './loadgen-streams.js';

const { values } = benchArgs({
  options: {
    streams: { type: 'string', default: 'stub,varied' },
    pairs: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    'service-ms': { type: 'string', default: '0.2' },
    'open-fraction': { type: 'string', default: '0.8' },
    port: { type: 'string', default: '4890' },
    /** Another build of bench/dist/loadgen-engine.js (e.g. with the engine before a change), measured the same way. */
    'engine-script': { type: 'string', default: 'bench/dist/loadgen-engine.js' },
    out: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const url = `http://127.0.0.1:${values.port}/graphql`;
const cores = os.availableParallelism();
const loadCpus = '0';
const serverCpus = String(cores - 1);
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

type Tool = 'wrk' | 'closed' | 'open';

interface Run {
  tool: Tool;
  requests: number;
  ok: number;
  failed: number;
  rps: number;
  cpuUserUs: number;
  cpuSystemUs: number;
  /** Load-process CPU per completed request, µs. */
  cpuUsPerRequest: number;
  lagP99Ms?: number | null;
}

interface PairRow {
  pair: number;
  order: Tool[];
  runs: Partial<Record<Tool, Run>>;
}

/** The server's answers for a stream: the stub gateway, or the golden server. */
function startServer(stream: string) {
  const script =
    stream === 'stub'
      ? [path.join(repoRoot, 'fixtures/stub-gateway.mjs')]
      : [path.join(repoRoot, 'bench/dist/golden-server.js'), '--stream', stream, '--port', values.port, '--service-ms', values['service-ms']];
  return startPinnedServer(script, { PORT: values.port, STUB_SERVICE_MS: values['service-ms'] });
}

async function wrkRun(bodiesFile: string, runSeconds: number): Promise<Run> {
  const args = ['-t1', `-c${connections}`, `-d${runSeconds}s`, '--timeout', '10s', '-s', path.join(repoRoot, 'bench/wrk/graphql.lua'), url, '--', bodiesFile];
  const run = await runTimed('wrk', args, { cpus: loadCpus });
  const line = run.stdout.split('\n').find((l) => l.startsWith('{"ok"'));
  // runTimed's GNU time line: user and system seconds of wrk's process.
  const cpu = /gwprof-cpu ([\d.]+) ([\d.]+)/.exec(run.stderr);
  if (run.code !== 0 || !line || !cpu) throw new Error(`wrk failed (${run.code}): ${run.stdout}${run.stderr}`);
  const r = JSON.parse(line) as { ok: number; bad: number; requests: number; duration_us: number };
  const [user, system] = [Number(cpu[1]) * 1e6, Number(cpu[2]) * 1e6];
  return {
    tool: 'wrk',
    requests: r.requests,
    ok: r.ok,
    failed: r.bad,
    rps: r.ok / (r.duration_us / 1e6),
    cpuUserUs: user,
    cpuSystemUs: system,
    cpuUsPerRequest: (user + system) / r.requests,
  };
}

async function engineRun(stream: string, tool: 'closed' | 'open', rate: number, runSeconds: number): Promise<Run> {
  const args = ['--url', url, '--stream', stream, '--engine', tool];
  args.push('--connections', String(connections), '--rate', String(rate), '--warmup', values.warmup, '--seconds', String(runSeconds));
  const r = await engineSummary<Omit<Run, 'tool' | 'cpuUsPerRequest'> & { failureSamples: unknown[] }>(path.resolve(repoRoot, values['engine-script']), args);
  if (r.failed > 0) log(`  ${tool}: ${r.failed} failed: ${JSON.stringify(r.failureSamples)}`);
  return {
    tool,
    requests: r.requests,
    ok: r.ok,
    failed: r.failed,
    rps: r.rps,
    cpuUserUs: r.cpuUserUs,
    cpuSystemUs: r.cpuSystemUs,
    cpuUsPerRequest: (r.cpuUserUs + r.cpuSystemUs) / r.requests,
    lagP99Ms: r.lagP99Ms,
  };
}

/** What else the machine was doing: the busiest processes. */
function busiest(): string {
  return execFileSync('ps', ['-eo', 'pid,ni,pcpu,comm', '--sort=-pcpu'], { encoding: 'utf8' }).split('\n').slice(0, 8).join('\n');
}

const describeRun = (r: Run): string =>
  `${r.tool} ${r.cpuUsPerRequest.toFixed(1)} µs/req (user ${(r.cpuUserUs / r.requests).toFixed(1)}, sys ${(r.cpuSystemUs / r.requests).toFixed(1)}) at ${r.rps.toFixed(0)} ok req/s, ${r.failed} failed${r.lagP99Ms != null ? `, lag p99 ${r.lagP99Ms} ms` : ''}`;

async function measureStream(stream: string, work: string) {
  const bodiesFile = path.join(work, `${stream}.jsonl`);
  writeFileSync(bodiesFile, `${requestBodies(streamScenario(stream)).join('\n')}\n`);
  const server = startServer(stream);
  try {
    await waitForPort(Number(values.port));
    log(`== ${stream}: busiest processes before the runs\n${busiest()}`);
    // Warms the server's JIT, and gives the closed loop's rate, of which the open loop runs a share.
    await wrkRun(bodiesFile, 3);
    const probe = await engineRun(stream, 'closed', 0, 5);
    const rate = Math.round(probe.rps * Number(values['open-fraction']));
    log(`${stream}: probe ${describeRun(probe)}; open loop at ${rate} req/s`);
    const tools: Tool[] = ['wrk', 'closed', 'open'];
    const rows: PairRow[] = [];
    for (let pair = 1; pair <= Number(values.pairs); pair++) {
      const order = tools.map((_, i) => tools[(i + pair - 1) % tools.length]!);
      const row: PairRow = { pair, order, runs: {} };
      for (const tool of order) row.runs[tool] = tool === 'wrk' ? await wrkRun(bodiesFile, seconds) : await engineRun(stream, tool, rate, seconds);
      rows.push(row);
      log(`${stream} pair ${pair} (${order.join(', ')}): ${order.map((t) => describeRun(row.runs[t]!)).join(' · ')}`);
    }
    log(`== ${stream}: busiest processes after the runs\n${busiest()}`);
    return {
      stream,
      server: `${stream === 'stub' ? 'stub gateway' : 'golden server'}, ${values['service-ms']} ms service`,
      openRate: rate,
      rows,
      summary: summarize(rows),
    };
  } finally {
    server.kill('SIGKILL');
  }
}

function summarize(rows: PairRow[]) {
  const of = (tool: Tool) => {
    const runs = rows.map((r) => r.runs[tool]!);
    const ratios = rows.map((r) => r.runs[tool]!.cpuUsPerRequest / r.runs.wrk!.cpuUsPerRequest);
    return {
      rps: median(runs.map((r) => r.rps)),
      cpuUsPerRequest: median(runs.map((r) => r.cpuUsPerRequest)),
      userUsPerRequest: median(runs.map((r) => r.cpuUserUs / r.requests)),
      systemUsPerRequest: median(runs.map((r) => r.cpuSystemUs / r.requests)),
      failed: runs.reduce((a, r) => a + r.failed, 0),
      ratioToWrk: { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) },
    };
  };
  return { wrk: of('wrk'), closed: of('closed'), open: of('open') };
}

if (cores >= 2) execFileSync('taskset', ['-a', '-p', '-c', loadCpus, String(process.pid)], { stdio: 'ignore' });
const work = mkdtempSync(path.join(os.tmpdir(), 'gwprof-loadgen-cost-'));
const results = [];
for (const stream of values.streams.split(',')) results.push(await measureStream(stream, work));

const label: Record<Tool, string> = {
  wrk: `wrk, ${connections} connections, Lua check`,
  closed: `gwprof closed loop, ${connections} connections`,
  open: 'gwprof open loop, Poisson',
};
const table = [
  '| stream (server) | load generator | median ok req/s | median CPU µs per request (user + sys) | ratio to wrk, median of pairs (range) | failed |',
  '| --- | --- | ---: | ---: | ---: | ---: |',
  ...results.flatMap((r) =>
    (['wrk', 'closed', 'open'] as const).map((tool) => {
      const s = r.summary[tool];
      const ratio = tool === 'wrk' ? '1' : `${fixed(s.ratioToWrk.median, 2)} (${fixed(s.ratioToWrk.min, 2)}–${fixed(s.ratioToWrk.max, 2)})`;
      const name = tool === 'open' ? `${label.open} at ${r.openRate} req/s` : label[tool];
      return `| ${r.stream} (${r.server}) | ${name} | ${s.rps.toFixed(0)} | ${fixed(s.cpuUsPerRequest, 1)} (${fixed(s.userUsPerRequest, 1)} + ${fixed(s.systemUsPerRequest, 1)}) | ${ratio} | ${s.failed} |`;
    }),
  ),
].join('\n');
if (values.out) {
  const command = `node bench/dist/loadgen-cost.js ${process.argv.slice(2).join(' ')}`.trim();
  // wrk --version prints its version and usage, and exits 1.
  const wrkVersion = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]!.trim();
  writeFileSync(
    path.resolve(values.out),
    `${JSON.stringify({ command, date: new Date().toISOString(), node: process.version, wrk: wrkVersion, cores, loadCpus, serverCpus, results }, null, 2)}\n`,
  );
}
process.stdout.write(`${table}\n`);
