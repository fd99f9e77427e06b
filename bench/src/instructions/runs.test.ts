import { describe, expect, it } from 'vitest';
import { runPlan, runsTable, type InstructionRunEntry } from './runs.js';

const entry = (plantedPercent: number, verdict: string, verdictMinutes: number, change: number | null, plantedShare: number | null): InstructionRunEntry => ({
  date: '2026-11-27T08:00:00Z',
  gateway: 'mesh',
  flags: [],
  plantedPercent,
  iterations: 0,
  plantedInstructions: 0,
  plantedShare,
  exitCode: 0,
  verdict,
  verdictMinutes,
  minutes: verdictMinutes + 3,
  change,
  interval: null,
  epochs: 3,
  baselinePerRequest: 57e6,
  batches: [],
  epochSeconds: [],
});

describe('instruction runs', () => {
  it('interleaves the kinds, round after round', () => {
    expect(runPlan({ 0: 2, 1: 1, 2: 2 }).map((r) => r.plantedPercent)).toEqual([0, 1, 2, 0, 2]);
  });

  it('counts verdicts within 10 minutes by the time to the verdict, and reads each planted size against itself', () => {
    const rows = runsTable([
      entry(0, 'no change', 5, 0.001, null),
      entry(0, 'no change', 11, 0, null),
      entry(1, 'regression', 6, 0.0095, 0.01),
      entry(1, 'regression', 7, 0.0105, 0.01),
    ]);
    expect(rows[2]).toMatch(/^\| mesh \| A\/A \| 2 \| 2 \| 1 \| 0 \| 0 \|/);
    expect(rows[3]).toMatch(/^\| mesh \| \+1% \| 2 \| 0 \| 0 \| 2 \| 2 \| .* \| 0\.950–1\.050 \|/);
  });
});
