/**
 * What the harness's side of `--trace` costs a gateway at its peak: `gwprof sweep` at one level, as
 * a user runs it, plain and with `--trace --no-gateway-spans` (the engine's header and sample, the
 * subgraphs' call logs, the gateway forwarding the header; not the gateway's own spans), in pairs
 * whose order alternates (plain first, then traced first), so the machine's drift falls on both.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunResult, StepRecord } from '@gwprof/results';
import { repoRoot } from '../common.js';

export interface SweepPlan {
  gateway: string;
  level: number;
  durationSec: number;
  warmupSec: number;
  subgraphs: string;
  /** Where the sweeps' run folders go. */
  out: string;
  /** Begins every run folder's name: the session's (a date and time), so a second session writes beside the first. */
  stamp: string;
}

/** One sweep's one step, as the figures the comparison reads. */
export interface ThroughputRun {
  gateway: string;
  pair: number;
  traced: boolean;
  runId: string;
  status: string;
  okRps: number;
  gatewayCpuMsPerOkRequest: number | null;
  harnessCoresBusyPercent: number | null;
  gatewayCoresBusyPercent: number | null;
  /** Traced requests in the step's sample, and how many of them reached a subgraph under their own trace id. */
  tracedRequests: number | null;
  tracedWithCalls: number | null;
}

const CLI = path.join(repoRoot, 'packages/cli/dist/bin.js');

/** The sweep's command line for one run of the pair. */
export function sweepArgs(plan: SweepPlan, traced: boolean, runId: string): string[] {
  const args = ['sweep', '--gateway', plan.gateway, '-c', String(plan.level), '-d', String(plan.durationSec), '-w', String(plan.warmupSec)];
  args.push('--subgraphs', plan.subgraphs, '--no-profile', '--no-allocation-attribution', '--no-color', '--out', plan.out, '--run-id', runId);
  return traced ? [...args, '--trace', '--no-gateway-spans'] : args;
}

/** Runs one sweep and reads its step back. */
export function sweepOnce(plan: SweepPlan, pair: number, traced: boolean, log: (line: string) => void): ThroughputRun {
  const runId = `${plan.stamp}-${plan.gateway}-c${plan.level}-p${pair}-${traced ? 'traced' : 'plain'}`;
  try {
    execFileSync(process.execPath, [CLI, ...sweepArgs(plan, traced, runId)], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    // A step that fails still writes its record: its status says what happened.
    log(`${runId}: gwprof exited ${(error as { status?: number }).status}`);
  }
  const record = JSON.parse(readFileSync(path.join(plan.out, runId, 'results.json'), 'utf8')) as RunResult;
  return runOf(plan.gateway, pair, traced, runId, record.steps[0]!);
}

function runOf(gateway: string, pair: number, traced: boolean, runId: string, step: StepRecord): ThroughputRun {
  const requests = step.traces?.requests ?? null;
  return {
    gateway,
    pair,
    traced,
    runId,
    status: step.status,
    okRps: step.rps,
    gatewayCpuMsPerOkRequest: step.gateway.cpuMsPerOkRequest,
    harnessCoresBusyPercent: step.harness?.cores?.busyPercent ?? null,
    gatewayCoresBusyPercent: step.harness?.gatewayCores?.busyPercent ?? null,
    tracedRequests: requests ? requests.length : null,
    tracedWithCalls: requests ? requests.filter((r) => r.calls.length > 0).length : null,
  };
}

/** The pairs' runs, plain first in odd pairs and traced first in even ones; `onRun` after each. */
export function throughputPairs(plan: SweepPlan, pairs: number, log: (line: string) => void, onRun: (run: ThroughputRun) => void): ThroughputRun[] {
  const runs: ThroughputRun[] = [];
  for (let pair = 1; pair <= pairs; pair++) {
    for (const traced of pair % 2 === 1 ? [false, true] : [true, false]) {
      const run = sweepOnce(plan, pair, traced, log);
      runs.push(run);
      onRun(run);
    }
  }
  return runs;
}

/** Each pair's traced ÷ plain of a figure; pairs missing either side or the figure are left out. */
export function pairRatios(runs: readonly ThroughputRun[], figure: (run: ThroughputRun) => number | null): number[] {
  const pairs = [...new Set(runs.map((r) => r.pair))];
  return pairs.flatMap((pair) => {
    const traced = runs.find((r) => r.pair === pair && r.traced);
    const plain = runs.find((r) => r.pair === pair && !r.traced);
    const a = traced ? figure(traced) : null;
    const b = plain ? figure(plain) : null;
    return a !== null && b !== null && b > 0 ? [a / b] : [];
  });
}
