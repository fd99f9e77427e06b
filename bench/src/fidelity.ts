#!/usr/bin/env node
// Is gwprof's load generator a faithful one? (backs docs/validation/fidelity-wrk.md)
// gwprof's closed-loop engine and Debian's wrk (with a Lua script, bench/wrk/graphql.lua, that
// counts only validated responses) take turns against the same running gateway, same request
// bodies and headers, same pinning (gateway on its own core, load and subgraphs on the other), the
// gateway settled before every run. Per level: successful req/s, p50/p99 and timeouts side by side,
// and the median gwprof/wrk ratio of interleaved pairs. What it proves: at each level the two tools
// see the same throughput and latency, so gwprof's figures are not an artefact of its own client.
//
// Before a level's first pair, one discarded run at that level (--level-warmup seconds, 0 for none),
// so that neither tool pays for the gateway's first contact with the level. Which tool goes first
// alternates by pair and by level. Per run it also counts the subgraph calls per successful response
// (fan-out) and the gateway's CPU time per successful response: Mesh merges subgraph calls that
// arrive together, so at saturation its throughput follows how closely the clients' requests bunch
// (bench/results/start-race/start-race.md).
//
// --gateway-cpu-quota 0.5 gives the gateway half a core (a cgroup quota): a native gateway's fan-out
// can fill the harness's core first, and the two tools would then compare their own costs instead.
//
//   node bench/dist/fidelity.js [--levels 10,100,300] [--pairs 5] [--duration 20] [--level-warmup 10] [--gateway mesh] [--gateway-cpu-quota 0.5]
//                               [--scenario varied|seed-000] [--base-port 4000] [--out bench/results/fidelity/fidelity.json]
// --base-port N: the gateway on N and the four subgraphs on N+1 to N+4 (default: gwprof's own ports), beside another bed.
// Needs wrk (Debian: apt-get install wrk).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.js';
import { median } from '@gwprof/analysis';
import { DEFAULTS, SCENARIOS, SUBGRAPH_NAMES, attachSubgraphs, bringUp, cpuSeconds, loadScenario, requestBodies, settleGateway } from '@gwprof/collect';
import { closedLoopFor, fixed, wrkRun, type ToolRun } from './common.js';

const { values } = benchArgs({
  options: {
    levels: { type: 'string', default: '10,100,300' },
    pairs: { type: 'string', default: '5' },
    duration: { type: 'string', default: '20' },
    'level-warmup': { type: 'string', default: '10' },
    gateway: { type: 'string', default: 'mesh' },
    'gateway-cpu-quota': { type: 'string', default: '' },
    scenario: { type: 'string', default: 'varied' },
    timeout: { type: 'string', default: '10' },
    'base-port': { type: 'string', default: '' },
    out: { type: 'string' },
  },
});
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const preset = SCENARIOS[values.scenario];
if (!preset) {
  log(`unknown --scenario ${values.scenario}: one of ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}
const levels = values.levels.split(',').map(Number);
const pairs = Number(values.pairs);
const baseDuration = Number(values.duration);
const timeoutSec = Number(values.timeout);
const basePort = values['base-port'] ? Number(values['base-port']) : null;
const gatewayPort = basePort ?? DEFAULTS.gatewayPort;
const subgraphPorts: typeof DEFAULTS.subgraphPorts =
  basePort === null ? DEFAULTS.subgraphPorts : (Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, basePort + 1 + i])) as typeof DEFAULTS.subgraphPorts);
const scenario = loadScenario(preset.files);
const work = mkdtempSync(path.join(os.tmpdir(), 'gwprof-fidelity-'));
const bodiesFile = path.join(work, 'bodies.jsonl');
writeFileSync(bodiesFile, `${requestBodies(scenario).join('\n')}\n`);
// Long latencies need long runs: at least 10 mean round trips at the levels where Mesh takes seconds.
const durationFor = (c: number): number => (c >= 300 ? Math.max(baseDuration, 30) : baseDuration);

type Tool = 'gwprof' | 'wrk';

/** A run with what the gateway did for its successful responses. */
interface MeasuredRun extends ToolRun {
  fanout: number | null;
  cpuMsPerOk: number | null;
}

interface WarmupRow {
  level: number;
  warmup: ToolRun;
}

interface PairRow {
  level: number;
  pair: number;
  seconds: number;
  order: string;
  gwprofSettle?: number;
  gwprof: MeasuredRun;
  wrkSettle?: number;
  wrk: MeasuredRun;
  ratio: number;
}

async function gwprofRun(url: string, connections: number, seconds: number): Promise<ToolRun> {
  const w = await closedLoopFor({ url, connections, seconds, timeoutMs: timeoutSec * 1000, scenario });
  return {
    ok: w.requests.ok,
    failed: w.requests.failed,
    rps: w.requests.ok / seconds,
    p50: w.latencyMs?.p50 ?? null,
    p99: w.latencyMs?.p99 ?? null,
    timeouts: w.failureCounts.timeouts,
  };
}

try {
  execFileSync('wrk', ['--version'], { stdio: 'ignore' });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
    log('wrk is not installed: apt-get install wrk');
    process.exit(2);
  }
}
const bed = await bringUp({
  gateway: values.gateway,
  gatewayEnv: {},
  subgraphDelayMs: 0,
  subgraphPorts,
  gatewayPort,
  ...(preset.gatewayCpus ? { gatewayCpus: preset.gatewayCpus } : {}),
  ...(values['gateway-cpu-quota'] ? { gatewayCpuQuota: Number(values['gateway-cpu-quota']) } : {}),
  outDir: work,
  commandLine: process.argv.slice(2),
  onProgress: log,
});
const others = execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8' })
  .split(':')
  .pop()!
  .trim();
// What the gateway did for a run's successful responses: subgraph requests (fan-out; Mesh merges
// concurrent subgraph calls, so fan-out falls when requests arrive together) and its CPU time.
const subgraphs = await attachSubgraphs(subgraphPorts);
const subgraphRequests = async (): Promise<number> => Object.values(await subgraphs.requestCounts!()).reduce((a, b) => a + b, 0);
const gatewayCpuMs = (): number => cpuSeconds([bed.gateway.pid]) * 1000;
async function withGatewayWork(run: () => Promise<ToolRun>): Promise<MeasuredRun> {
  const [calls, cpu] = [await subgraphRequests(), gatewayCpuMs()];
  const r = await run();
  const [calls1, cpu1] = [await subgraphRequests(), gatewayCpuMs()];
  return { ...r, fanout: r.ok ? (calls1 - calls) / r.ok : null, cpuMsPerOk: r.ok ? (cpu1 - cpu) / r.ok : null };
}

const results: (WarmupRow | PairRow)[] = [];
const isPair = (r: WarmupRow | PairRow): r is PairRow => !('warmup' in r);
try {
  log(`gateway ${values.gateway} at ${bed.gateway.url} on cpus ${bed.gateway.cpus}; load on ${others}; warming up…`);
  await gwprofRun(bed.gateway.url, 10, 20);
  for (const [index, c] of levels.entries()) {
    const seconds = durationFor(c);
    const port = Number(new URL(bed.gateway.url).port);
    if (Number(values['level-warmup']) > 0) {
      await settleGateway(bed.gateway.pid, 60, new AbortController().signal, [port]);
      const warm = await gwprofRun(bed.gateway.url, c, Number(values['level-warmup']));
      results.push({ level: c, warmup: warm });
      log(`c=${c} level warm-up (discarded): ${warm.rps.toFixed(1)} req/s, ${warm.timeouts} timeouts`);
    }
    for (let pair = 1; pair <= pairs; pair++) {
      const order: Tool[] = (pair + index) % 2 === 1 ? ['gwprof', 'wrk'] : ['wrk', 'gwprof'];
      // Filled in run order, so the JSON lists the first tool first.
      const row = { level: c, pair, seconds, order: order.join('→') } as PairRow;
      for (const tool of order) {
        const settled = await settleGateway(bed.gateway.pid, 60, new AbortController().signal, [port]);
        row[`${tool}Settle`] = settled.seconds;
        row[tool] = await withGatewayWork(() =>
          tool === 'gwprof'
            ? gwprofRun(bed.gateway.url, c, seconds)
            : wrkRun({ url: bed.gateway.url, connections: c, seconds, cpus: others, timeoutSec, bodiesFile }),
        );
      }
      row.ratio = row.gwprof.rps / row.wrk.rps;
      results.push(row);
      log(
        `c=${c} pair ${pair} (${row.order}): gwprof ${row.gwprof.rps.toFixed(1)} req/s p99 ${row.gwprof.p99} ms timeouts ${row.gwprof.timeouts} · wrk ${row.wrk.rps.toFixed(1)} req/s p99 ${row.wrk.p99} ms timeouts ${row.wrk.timeouts} · fan-out ${row.gwprof.fanout?.toFixed(2)} / ${row.wrk.fanout?.toFixed(2)} · ratio ${row.ratio.toFixed(3)}`,
      );
    }
  }
} finally {
  await bed.close();
}

const summary = levels.map((c) => {
  const rows = results.filter(isPair).filter((r) => r.level === c);
  const pick = (tool: Tool, key: 'rps' | 'p50' | 'p99' | 'fanout' | 'cpuMsPerOk'): number =>
    median(rows.map((r) => r[tool][key]).filter((v): v is number => v !== null));
  const warmup = results.find((r): r is WarmupRow => r.level === c && !isPair(r));
  return {
    level: c,
    pairs: rows.length,
    gwprofRps: pick('gwprof', 'rps'),
    wrkRps: pick('wrk', 'rps'),
    medianRatio: median(rows.map((r) => r.ratio)),
    minRatio: Math.min(...rows.map((r) => r.ratio)),
    maxRatio: Math.max(...rows.map((r) => r.ratio)),
    gwprofP50: pick('gwprof', 'p50'),
    wrkP50: pick('wrk', 'p50'),
    gwprofP99: pick('gwprof', 'p99'),
    wrkP99: pick('wrk', 'p99'),
    gwprofTimeouts: rows.reduce((a, r) => a + r.gwprof.timeouts, 0),
    wrkTimeouts: rows.reduce((a, r) => a + r.wrk.timeouts, 0),
    gwprofFanout: pick('gwprof', 'fanout'),
    wrkFanout: pick('wrk', 'fanout'),
    gwprofCpuMsPerOk: pick('gwprof', 'cpuMsPerOk'),
    wrkCpuMsPerOk: pick('wrk', 'cpuMsPerOk'),
    warmupTimeouts: warmup?.warmup.timeouts ?? null,
  };
});
const f = (x: number | null, d = 1): string => fixed(x, d);
const table = [
  '| conc | pairs | gwprof ok req/s | wrk ok req/s | median ratio (range) | p50 ms gwprof / wrk | p99 ms gwprof / wrk | timeouts gwprof / wrk | subgraph calls per ok response gwprof / wrk | gateway CPU ms per ok response gwprof / wrk | timeouts in the discarded level warm-up |',
  '| ---: | ---: | ---: | ---: | --- | --- | --- | --- | --- | --- | ---: |',
  ...summary.map(
    (s) =>
      `| ${s.level} | ${s.pairs} | ${f(s.gwprofRps)} | ${f(s.wrkRps)} | ${f(s.medianRatio, 3)} (${f(s.minRatio, 3)}–${f(s.maxRatio, 3)}) | ${f(s.gwprofP50, 0)} / ${f(s.wrkP50, 0)} | ${f(s.gwprofP99, 0)} / ${f(s.wrkP99, 0)} | ${s.gwprofTimeouts} / ${s.wrkTimeouts} | ${f(s.gwprofFanout, 2)} / ${f(s.wrkFanout, 2)} | ${f(s.gwprofCpuMsPerOk, 2)} / ${f(s.wrkCpuMsPerOk, 2)} | ${s.warmupTimeouts ?? '–'} |`,
  ),
].join('\n');
const report = {
  command: `node bench/dist/fidelity.js ${process.argv.slice(2).join(' ')}`.trim(),
  date: new Date().toISOString(),
  gateway: values.gateway,
  scenario: values.scenario,
  node: process.version,
  cpus: { gateway: bed.gateway.cpus, load: others },
  summary,
  pairs: results,
};
if (values.out) writeFileSync(path.resolve(values.out), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${table}\n`);
