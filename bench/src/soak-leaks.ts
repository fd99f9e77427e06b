#!/usr/bin/env node
// How fast `gwprof soak` calls a planted leak, and whether it stays quiet without one (backs
// docs/validation/soak.md). Each case is a real `gwprof soak` of a gateway with one of the leak preloads in
// fixtures/leaks/ (or none); the verdict is then replayed on every prefix of its intervals, as if
// the soak had been stopped there, so one run gives the time from which the verdict was `leak` (and
// stayed so) and the time a clean run first said `no leak`.
//
//   node bench/dist/soak-leaks.js [--gateway mesh] [--leaks js-class,listener,buffer,none] [--bytes 1024] [--duration 10m] [--interval 30s] [--rate R] [--warmup 3m] [--snapshot-every N]
//     [--verdict-at-minutes 30,60] [--out bench/results/soak]
// --verdict-at-minutes also records the verdict had the soak been stopped then (the calms up to it).
// --replay FILE judges an earlier soak's results.json with today's analysis instead of running one
// (the record says so), for when the analysis changed after the soak was measured.
// Appends one JSON object per case to <out>/soak-leaks.jsonl, keeps each run's results.json (the
// calms the verdict is read from; heap snapshots stay in profiles/) as <out>/<run id>-results.json,
// and prints a markdown row per case.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.js';
import { analyzeSoak, judgeSoak, leakDesignOf } from '@gwprof/analysis';
import type { SoakResult } from '@gwprof/results';

const { values } = benchArgs({
  options: {
    gateway: { type: 'string', default: 'mesh' },
    leaks: { type: 'string', default: 'js-class,listener,buffer,none' },
    bytes: { type: 'string', default: '1024' },
    duration: { type: 'string', default: '10m' },
    interval: { type: 'string', default: '30s' },
    rate: { type: 'string' },
    warmup: { type: 'string' },
    'snapshot-every': { type: 'string' },
    'verdict-at-minutes': { type: 'string' },
    replay: { type: 'string' },
    out: { type: 'string', default: 'bench/results/soak' },
  },
});
const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const cli = path.join(repoRoot, 'packages/cli/dist/bin.js');
mkdirSync(values.out, { recursive: true });

/** The verdict, and each series' bytes per request with its 90% interval, had the soak been stopped after its last interval ending by `minutes`. */
function judgedAt(soak: SoakResult, minutes: number) {
  const intervals = soak.intervals.filter((i) => i.endSec <= minutes * 60);
  if (intervals.length === 0) return null;
  const judged = judgeSoak(
    intervals,
    soak.snapshots.filter((s) => s.atSec <= minutes * 60),
    leakDesignOf(soak),
    false,
  );
  return {
    verdict: judged.verdict,
    bytesPerRequest: Object.fromEntries(judged.trends.map((t) => [t.series, t.bytesPerRequest])),
    harnessRssMbPerHour: judged.harnessRssMbPerHour,
    harnessHeapMbPerHour: judged.harnessHeapMbPerHour ?? null,
  };
}

/** Minutes from which every prefix's verdict is `target`; null when the last one is not. */
function settledAt(soak: SoakResult, target: string): number | null {
  const design = leakDesignOf(soak);
  let since: number | null = null;
  for (let k = 1; k <= soak.intervals.length; k++) {
    const verdict = judgeSoak(soak.intervals.slice(0, k), soak.snapshots, design, false).verdict;
    if (verdict !== target) since = null;
    else since ??= soak.intervals[k - 1]!.endSec / 60;
  }
  return since;
}

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;

const minutesToJudge = () => (values['verdict-at-minutes'] ?? '').split(',').filter(Boolean).map(Number);

/** What the benchmark records of one soak, judged by today's analysis. */
function recordOf(soak: SoakResult, leak: string, exit: number | null) {
  const trend = (series: string) => soak.analysis?.trends.find((t) => t.series === series)?.bytesPerRequest?.slope ?? null;
  const bytes = leak === 'none' ? 0 : Number(soak.config.gatewayEnv.LEAK_BYTES ?? values.bytes);
  const judged = Object.fromEntries(minutesToJudge().map((m) => [m, judgedAt(soak, m)]));
  return {
    date: new Date().toISOString(),
    gateway: soak.config.gateway,
    leak,
    bytesPerRequest: bytes,
    exit,
    rate: soak.config.load.kind === 'open' ? soak.config.load.rate : null,
    minutes: (soak.intervals.at(-1)?.endSec ?? 0) / 60,
    verdict: soak.analysis?.verdict ?? null,
    leakFromMinutes: settledAt(soak, 'leak'),
    noLeakFromMinutes: settledAt(soak, 'no leak'),
    heapBytesPerRequest: trend('heapAfterGc'),
    externalBytesPerRequest: trend('external'),
    rssNetBytesPerRequest: trend('rssNetOfHeap'),
    verdictsAt: Object.fromEntries(Object.entries(judged).map(([m, j]) => [m, j?.verdict ?? null])),
    judgedAt: judged,
    classes: soak.analysis?.growingClasses.map((c) => c.name) ?? [],
    runDir: `profiles/${soak.runId}`,
    results: `${soak.runId}-results.json`,
    harnessRssMbPerHour: soak.analysis?.harnessRssMbPerHour ?? null,
    harnessHeapMbPerHour: soak.analysis?.harnessHeapMbPerHour ?? null,
  };
}

function report(record: ReturnType<typeof recordOf>): void {
  appendFileSync(path.join(values.out, 'soak-leaks.jsonl'), `${JSON.stringify(record)}\n`);
  const f = (x: number | null, d = 0) => (x === null ? '–' : x.toFixed(d));
  console.log(
    row([
      record.gateway,
      record.leak,
      record.bytesPerRequest,
      f(record.rate),
      f(record.minutes, 1),
      record.verdict ?? '–',
      f(record.leakFromMinutes, 1),
      f(record.noLeakFromMinutes, 1),
      f(record.heapBytesPerRequest),
      f(record.externalBytesPerRequest),
      record.classes[0] ?? '–',
    ]),
  );
}

console.log(
  row([
    'gateway',
    'leak',
    'bytes/req',
    'req/s',
    'minutes',
    'verdict',
    'leak from (min)',
    'no leak from (min)',
    'heap after GC B/req',
    'external B/req',
    'first class named',
  ]),
);
console.log(row(Array(11).fill('---')));
if (values.replay) {
  const recorded = JSON.parse(readFileSync(values.replay, 'utf8')) as SoakResult;
  const soak = { ...recorded, analysis: analyzeSoak(recorded) };
  const leak = /leaks\/([\w-]+)\.cjs/.exec(soak.config.gatewayEnv.NODE_OPTIONS ?? '')?.[1] ?? 'none';
  report({ ...recordOf(soak, leak, null), replayOf: values.replay } as ReturnType<typeof recordOf>);
} else {
  for (const leak of values.leaks.split(',')) {
    const runId = `soak-${values.gateway}-${leak}-${Date.now()}`;
    const preload =
      leak === 'none'
        ? []
        : ['--gateway-env', `NODE_OPTIONS=--require ${path.join(repoRoot, 'fixtures', 'leaks', `${leak}.cjs`)}`, '--gateway-env', `LEAK_BYTES=${values.bytes}`];
    const args = [
      cli,
      'soak',
      '--gateway',
      values.gateway,
      ...preload,
      '-d',
      values.duration,
      '--interval',
      values.interval,
      '--no-color',
      '--out',
      path.join(repoRoot, 'profiles'),
      '--run-id',
      runId,
      ...(values.rate ? ['--rate', values.rate] : []),
      ...(values.warmup ? ['--warmup', values.warmup] : []),
      ...(values['snapshot-every'] ? ['--snapshot-every', values['snapshot-every']] : []),
    ];
    process.stderr.write(`=== ${leak}: node ${args.slice(1).join(' ')}\n`);
    const run = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const resultsFile = path.join(repoRoot, 'profiles', runId, 'results.json');
    copyFileSync(resultsFile, path.join(values.out, `${runId}-results.json`));
    report(recordOf(JSON.parse(readFileSync(resultsFile, 'utf8')) as SoakResult, leak, run.status));
  }
}
