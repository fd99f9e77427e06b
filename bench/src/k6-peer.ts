#!/usr/bin/env node
// k6 as a peer of gwprof's engine, and k6 split across load generators (backs docs/validation/k6.md).
// One gateway brought up as `gwprof up` does; then, on it:
// 1. Closed loop: gwprof's engine, k6 running the script `gwprof export k6` writes, and wrk (with
//    bench/wrk/graphql.lua) take turns at each level, in an order that rotates by round, the gateway
//    settled before each run: ok req/s, p50/p99, fan-out, the gateway's CPU per ok response, and
//    each load generator's own CPU per request (GNU time for k6 and wrk; this process's own CPU for
//    gwprof's engine, which is all it runs then). k6's figures count only what its check validated
//    and completed within the run's first --duration seconds, as gwprof's window does.
// 2. Segments: one k6 at --split-rate against two k6 processes with execution segments 0:1/2 and
//    1/2:1 at the same total rate, read back by `gwprof import k6`'s code: ok req/s and p50 of one
//    against the merge, and iterations against responses (a request counted twice or lost shows).
// 3. Overload: k6 open loop at --overload-rate, above the gateway's capacity, and gwprof's own open
//    loop at the same rate and in-flight cap: both must show the arrivals they could not send as dropped.
//
//   node bench/dist/k6-peer.js [--levels 10,100] [--rounds 5] [--duration 20] [--split-rate 100] [--split-seconds 30] [--split-pairs 3]
//                              [--overload-rate 400] [--max-in-flight 100] [--gateway mesh] [--k6 .tools/bin/k6] [--out bench/results/k6/k6-peer.json]
// Needs k6 (node scripts/ensure-k6.mjs builds it) and wrk (apt-get install wrk).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchArgs } from './args.js';
import { median } from '@gwprof/analysis';
import {
  DEFAULTS,
  LoadRecorder,
  RequestStream,
  SCENARIOS,
  attachSubgraphs,
  bringUp,
  cpuSeconds,
  exportK6,
  k6Step,
  loadScenario,
  readK6Samples,
  requestBodies,
  settleGateway,
  startOpenLoop,
  wireRequests,
} from '@gwprof/collect';
import type { LoadShape } from '@gwprof/results';
import { closedLoopFor, fixed, repoRoot, runTimed, sleep, wrkRun, type ToolRun } from './common.js';

const { values } = benchArgs({
  options: {
    levels: { type: 'string', default: '10,100' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '20' },
    'split-rate': { type: 'string', default: '100' },
    'split-seconds': { type: 'string', default: '30' },
    'split-pairs': { type: 'string', default: '3' },
    'overload-rate': { type: 'string', default: '400' },
    'max-in-flight': { type: 'string', default: '100' },
    gateway: { type: 'string', default: 'mesh' },
    scenario: { type: 'string', default: 'varied' },
    timeout: { type: 'string', default: '10' },
    k6: { type: 'string', default: path.join(repoRoot, '.tools', 'bin', 'k6') },
    out: { type: 'string' },
  },
});
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const preset = SCENARIOS[values.scenario]!;
const seconds = Number(values.duration);
const timeoutSec = Number(values.timeout);
const scenario = loadScenario(preset.files);
const work = mkdtempSync(path.join(os.tmpdir(), 'gwprof-k6-peer-'));
const bodiesFile = path.join(work, 'bodies.jsonl');
writeFileSync(bodiesFile, `${requestBodies(scenario).join('\n')}\n`);

const bed = await bringUp({
  gateway: values.gateway,
  gatewayEnv: {},
  subgraphDelayMs: 0,
  subgraphPorts: DEFAULTS.subgraphPorts,
  gatewayPort: DEFAULTS.gatewayPort,
  ...(preset.gatewayCpus ? { gatewayCpus: preset.gatewayCpus } : {}),
  outDir: work,
  commandLine: process.argv.slice(2),
  onProgress: log,
});
const url = bed.gateway.url;
const others = execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8' })
  .split(':')
  .pop()!
  .trim();
const subgraphs = await attachSubgraphs(DEFAULTS.subgraphPorts);
const subgraphRequests = async (): Promise<number> => Object.values(await subgraphs.requestCounts!()).reduce((a, b) => a + b, 0);
const port = Number(new URL(url).port);

const percentile = (sorted: number[], p: number): number | null =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : null;

function exportScript(name: string, load: LoadShape, durationSec: number): string {
  return exportK6({ outDir: path.join(work, name), scenario: preset.files, scenarioName: values.scenario, url, load, durationSec, timeoutSec }).script;
}

function k6Args(script: string, samples: string, extra: string[] = []): string[] {
  return ['run', '--quiet', '--summary-mode=disabled', '--no-usage-report', '--address', '', '--out', `json=${samples}`, ...extra, script];
}

/** k6 closed loop at `c`: what it validated and completed within the first `seconds` of its run. */
async function k6Run(c: number): Promise<ToolRun> {
  const script = exportScript(`c${c}`, { kind: 'closed', concurrency: c }, seconds + 2);
  const samples = path.join(path.dirname(script), 'samples.json');
  const run = await runTimed(values.k6, k6Args(script, samples), { cpus: others });
  if (run.code !== 0) throw new Error(`k6 failed (${run.code}): ${run.stderr.slice(-500)}`);
  const oks: Array<{ at: number; ms: number }> = [];
  const failures: Array<{ at: number; kind: string }> = [];
  for (const line of readFileSync(samples, 'utf8').split('\n')) {
    if (!line.startsWith('{"metric":"gwprof_ok_duration"') && !line.startsWith('{"metric":"gwprof_failed"')) continue;
    const sample = JSON.parse(line) as { metric: string; data: { time: string; value: number; tags?: Record<string, string> } };
    if (sample.metric === 'gwprof_ok_duration') oks.push({ at: Date.parse(sample.data.time), ms: sample.data.value });
    else failures.push({ at: Date.parse(sample.data.time), kind: sample.data.tags?.kind ?? '' });
  }
  const start = Math.min(...oks.map((o) => o.at - o.ms));
  const inWindow = (at: number): boolean => at - start <= seconds * 1000;
  const latencies = oks
    .filter((o) => inWindow(o.at))
    .map((o) => o.ms)
    .sort((a, b) => a - b);
  const failed = failures.filter((f) => inWindow(f.at));
  return {
    ok: latencies.length,
    failed: failed.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    timeouts: failed.filter((f) => f.kind === 'timeouts').length,
    cpuSeconds: run.cpuSeconds,
    wholeRun: { ok: oks.length, requests: oks.length + failures.length },
  };
}

async function gwprofRun(c: number): Promise<ToolRun> {
  const before = process.cpuUsage();
  const w = await closedLoopFor({ url, connections: c, seconds, timeoutMs: timeoutSec * 1000, scenario });
  const cpu = process.cpuUsage(before);
  return {
    ok: w.requests.ok,
    failed: w.requests.failed,
    rps: w.requests.ok / seconds,
    p50: w.latencyMs?.p50 ?? null,
    p99: w.latencyMs?.p99 ?? null,
    timeouts: w.failureCounts.timeouts,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
}

type Tool = 'gwprof' | 'k6' | 'wrk';
const TOOLS: Tool[] = ['gwprof', 'k6', 'wrk'];
interface Measured extends ToolRun {
  fanout: number | null;
  gatewayCpuMsPerOk: number | null;
  loadgenCpuUsPerRequest: number | null;
}
async function measured(run: () => Promise<ToolRun>): Promise<Measured> {
  const [calls, cpu] = [await subgraphRequests(), cpuSeconds([bed.gateway.pid])];
  const r = await run();
  const [calls1, cpu1] = [await subgraphRequests(), cpuSeconds([bed.gateway.pid])];
  const { ok, requests } = r.wholeRun ?? { ok: r.ok, requests: r.ok + r.failed };
  return {
    ...r,
    fanout: ok ? (calls1 - calls) / ok : null,
    gatewayCpuMsPerOk: ok ? ((cpu1 - cpu) * 1000) / ok : null,
    loadgenCpuUsPerRequest: r.cpuSeconds !== undefined && requests ? (r.cpuSeconds * 1e6) / requests : null,
  };
}

const rounds: Array<{ level: number; round: number; order: string } & Partial<Record<Tool, Measured>>> = [];
let split: Record<string, unknown> = {};
let overload: Record<string, unknown> = {};
try {
  log(`gateway ${values.gateway} at ${url} on cpus ${bed.gateway.cpus}; load on ${others}; warming up…`);
  await closedLoopFor({ url, connections: 10, seconds: 20, timeoutMs: timeoutSec * 1000, scenario });
  await k6Run(10); // k6's first run pays for its own start-up and the script's data
  for (const [index, c] of values.levels.split(',').map(Number).entries()) {
    for (let round = 1; round <= Number(values.rounds); round++) {
      const shift = (round + index) % TOOLS.length;
      const order = [...TOOLS.slice(shift), ...TOOLS.slice(0, shift)];
      const row: (typeof rounds)[number] = { level: c, round, order: order.join('→') };
      for (const tool of order) {
        await settleGateway(bed.gateway.pid, 60, new AbortController().signal, [port]);
        row[tool] = await measured(() =>
          tool === 'gwprof' ? gwprofRun(c) : tool === 'k6' ? k6Run(c) : wrkRun({ url, connections: c, seconds, cpus: others, timeoutSec, bodiesFile }),
        );
      }
      rounds.push(row);
      log(
        `c=${c} round ${round} (${row.order}): ${TOOLS.map((t) => `${t} ${fixed(row[t]!.rps, 1)} req/s p50 ${fixed(row[t]!.p50, 0)} fan-out ${fixed(row[t]!.fanout, 2)} loadgen ${fixed(row[t]!.loadgenCpuUsPerRequest, 0)} µs/req`).join(' · ')}`,
      );
    }
  }
  split = await segments();
  overload = await overloaded();
} finally {
  await bed.close();
}

/**
 * One k6 at the whole rate against two at half each with execution segments, in --split-pairs
 * pairs whose order alternates (the machine drifts within minutes), read back as `gwprof import k6`
 * reads them.
 */
async function segments(): Promise<Record<string, unknown>> {
  const rate = Number(values['split-rate']);
  const splitSeconds = Number(values['split-seconds']);
  const script = exportScript('split', { kind: 'open', targetRps: rate, arrivals: 'uniform', maxInFlight: 1000 }, splitSeconds);
  const file = (name: string): string => path.join(path.dirname(script), `${name}.json`);
  const read = async (files: string[]) => {
    const samples = await readK6Samples(files);
    const step = k6Step(samples, { skipSec: 2, minSuccess: 1 });
    const totals = samples
      .timeline()
      .reduce((t, { second }) => ({ iterations: t.iterations + second.iterations, responses: t.responses + second.ok + second.failed }), {
        iterations: 0,
        responses: 0,
      });
    return {
      rps: step.rps,
      p50: step.latencyMs?.p50 ?? null,
      p99: step.latencyMs?.p99 ?? null,
      failed: step.requests.failed,
      dropped: step.rate?.dropped ?? null,
      ...totals,
    };
  };
  const runOne = async (pair: number) => {
    await settleGateway(bed.gateway.pid, 60, new AbortController().signal, [port]);
    const run = await runTimed(values.k6, k6Args(script, file(`single-${pair}`)), { cpus: others });
    if (run.code !== 0) throw new Error(`k6 failed: ${run.stderr.slice(-300)}`);
    return read([file(`single-${pair}`)]);
  };
  const runSplit = async (pair: number) => {
    await settleGateway(bed.gateway.pid, 60, new AbortController().signal, [port]);
    const names = [0, 1].map((i) => file(`half-${pair}-${i}`));
    const halves = await Promise.all(
      ['0:1/2', '1/2:1'].map((segment, i) =>
        runTimed(values.k6, k6Args(script, names[i]!, ['--execution-segment', segment, '--execution-segment-sequence', '0,1/2,1']), { cpus: others }),
      ),
    );
    if (halves.some((r) => r.code !== 0)) throw new Error(`k6 failed: ${halves.map((r) => r.stderr.slice(-300)).join('\n')}`);
    return { merged: await read(names), halves: await Promise.all(names.map((name) => read([name]))) };
  };
  type Read = Awaited<ReturnType<typeof read>>;
  const pairs: Array<{ single: Read; split: { merged: Read; halves: Read[] }; order: string }> = [];
  for (let pair = 1; pair <= Number(values['split-pairs']); pair++) {
    const row =
      pair % 2
        ? { single: await runOne(pair), split: await runSplit(pair), order: 'one→two' }
        : { split: await runSplit(pair), single: await runOne(pair), order: 'two→one' };
    pairs.push(row);
    log(
      `segments at ${rate} req/s, pair ${pair} (${row.order}): one k6 ${fixed(row.single.rps, 1)} req/s p50 ${fixed(row.single.p50, 1)} ms · two merged ${fixed(row.split.merged.rps, 1)} req/s p50 ${fixed(row.split.merged.p50, 1)} ms · iterations ${row.single.iterations} / ${row.split.merged.iterations}, responses ${row.single.responses} / ${row.split.merged.responses}`,
    );
  }
  const ratio = (key: 'rps' | 'p50') => median(pairs.map((p) => (p.split.merged[key] ?? Number.NaN) / (p.single[key] ?? Number.NaN)));
  return { rate, seconds: splitSeconds, medianRpsRatio: ratio('rps'), medianP50Ratio: ratio('p50'), pairs };
}

/** Above capacity: k6's dropped iterations and gwprof's dropped sends, same rate and cap. */
async function overloaded(): Promise<Record<string, unknown>> {
  const rate = Number(values['overload-rate']);
  const maxInFlight = Number(values['max-in-flight']);
  const overloadSeconds = 30;
  const script = exportScript('overload', { kind: 'open', targetRps: rate, arrivals: 'uniform', maxInFlight }, overloadSeconds);
  const samples = path.join(path.dirname(script), 'samples.json');
  await settleGateway(bed.gateway.pid, 60, new AbortController().signal, [port]);
  const run = await runTimed(values.k6, k6Args(script, samples), { cpus: others });
  if (run.code !== 0) throw new Error(`k6 failed (${run.code}): ${run.stderr.slice(-500)}`);
  const step = k6Step(await readK6Samples([samples]), { skipSec: 5, minSuccess: 1 });
  const k6 = {
    sentRps: step.rate!.sentRps,
    okRps: step.rps,
    dropped: step.rate!.dropped,
    droppedPerSecond: step.rate!.dropped / step.durationSec,
    p50: step.latencyMs?.p50 ?? null,
  };
  await settleGateway(bed.gateway.pid, 60, new AbortController().signal, [port]);
  const recorder = new LoadRecorder(performance.now());
  const stream = new RequestStream(scenario);
  const engine = startOpenLoop({
    wire: wireRequests(url, stream.bodies),
    rate,
    arrivals: 'uniform',
    maxInFlight,
    timeoutMs: timeoutSec * 1000,
    stream,
    recorder,
    seed: 1,
  });
  await sleep(overloadSeconds * 1000);
  const w = recorder.window(5, overloadSeconds);
  await engine.stop();
  const windowSec = overloadSeconds - 5;
  const gwprof = {
    sentRps: w.sent / windowSec,
    okRps: w.requests.ok / windowSec,
    dropped: w.dropped,
    droppedPerSecond: w.dropped / windowSec,
    p50: w.latencyMs?.p50 ?? null,
  };
  log(
    `overload at ${rate} req/s, at most ${maxInFlight} in flight: k6 sent ${fixed(k6.sentRps, 1)}/s ok ${fixed(k6.okRps, 1)}/s dropped ${fixed(k6.droppedPerSecond, 1)}/s · gwprof sent ${fixed(gwprof.sentRps, 1)}/s ok ${fixed(gwprof.okRps, 1)}/s dropped ${fixed(gwprof.droppedPerSecond, 1)}/s`,
  );
  return { rate, maxInFlight, seconds: overloadSeconds, k6, gwprof };
}

const f = (x: number | null | undefined, d = 1): string => fixed(x, d);
const levels = [...new Set(rounds.map((r) => r.level))];
const summary = levels.map((level) => {
  const rows = rounds.filter((r) => r.level === level);
  const pick = (tool: Tool, key: 'rps' | 'p50' | 'p99' | 'fanout' | 'gatewayCpuMsPerOk' | 'loadgenCpuUsPerRequest'): number =>
    median(rows.map((r) => r[tool]![key]).filter((v): v is number => v !== null && v !== undefined && Number.isFinite(v)));
  const ratio = (tool: Tool): number[] => rows.map((r) => r[tool]!.rps / r.gwprof!.rps);
  const byTool = Object.fromEntries(
    TOOLS.map((t) => [
      t,
      {
        rps: pick(t, 'rps'),
        p50: pick(t, 'p50'),
        p99: pick(t, 'p99'),
        fanout: pick(t, 'fanout'),
        gatewayCpuMsPerOk: pick(t, 'gatewayCpuMsPerOk'),
        loadgenCpuUsPerRequest: pick(t, 'loadgenCpuUsPerRequest'),
        failed: rows.reduce((a, r) => a + r[t]!.failed, 0),
      },
    ]),
  );
  return {
    level,
    rounds: rows.length,
    ...byTool,
    k6Ratio: { median: median(ratio('k6')), min: Math.min(...ratio('k6')), max: Math.max(...ratio('k6')) },
    wrkRatio: { median: median(ratio('wrk')), min: Math.min(...ratio('wrk')), max: Math.max(...ratio('wrk')) },
    // biome-ignore lint/suspicious/noExplicitAny: a row of the table below, read by key per tool
  } as Record<string, any>;
});
const table = [
  '| conc | rounds | ok req/s gwprof / k6 / wrk | k6 ÷ gwprof, median (range) | wrk ÷ gwprof, median (range) | p50 ms gwprof / k6 / wrk | p99 ms gwprof / k6 / wrk | fan-out gwprof / k6 / wrk | gateway CPU ms per ok gwprof / k6 / wrk | load generator CPU µs per request gwprof / k6 / wrk | failed gwprof / k6 / wrk |',
  '| ---: | ---: | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...summary.map((s) => {
    const three = (key: string, d: number): string => TOOLS.map((t) => f(s[t][key], d)).join(' / ');
    return `| ${s.level} | ${s.rounds} | ${three('rps', 1)} | ${f(s.k6Ratio.median, 3)} (${f(s.k6Ratio.min, 3)}–${f(s.k6Ratio.max, 3)}) | ${f(s.wrkRatio.median, 3)} (${f(s.wrkRatio.min, 3)}–${f(s.wrkRatio.max, 3)}) | ${three('p50', 0)} | ${three('p99', 0)} | ${three('fanout', 2)} | ${three('gatewayCpuMsPerOk', 2)} | ${three('loadgenCpuUsPerRequest', 0)} | ${TOOLS.map((t) => s[t].failed).join(' / ')} |`;
  }),
].join('\n');
const report = {
  command: `node bench/dist/k6-peer.js ${process.argv.slice(2).join(' ')}`.trim(),
  date: new Date().toISOString(),
  gateway: values.gateway,
  scenario: values.scenario,
  node: process.version,
  cpus: { gateway: bed.gateway.cpus, load: others },
  summary,
  split,
  overload,
  rounds,
};
if (values.out) writeFileSync(path.resolve(values.out), `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${table}\n\n\`\`\`json\n${JSON.stringify({ split, overload }, null, 2)}\n\`\`\`\n`);
