import { describe, expect, it } from 'vitest';
import { renderBucketTable, renderBucketTableMarkdown } from './bucket-table.js';
import { BUCKET_ORDER as BUCKET_DISPLAY_ORDER } from '@gwprof/analysis';
import { loadLabel, loadLevel } from '@gwprof/results';
import { makeRunFixture } from '../test-fixtures/run-fixture.js';

function cells(line: string): string[] {
  return line.trim().split(/\s{2,}/);
}

describe('renderBucketTable', () => {
  const run = makeRunFixture();
  const lines = renderBucketTable(run).split('\n');
  const header = cells(lines[0]!);

  it('has a column per bucket that holds time, in display order, custom buckets after the known ones and other last', () => {
    expect(header.slice(0, 2)).toEqual(['conc', 'samples']);
    const order = [...BUCKET_DISPLAY_ORDER.slice(0, -1), 'myPlugin', 'other'];
    const shown = header.slice(2);
    expect(shown).toEqual(order.filter((b) => shown.includes(b)));
    expect(shown.slice(-2)).toEqual(['myPlugin', 'other']);
    // A bucket nothing fell in is left out of the terminal, never out of summary.md.
    const empty = order.filter((b) => !shown.includes(b));
    expect(empty.length).toBeGreaterThan(0);
    for (const b of empty) expect(renderBucketTableMarkdown(run)).toContain(`| ${b} % |`);
  });

  it('shows each share as a percentage with one decimal, matching the data', () => {
    for (const [rowIndex, step] of [
      [2, run.steps[0]!],
      [3, run.steps[1]!],
    ] as const) {
      const row = cells(lines[rowIndex]!);
      expect(row[0]).toBe(String(loadLevel(step.load)));
      expect(row[1]).toBe('9,876');
      header.slice(2).forEach((bucket, i) => {
        const share = run.analysis!.steps.find((a) => a.stepId === step.id)!.buckets?.[bucket] ?? 0;
        expect(row[i + 2], `${bucket} at ${loadLabel(step.load)}`).toBe((share * 100).toFixed(1));
      });
    }
    // 0.1234 → 12.3, 0.0266 → 2.7
    expect(cells(lines[2]!)[header.indexOf('parse')]).toBe('12.3');
    expect(cells(lines[2]!)[header.indexOf('httpParser')]).toBe('2.7');
  });

  it('says "no samples" for a step whose profile had none', () => {
    expect(cells(lines[4]!).slice(0, 3)).toEqual(['1000', 'no samples', '–']);
  });

  it('is absent when no step has buckets', () => {
    const unprofiled = makeRunFixture();
    for (const step of unprofiled.steps) delete step.profile;
    unprofiled.analysis!.steps = [];
    expect(renderBucketTable(unprofiled)).toBe('');
    expect(renderBucketTableMarkdown(unprofiled)).toBe('');
  });
});
