#!/usr/bin/env node
// What gwprof's counting proxy (a scenario file's `proxy: true`) costs and whether it counts right
// (backs docs/scenario-file.md, "Fan-out of your own subgraphs"). The own-scenario fixture (a
// subgraph and a gateway that calls it exactly once per request) is swept at each level with the
// subgraph reached directly and through the proxy, in pairs whose order alternates. Per level: the
// gateway's latency and throughput both ways, its CPU per request, the proxy's CPU per forwarded
// request (its own process.cpuUsage, logged at its stop), and fan-out through the proxy against the
// truth (1, the gateway's one call per request) and against the subgraph's own count of what it served.
//
//   node bench/dist/proxy-cost.js [--pairs 3] [--levels 1,10] [--duration 10] [--out bench/results/proxy-cost]
// Prints a markdown table on stdout; writes every run's figures to <out>/proxy-cost.json.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '@gwprof/analysis';
import type { RunResult } from '@gwprof/results';
import { benchArgs } from './args.js';
import { fixed, repoRoot } from './common.js';

const { values } = benchArgs({
  options: {
    pairs: { type: 'string', default: '3' },
    levels: { type: 'string', default: '1,10' },
    duration: { type: 'string', default: '10' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'proxy-cost') },
  },
});
const cli = path.join(repoRoot, 'packages/cli/dist/bin.js');
const GATEWAY_PORT = '4860';
const SUBGRAPH_PORT = '4861';
type Mode = 'direct' | 'proxied';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-proxy-cost-'));
cpSync(path.join(repoRoot, 'fixtures/own-scenario'), dir, { recursive: true });
const original = readFileSync(path.join(dir, 'scenario.yaml'), 'utf8').replaceAll('4781', SUBGRAPH_PORT);
const files: Record<Mode, string> = { direct: path.join(dir, 'direct.yaml'), proxied: path.join(dir, 'proxied.yaml') };
writeFileSync(files.direct, original);
writeFileSync(files.proxied, original.replace('command: node catalog-subgraph.mjs', 'command: node catalog-subgraph.mjs\n    proxy: true'));

function gwprof(args: string[]): void {
  const run = spawnSync(process.execPath, [cli, ...args, '--no-color', '--gateway-port', GATEWAY_PORT], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`gwprof ${args[0]} exited ${run.status}: ${run.stderr.slice(-2000)}`);
}

/** The JSON lines of a run's logs whose msg is `msg`. */
function logLine(runDir: string, msg: string): Record<string, unknown> | null {
  for (const file of readdirSync(path.join(runDir, 'logs'))) {
    for (const line of readFileSync(path.join(runDir, 'logs', file), 'utf8').split('\n')) {
      if (!line.includes(msg)) continue;
      const logged = JSON.parse(line) as { msg: string };
      // The child's own line is the logged message of the harness's line.
      const inner = logged.msg.startsWith('{') ? (JSON.parse(logged.msg) as Record<string, unknown>) : null;
      if (inner?.msg === msg) return inner;
    }
  }
  return null;
}

interface Measured {
  pair: number;
  mode: Mode;
  level: number;
  rps: number;
  p50Ms: number | null;
  p99Ms: number | null;
  gatewayCpuMsPerRequest: number | null;
  fanout: number | null;
}
interface RunTotals {
  pair: number;
  mode: Mode;
  subgraphServed: number | null;
  proxyForwarded: number | null;
  proxyCpuMs: number | null;
}

gwprof(['goldens', '--scenario', files.direct, '--out', path.join(dir, 'runs')]);
const measured: Measured[] = [];
const totals: RunTotals[] = [];
for (let pair = 1; pair <= Number(values.pairs); pair++) {
  const order: Mode[] = pair % 2 === 1 ? ['direct', 'proxied'] : ['proxied', 'direct'];
  for (const mode of order) {
    const id = `${mode}-${pair}`;
    gwprof([
      'sweep',
      '--scenario',
      files[mode],
      '-c',
      values.levels,
      '-d',
      values.duration,
      '-w',
      '3',
      '--no-profile',
      '--out',
      path.join(dir, 'runs'),
      '--run-id',
      id,
    ]);
    const runDir = path.join(dir, 'runs', id);
    const run = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as RunResult;
    for (const step of run.steps) {
      measured.push({
        pair,
        mode,
        level: step.load.kind === 'closed' ? step.load.concurrency : 0,
        rps: step.rps,
        p50Ms: step.latencyMs?.p50 ?? null,
        p99Ms: step.latencyMs?.p99 ?? null,
        gatewayCpuMsPerRequest: step.gateway.cpuMsPerOkRequest,
        fanout: step.fanout,
      });
    }
    const proxy = logLine(runDir, 'counting proxies stopped');
    const forwarded = proxy ? (proxy.forwarded as Array<{ requests: number }>).reduce((sum, p) => sum + p.requests, 0) : null;
    totals.push({
      pair,
      mode,
      subgraphServed: (logLine(runDir, 'catalog subgraph stopped')?.served as number | undefined) ?? null,
      proxyForwarded: forwarded,
      proxyCpuMs: (proxy?.cpuMs as number | undefined) ?? null,
    });
    process.stderr.write(`pair ${pair} ${mode}: ${run.steps.map((s) => `${s.rps.toFixed(0)} req/s p50 ${fixed(s.latencyMs?.p50, 2)} ms`).join(', ')}\n`);
  }
}

const out = path.resolve(values.out);
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'proxy-cost.json'), `${JSON.stringify({ date: new Date().toISOString(), values, measured, totals }, null, 2)}\n`);

const at = (level: number, mode: Mode, pair: number) => measured.find((m) => m.level === level && m.mode === mode && m.pair === pair)!;
const pairs = Array.from({ length: Number(values.pairs) }, (_, i) => i + 1);
const med = (xs: Array<number | null>) => median(xs.filter((x): x is number => x !== null));
const rows = values.levels
  .split(',')
  .map(Number)
  .map((level) => {
    const paired = (f: (m: Measured) => number | null, how: (a: number, b: number) => number) =>
      med(
        pairs.map((p) => {
          const [d, x] = [f(at(level, 'direct', p)), f(at(level, 'proxied', p))];
          return d === null || x === null ? null : how(d, x);
        }),
      );
    return `| ${level} | ${fixed(med(pairs.map((p) => at(level, 'direct', p).p50Ms)), 2)} | ${fixed(med(pairs.map((p) => at(level, 'proxied', p).p50Ms)), 2)} | ${fixed(
      paired(
        (m) => m.p50Ms,
        (d, x) => x - d,
      ),
      2,
    )} | ${fixed(
      paired(
        (m) => m.rps,
        (d, x) => x / d,
      ),
      3,
    )} | ${fixed(
      paired(
        (m) => m.gatewayCpuMsPerRequest,
        (d, x) => x / d,
      ),
      3,
    )} | ${fixed(med(pairs.map((p) => at(level, 'proxied', p).fanout)), 3)} |`;
  });
const proxied = totals.filter((t) => t.mode === 'proxied');
const cpuPerCall = med(proxied.map((t) => (t.proxyCpuMs !== null && t.proxyForwarded ? (t.proxyCpuMs * 1000) / t.proxyForwarded : null)));
process.stdout.write(
  [
    `${values.pairs} pairs, order alternating; medians over pairs; the fixture gateway calls its subgraph once per request`,
    '',
    '| c | p50 ms direct | p50 ms proxied | p50 added ms (paired) | req/s proxied ÷ direct | gateway CPU/req proxied ÷ direct | fan-out through the proxy |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `proxy CPU per forwarded request (whole run): ${fixed(cpuPerCall, 1)} µs (median of ${proxied.length} runs)`,
    `forwarded by the proxy ÷ served by the subgraph, per run: ${proxied.map((t) => (t.proxyForwarded !== null && t.subgraphServed ? fixed(t.proxyForwarded / t.subgraphServed, 4) : '–')).join(', ')}`,
    '',
  ].join('\n'),
);
