#!/usr/bin/env node
// How fast is each gateway here, beside Hive Gateway, set against The Guild's published ratios?
// (backs docs/validation/native-gateways.md)
// Each round sweeps every gateway once at the same level with `gwprof sweep` (the CLI, as a user
// runs it), in turn, so the machine's drift falls on all of them alike; the gateways' order turns
// by one each round. Per gateway: the median over rounds of ok req/s, the gateway's CPU, ok requests
// per gateway CPU-second, fan-out, the harness's busiest core and the step's status. Ratios are to
// Hive Gateway's medians. A harness-bound step's throughput is gwprof's limit, not the gateway's: its
// req/s ratio is printed in brackets and only the per-CPU-second ratio stands.
//
//   node bench/dist/native-ratios.js [--gateways hive,apollo,grafbase,hive-router,apollo-router]
//     [--level 50] [--rounds 2] [--duration 15] [--warmup 5] [--subgraphs native] [--scenario varied]
//     [--out bench/results/native-ratios]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { median } from '@gwprof/analysis';
import type { RunResult, StepRecord } from '@gwprof/results';
import { benchArgs } from './args.js';
import { fixed, repoRoot } from './common.js';

const { values } = benchArgs({
  options: {
    gateways: { type: 'string', default: 'hive,apollo,grafbase,hive-router,apollo-router' },
    level: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    subgraphs: { type: 'string', default: 'native' },
    scenario: { type: 'string', default: 'varied' },
    out: { type: 'string', default: path.join(repoRoot, 'bench', 'results', 'native-ratios') },
  },
});
const cli = path.join(repoRoot, 'packages/cli/dist/bin.js');
const gateways = values.gateways.split(',');
const rounds = Number(values.rounds);
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** The Guild's gateway benchmark (k6, 50 VUs, Rust subgraphs, the gateway on 2 cores), req/s. */
const GUILD_RPS: Record<string, number> = { 'hive-router': 1708, grafbase: 1625, 'apollo-router': 352, hive: 291, apollo: 92 };

interface Reading {
  gateway: string;
  round: number;
  runDir: string;
  status: string;
  rps: number;
  gatewayCpuPercent: number | null;
  okPerGatewayCpuSecond: number | null;
  fanout: number | null;
  harnessCoresBusyPercent: number | null;
  gatewayCoresBusyPercent: number | null;
  boundReason: string | null;
}

function sweep(gateway: string, round: number): Reading {
  const runId = `${values.scenario}-${gateway}-r${round}`;
  const args = ['sweep', '--gateway', gateway, '--scenario', values.scenario, '-c', values.level, '-d', values.duration, '-w', values.warmup];
  args.push('--subgraphs', values.subgraphs, '--no-color', '--out', values.out, '--run-id', runId);
  try {
    execFileSync(process.execPath, [cli, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    // A failed step still writes its record; the status below says what happened.
    log(`${gateway} round ${round}: gwprof exited ${(error as { status?: number }).status}`);
  }
  const runDir = path.join(values.out, runId);
  const record = JSON.parse(readFileSync(path.join(runDir, 'results.json'), 'utf8')) as RunResult;
  return reading(gateway, round, runDir, record.steps[0]!);
}

function reading(gateway: string, round: number, runDir: string, step: StepRecord): Reading {
  const cpuMs = step.gateway.cpuMsPerOkRequest;
  return {
    gateway,
    round,
    runDir: path.relative(repoRoot, runDir),
    status: step.status,
    rps: step.rps,
    gatewayCpuPercent: step.gateway.cpuPercent,
    okPerGatewayCpuSecond: cpuMs ? 1000 / cpuMs : null,
    fanout: step.fanout,
    harnessCoresBusyPercent: step.harness?.cores?.busyPercent ?? null,
    gatewayCoresBusyPercent: step.harness?.gatewayCores?.busyPercent ?? null,
    boundReason: step.harness?.boundReason ?? null,
  };
}

const readings: Reading[] = [];
mkdirSync(values.out, { recursive: true });
for (let round = 1; round <= rounds; round++) {
  const order = gateways.map((_, i) => gateways[(i + round - 1) % gateways.length]!);
  for (const gateway of order) {
    log(`round ${round}/${rounds}: ${gateway}`);
    const r = sweep(gateway, round);
    readings.push(r);
    log(
      `  ${r.status}: ${r.rps.toFixed(0)} ok req/s, gateway ${fixed(r.gatewayCpuPercent, 0)}% CPU, ${fixed(r.okPerGatewayCpuSecond, 0)} ok per gateway CPU-s, harness cores ${fixed(r.harnessCoresBusyPercent, 0)}% busy`,
    );
    writeFileSync(path.join(values.out, `native-ratios-${values.scenario}.json`), `${JSON.stringify({ command: process.argv.slice(2), readings }, null, 2)}\n`);
  }
}

const med = (gateway: string, key: 'rps' | 'gatewayCpuPercent' | 'okPerGatewayCpuSecond' | 'fanout' | 'harnessCoresBusyPercent'): number | null => {
  const values = readings.filter((r) => r.gateway === gateway).map((r) => r[key]);
  return values.every((v) => v !== null) ? median(values as number[]) : null;
};
const hiveRps = med('hive', 'rps');
const hivePerCpu = med('hive', 'okPerGatewayCpuSecond');
const ratio = (value: number | null, base: number | null): string => (value !== null && base ? (value / base).toFixed(2) : '–');
const rows = gateways.map((gateway) => {
  const statuses = [...new Set(readings.filter((r) => r.gateway === gateway).map((r) => r.status))].join(', ');
  const bound = statuses.includes('harness-bound');
  const rpsRatio = ratio(med(gateway, 'rps'), hiveRps);
  const guild = GUILD_RPS[gateway] !== undefined ? (GUILD_RPS[gateway]! / GUILD_RPS.hive!).toFixed(2) : '–';
  return `| ${gateway} | ${statuses} | ${fixed(med(gateway, 'rps'), 0)} | ${fixed(med(gateway, 'gatewayCpuPercent'), 0)} | ${fixed(med(gateway, 'okPerGatewayCpuSecond'), 0)} | ${fixed(med(gateway, 'fanout'), 2)} | ${fixed(med(gateway, 'harnessCoresBusyPercent'), 0)} | ${bound ? `(${rpsRatio})` : rpsRatio} | ${ratio(med(gateway, 'okPerGatewayCpuSecond'), hivePerCpu)} | ${guild} |`;
});
const table = [
  `${values.scenario} scenario, c=${values.level}, ${rounds} rounds of ${values.duration} s windows, subgraphs ${values.subgraphs}; medians over rounds.`,
  '',
  '| gateway | status | ok req/s | gateway CPU % | ok req per gateway CPU-s | fan-out | harness cores busy % | req/s ÷ Hive Gateway | per CPU-s ÷ Hive Gateway | The Guild: req/s ÷ Hive Gateway |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows,
].join('\n');
writeFileSync(path.join(values.out, `native-ratios-${values.scenario}.md`), `${table}\n`);
process.stdout.write(`${table}\n`);
