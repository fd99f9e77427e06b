import { describe, expect, it } from 'vitest';
import type { StepRecord, TrialRecord } from '@gwprof/results';
import { diffRuns, judgeTrials } from './trials.js';
import { mulberry32 } from './testing/profiles.js';

function step(cpuMs: number, rps: number, status: 'ok' | 'failed' = 'ok', id = 's'): StepRecord {
  return {
    id,
    concurrency: 50,
    status,
    failures: status === 'failed' ? ['success rate 90.00% is below the required 100.00%'] : [],
    warnings: [],
    rps,
    latencyMs: { mean: 50000 / rps, p50: 50000 / rps, p75: 0, p90: 0, p95: 0, p99: 80000 / rps, max: 0 },
    gateway: { cpuPercent: 90, cpuMsPerOkRequest: cpuMs, rssMaxMB: 300, pids: [] },
    fanout: 7,
  } as StepRecord;
}

/** n trials per side, alternating, with multiplicative noise of `noise` (relative sd-ish) and a candidate slowdown. */
function trials(n: number, slowdown: number, noise: number, seed: number): TrialRecord[] {
  const random = mulberry32(seed);
  const jitter = () => 1 + noise * (random() * 2 - 1) * Math.sqrt(3);
  const out: TrialRecord[] = [];
  for (let index = 1; index <= n; index++) {
    for (const side of ['baseline', 'candidate'] as const) {
      const factor = side === 'candidate' ? 1 + slowdown : 1;
      const cpu = 10 * factor * jitter();
      out.push({ side, index, step: step(cpu, 1000 / cpu) });
    }
  }
  return out;
}

describe('judgeTrials', () => {
  it('finds no regression when both sides come from the same distribution', () => {
    const judged = judgeTrials(trials(8, 0, 0.01, 1), { threshold: 0.05, concurrency: [50] });
    expect(judged.verdict).toBe('no regression');
    expect(judged.exitCode).toBe(0);
  });

  it('calls a 10% slowdown with low noise a regression and exits 1', () => {
    const judged = judgeTrials(trials(5, 0.1, 0.01, 2), { threshold: 0.05, concurrency: [50] });
    expect(judged.verdict).toBe('regression');
    expect(judged.exitCode).toBe(1);
    const cpu = judged.levels[0]!.metrics.find((m) => m.metric === 'cpuMsPerOkRequest')!;
    expect(cpu.relativeChange!).toBeGreaterThan(0.08);
    expect(cpu.relativeChange!).toBeLessThan(0.12);
    expect(judged.reasons.join(' ')).toMatch(/cpuMsPerOkRequest at c=50: \+\d+\.\d% \[/);
  });

  it('asks for more trials when high noise leaves the gating metrics undecided', () => {
    const judged = judgeTrials(trials(3, 0.05, 0.3, 3), { threshold: 0.05, concurrency: [50] });
    expect(judged.verdict).toBe('inconclusive');
    expect(judged.needMoreTrials).toBe(true);
  });

  it('adjusts the gating confidence for the number of gating comparisons', () => {
    expect(judgeTrials(trials(3, 0, 0.01, 4), { threshold: 0.05, concurrency: [50] }).gatingConfidence).toBeCloseTo(0.975, 6);
    expect(judgeTrials(trials(3, 0, 0.01, 4), { threshold: 0.05, concurrency: [50, 100] }).gatingConfidence).toBeCloseTo(0.9875, 6);
  });

  it('turns a validation failure on either side into an invalid comparison, never a verdict', () => {
    const all = trials(4, 0.2, 0.01, 5);
    all[3] = { ...all[3]!, step: step(10, 100, 'failed') };
    const judged = judgeTrials(all, { threshold: 0.05, concurrency: [50] });
    expect(judged.verdict).toBe('invalid');
    expect(judged.exitCode).toBe(2);
    expect(judged.reasons[0]).toMatch(/candidate trial 2 at concurrency 50 failed: success rate/);
  });
});

describe('diffRuns', () => {
  it('gives deltas per shared level without intervals', () => {
    const levels = diffRuns(
      { steps: [step(10, 100, 'ok', 'a')], buckets: () => ({ execute: 0.5, gc: 0.5 }) },
      { steps: [step(12, 80, 'ok', 'b')], buckets: (id) => (id === 'b' ? { execute: 0.6, gc: 0.4 } : null) },
    );
    expect(levels).toHaveLength(1);
    const cpu = levels[0]!.metrics.find((m) => m.metric === 'cpuMsPerOkRequest')!;
    expect(cpu.relativeChange).toBeCloseTo(0.2, 6);
    expect(cpu.ci95).toBeNull();
    expect(levels[0]!.buckets.find((b) => b.bucket === "execute")!.deltaPoints).toBeCloseTo(10, 6);
  });
});
