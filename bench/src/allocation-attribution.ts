#!/usr/bin/env node
// Allocations charged to the function that made them, also when V8 inlined it (backs
// docs/allocations.md): a real gateway preloads fixtures/audit-trail.cjs, whose buildAuditTrail
// allocates a known amount per request (the truth: Node's heap accounting, no GC between two
// readings) in a small function TurboFan inlines once hot. Each round sweeps the gateway three
// ways, in a rotated order:
//   default      the step's window, then gwprof's inlining-off profile after it (frames 'allocating')
//   physical     --no-allocation-attribution: the window's physical frames only
//   no-inlining  --no-allocation-attribution in a process with inlining off throughout
//                (fixtures/no-inlining.cjs): the reference for whose frames the bytes are
// and records per step the planted function's bytes per request, the total, the buckets, CPU per
// request, the warm-up and what the inlining-off part took. Whether TurboFan inlines buildAuditTrail
// on its own is its choice; --force-inline makes it certain (GWPROF_AUDIT_FORCE_INLINE=1).
//
//   node bench/dist/allocation-attribution.js [--gateways mesh,hive] [--rounds 2] [--concurrency 10,20] [--duration 10] [--force-inline]
// Appends one JSON object per sweep to <out>/runs.json ([--out bench/results/allocation-attribution]);
// prints a markdown table of every sweep in <out> on stdout.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '@gwprof/analysis';
import type { RunResult } from '@gwprof/results';
import { benchArgs } from './args.js';
import { appendEntry, readEntries } from './compare/json-log.js';

const repoRoot = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const { values } = benchArgs({
  options: {
    gateways: { type: 'string', default: 'mesh,hive' },
    rounds: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '10,20' },
    duration: { type: 'string', default: '10' },
    'table-only': { type: 'boolean', default: false },
    'force-inline': { type: 'boolean', default: false },
    modes: { type: 'string', default: 'default,physical,no-inlining' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'allocation-attribution') },
  },
});
const fixture = (name: string) => path.join(repoRoot, 'fixtures', name);
const MODES = ['default', 'physical', 'no-inlining'] as const;
type Mode = (typeof MODES)[number];

interface StepEntry {
  concurrency: number;
  frames: string | null;
  totalBytes: number | null;
  plantedBytes: number;
  callerBytes: Array<{ name: string; bytes: number }>;
  buckets: Record<string, number> | null;
  cpuMsPerOkRequest: number | null;
  rssMaxMB?: number | null;
  warmupSec: number;
  attribution: unknown;
}

interface SweepEntry {
  date: string;
  gateway: string;
  mode: Mode;
  forcedInlining?: boolean;
  truth: number;
  minutes: number;
  steps: StepEntry[];
}

function truthBytes(): number {
  const out = execFileSync(process.execPath, ['--min-semi-space-size=256', '--max-semi-space-size=256', fixture('audit-trail.cjs')], { encoding: 'utf8' });
  return (JSON.parse(out) as { bytesPerCall: number }).bytesPerCall;
}

function sweep(gateway: string, mode: Mode, truth: number): SweepEntry {
  const out = mkdtempSync(path.join(os.tmpdir(), 'gwprof-alloc-attr-'));
  const preloads = [...(mode === 'no-inlining' ? [fixture('no-inlining.cjs')] : []), fixture('audit-trail.cjs')];
  const args = [
    path.join(repoRoot, 'packages/cli/dist/bin.js'),
    'sweep',
    '--gateway',
    gateway,
    '-c',
    values.concurrency,
    '-d',
    values.duration,
    '--gateway-env',
    `NODE_OPTIONS=${preloads.map((p) => `--require ${p}`).join(' ')}`,
    ...(mode === 'default' ? [] : ['--no-allocation-attribution']),
    ...(values['force-inline'] ? ['--gateway-env', 'GWPROF_AUDIT_FORCE_INLINE=1'] : []),
    '--out',
    out,
    '--run-id',
    'a',
    '--no-color',
    '--gateway-port',
    '4820',
    '--subgraph-ports',
    '4821,4822,4823,4824',
  ];
  const started = Date.now();
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`sweep exited ${run.status}: ${run.stderr.slice(-800)}`);
  const result = JSON.parse(readFileSync(path.join(out, 'a', 'results.json'), 'utf8')) as RunResult;
  const steps = result.steps.map((step): StepEntry => {
    const allocation = result.analysis?.steps.find((a) => a.stepId === step.id)?.allocation ?? null;
    const named = (name: string) => allocation?.topAllocators.find((f) => f.functionName === name)?.bytesPerOkRequest ?? 0;
    return {
      concurrency: step.load.kind === 'closed' ? step.load.concurrency : 0,
      frames: allocation?.frames ?? null,
      totalBytes: allocation?.bytesPerOkRequest ?? null,
      plantedBytes: named('buildAuditTrail'),
      callerBytes: (allocation?.topAllocators ?? []).slice(0, 3).map((f) => ({ name: f.functionName, bytes: f.bytesPerOkRequest })),
      buckets: allocation?.bucketBytesPerOkRequest ?? null,
      cpuMsPerOkRequest: step.gateway.cpuMsPerOkRequest,
      rssMaxMB: step.gateway.rssMaxMB,
      warmupSec: step.timing.warmupSec,
      attribution: step.profile?.heap?.attribution ?? null,
    };
  });
  return { date: new Date().toISOString(), gateway, mode, forcedInlining: values['force-inline'], truth, minutes: (Date.now() - started) / 60_000, steps };
}

function table(entries: SweepEntry[]): string[] {
  const lines = [
    '| date | gateway | inlining | mode | c | frames | planted B/req ÷ truth | top allocators, kB/req | kB/req total | CPU ms/req | warm-up s | minutes |',
    '| --- | --- | --- | --- | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const e of entries) {
    for (const s of e.steps) {
      const top = s.callerBytes.map((f) => `${f.name} ${(f.bytes / 1000).toFixed(1)}`).join(', ');
      lines.push(
        `| ${e.date.slice(0, 16)} | ${e.gateway} | ${e.forcedInlining ? 'forced' : 'natural'} | ${e.mode} | ${s.concurrency} | ${s.frames ?? '–'} | ${(s.plantedBytes / e.truth).toFixed(3)} | ${top} | ${s.totalBytes === null ? '–' : (s.totalBytes / 1000).toFixed(1)} | ${s.cpuMsPerOkRequest?.toFixed(2) ?? '–'} | ${s.warmupSec} | ${e.minutes.toFixed(1)} |`,
      );
    }
  }
  return lines;
}

const SUMMARY_BUCKETS = ['plan', 'fetch', 'execute', 'httpParser', 'ownCode', 'parse', 'unplaced'];

/** Per gateway, inlining and mode, over every step: the median planted share and bucket kB per request. */
function summary(entries: SweepEntry[]): string[] {
  const groups = new Map<string, StepEntry[]>();
  for (const e of entries) {
    const key = `${e.gateway} | ${e.forcedInlining ? 'forced' : 'natural'} | ${e.mode}`;
    groups.set(key, [...(groups.get(key) ?? []), ...e.steps.map((s) => ({ ...s, plantedBytes: s.plantedBytes / e.truth }))]);
  }
  const kb = (xs: number[]) => (median(xs) / 1000).toFixed(0);
  const lines = [
    `| gateway | inlining | mode | steps | planted ÷ truth, median (range) | ${SUMMARY_BUCKETS.map((b) => `${b} kB/req`).join(' | ')} | total kB/req |`,
    `| --- | --- | --- | ---: | --- | ${SUMMARY_BUCKETS.map(() => '---:').join(' | ')} | ---: |`,
  ];
  for (const [key, steps] of groups) {
    const ratios = steps.map((s) => s.plantedBytes);
    const buckets = SUMMARY_BUCKETS.map((b) => kb(steps.map((s) => s.buckets?.[b] ?? 0)));
    const range = `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
    lines.push(`| ${key} | ${steps.length} | ${median(ratios).toFixed(3)} (${range}) | ${buckets.join(' | ')} | ${kb(steps.map((s) => s.totalBytes ?? 0))} |`);
  }
  return lines;
}

/**
 * What the inlining-off part costs the steps after it: per gateway and level, the median CPU per
 * request and peak RSS with it (default) and without it (physical). A step follows the previous
 * step's switches, so the first level shows none and the later ones whatever outlives them.
 */
function costTable(entries: SweepEntry[]): string[] {
  const lines = [
    '| gateway | c | sweeps (default / physical) | CPU ms/req default | physical | ratio | peak RSS MB default | physical |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const natural = entries.filter((e) => e.mode === 'default' || e.mode === 'physical');
  const keys = [...new Set(natural.flatMap((e) => e.steps.map((s) => `${e.gateway}|${s.concurrency}`)))];
  for (const key of keys) {
    const [gateway, c] = key.split('|');
    const of = (mode: Mode) =>
      natural.filter((e) => e.gateway === gateway && e.mode === mode).flatMap((e) => e.steps.filter((s) => String(s.concurrency) === c));
    const [withIt, without] = [of('default'), of('physical')];
    const cpu = (steps: StepEntry[]) => median(steps.map((s) => s.cpuMsPerOkRequest ?? Number.NaN).filter(Number.isFinite));
    const rss = (steps: StepEntry[]) => median(steps.map((s) => s.rssMaxMB ?? Number.NaN).filter(Number.isFinite));
    const ratio = cpu(withIt) / cpu(without);
    lines.push(
      `| ${gateway} | ${c} | ${withIt.length} / ${without.length} | ${cpu(withIt).toFixed(2)} | ${cpu(without).toFixed(2)} | ${ratio.toFixed(3)} | ${rss(withIt).toFixed(0)} | ${rss(without).toFixed(0)} |`,
    );
  }
  return lines;
}

const out = path.resolve(values.out);
if (!values['table-only']) {
  const truth = truthBytes();
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const gateway of values.gateways.split(',')) {
      const modes = values.modes.split(',') as Mode[];
      for (const m of modes) if (!MODES.includes(m)) throw new Error(`--modes takes ${MODES.join(', ')}; got ${m}`);
      for (let i = 0; i < modes.length; i++) {
        const mode = modes[(i + round) % modes.length]!;
        const entry = sweep(gateway, mode, truth);
        appendEntry(out, 'runs.json', entry);
        process.stderr.write(`${table([entry]).slice(2).join('\n')}\n`);
      }
    }
  }
}
const entries = readEntries<SweepEntry>(out, 'runs.json');
process.stdout.write(`${summary(entries).join('\n')}\n\n${costTable(entries).join('\n')}\n\n${table(entries).join('\n')}\n`);
