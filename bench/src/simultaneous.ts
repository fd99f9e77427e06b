#!/usr/bin/env node
// Does measuring both sides of a comparison at the same time take the machine's drift out of their
// ratio? (a lever of compare's noise study, docs/validation/compare-error-rates.md). Two processes
// of the same gateway (A/A) on the gateway's core; each pair is started, warmed together, then
// measured in rounds. Each round holds, in random order:
//   - alternating: A alone, then B alone (or B then A), each at -c for a window, as compare does now;
//   - simultaneous: A and B at the same time, each at half of -c, over the same window.
// Each gives the log ratio of B's CPU per successful request to A's. Printed: per mode, the sd of
// that ratio between rounds of one pair and between the means of pairs, its mean, and B's extra CPU
// per request. With --b-env (e.g. the CPU burn of fixtures/burn-cpu-per-request.cjs), B costs a known
// extra CPU time per request: the ground truth each mode's figure is held against.
//
//   node bench/dist/simultaneous.js [--gateway mesh] [--pairs 8] [--rounds 6] [--window 5] [--concurrency 20]
//     [--together-concurrency 10] (connections per side in a simultaneous round; default half of --concurrency)
//     [--b-env NODE_OPTIONS=--require\ fixtures/burn-cpu-per-request.cjs --b-env GWPROF_BURN_US=1000]
//     [--out bench/results/compare-epochs/simultaneous.json]
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchArgs } from './args.js';
import { mulberry32 } from '@gwprof/analysis';
import { DEFAULTS, LoadRecorder, RequestStream, VARIED_QUERY, cpuSeconds, gatewayFromSpec, loadScenario, startClosedLoop, wireRequests } from '@gwprof/collect';
import { benchSession, sleep } from './common.js';

const { values } = benchArgs({
  options: {
    gateway: { type: 'string', default: 'mesh' },
    pairs: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '6' },
    window: { type: 'string', default: '5' },
    'lead-in': { type: 'string', default: '1' },
    warmup: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '20' },
    'together-concurrency': { type: 'string' },
    'b-env': { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
  },
});
const pairs = Number(values.pairs);
const rounds = Number(values.rounds);
const windowSec = Number(values.window);
const leadInSec = Number(values['lead-in']);
const concurrency = Number(values.concurrency);
const togetherConcurrency = Number(values['together-concurrency'] ?? concurrency / 2);
const bEnv = Object.fromEntries(values['b-env'].map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const log = (line: string) => process.stderr.write(`${line}\n`);

type Mode = 'alternating' | 'simultaneous';
interface Target {
  url: string;
  pids: () => number[];
}
interface Measured {
  cpuMsPerRequest: number;
  ok: number;
}

const scenario = loadScenario(VARIED_QUERY);

/** Holds `connections` on each target at once; after the lead-in, each target's CPU per successful request over the window. */
async function measureTogether(targets: Target[], connections: number): Promise<Measured[]> {
  const runs = targets.map((target) => {
    const recorder = new LoadRecorder(performance.now());
    const stream = new RequestStream(scenario);
    const engine = startClosedLoop({ wire: wireRequests(target.url, stream.bodies), connections, timeoutMs: 10_000, stream, recorder });
    return { target, recorder, engine };
  });
  const startedAt = performance.now();
  await sleep(leadInSec * 1000);
  const before = runs.map((r) => cpuSeconds(r.target.pids()));
  await sleep(Math.max(0, (leadInSec + windowSec) * 1000 - (performance.now() - startedAt)));
  const after = runs.map((r) => cpuSeconds(r.target.pids()));
  await Promise.all(runs.map((r) => r.engine.stop()));
  return runs.map((r, i) => {
    const lead = Math.round((startedAt - r.recorder.startedAt) / 1000);
    const ok = r.recorder.okPerSecond(lead + leadInSec, lead + leadInSec + windowSec).reduce((a, b) => a + b, 0);
    return { ok, cpuMsPerRequest: ok > 0 ? ((after[i]! - before[i]!) * 1000) / ok : NaN };
  });
}

async function measureRound(mode: Mode, a: Target, b: Target, random: () => number): Promise<{ a: Measured; b: Measured }> {
  if (mode === 'simultaneous') {
    const [ma, mb] = await measureTogether([a, b], togetherConcurrency);
    return { a: ma!, b: mb! };
  }
  const aFirst = random() < 0.5;
  const [first] = await measureTogether([aFirst ? a : b], concurrency);
  const [second] = await measureTogether([aFirst ? b : a], concurrency);
  return aFirst ? { a: first!, b: second! } : { a: second!, b: first! };
}

const session = benchSession('simultaneous', concurrency);
const random = mulberry32(Date.now() % 2 ** 31);
const records: Array<{ pair: number; round: number; mode: Mode; a: Measured; b: Measured; logRatio: number }> = [];
try {
  const bed = await session.startBed();
  const adapter = gatewayFromSpec(values.gateway);
  for (let pair = 1; pair <= pairs; pair++) {
    const launchedA = await bed.launchGateway({ adapter, gatewayEnv: {}, processName: `a-${pair}`, port: DEFAULTS.gatewayPort });
    const launchedB = await bed.launchGateway({ adapter, gatewayEnv: bEnv, processName: `b-${pair}`, port: DEFAULTS.gatewayPort + 100 });
    const a = { url: launchedA.gateway.url, pids: () => launchedA.gateway.pids() };
    const b = { url: launchedB.gateway.url, pids: () => launchedB.gateway.pids() };
    const warmRounds = Math.max(1, Math.round(Number(values.warmup) / (leadInSec + windowSec)));
    for (let w = 0; w < warmRounds; w++) await measureTogether([a, b], togetherConcurrency);
    for (let round = 1; round <= rounds; round++) {
      const modes: Mode[] = random() < 0.5 ? ['alternating', 'simultaneous'] : ['simultaneous', 'alternating'];
      for (const mode of modes) {
        const m = await measureRound(mode, a, b, random);
        const logRatio = Math.log(m.b.cpuMsPerRequest / m.a.cpuMsPerRequest);
        records.push({ pair, round, mode, a: m.a, b: m.b, logRatio });
        log(
          `pair ${pair} round ${round} ${mode}: A ${m.a.cpuMsPerRequest.toFixed(3)} ms/req (${m.a.ok} ok), B ${m.b.cpuMsPerRequest.toFixed(3)} ms/req (${m.b.ok} ok), log ratio ${(logRatio * 100).toFixed(2)}%`,
        );
      }
    }
    for (const launched of [launchedA, launchedB]) {
      launched.profiler?.close();
      await launched.gateway.stop();
    }
  }
} finally {
  await session.close();
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
const summary = (['alternating', 'simultaneous'] as const).map((mode) => {
  const byPair = Array.from({ length: pairs }, (_, p) => records.filter((r) => r.mode === mode && r.pair === p + 1).map((r) => r.logRatio));
  const withinSd = Math.sqrt(mean(byPair.map((xs) => sd(xs) ** 2)));
  const pairMeans = byPair.map(mean);
  return {
    mode,
    rounds: byPair.flat().length,
    withinPairSdPercent: Number((withinSd * 100).toFixed(2)),
    pairMeanSdPercent: Number((sd(pairMeans) * 100).toFixed(2)),
    meanPercent: Number((mean(byPair.flat()) * 100).toFixed(2)),
    aCpuMsPerRequest: Number(mean(records.filter((r) => r.mode === mode).map((r) => r.a.cpuMsPerRequest)).toFixed(3)),
    bExtraCpuMsPerRequest: Number(mean(records.filter((r) => r.mode === mode).map((r) => r.b.cpuMsPerRequest - r.a.cpuMsPerRequest)).toFixed(3)),
  };
});
console.log(JSON.stringify(summary, null, 2));
if (values.out) {
  const command = `node bench/dist/simultaneous.js ${process.argv.slice(2).join(' ')}`.trim();
  writeFileSync(path.resolve(values.out), `${JSON.stringify({ command, date: new Date().toISOString(), summary, records }, null, 2)}\n`);
}
