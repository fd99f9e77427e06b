import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@gwprof/analysis';
import type { SlimWindow } from './driver.js';
import { gcCorrelation } from './noise-components.js';

/** Windows of 4 epochs × 2 sides × 4 windows, CPU per request = base + gcWeight × GC per request + noise. */
function windows(gcWeight: number, seed: number): SlimWindow[] {
  const random = mulberry32(seed);
  const out: SlimWindow[] = [];
  for (let epoch = 1; epoch <= 4; epoch++) {
    for (const side of ['baseline', 'candidate'] as const) {
      for (let position = 0; position < 4; position++) {
        const gcPerRequest = 1 + random();
        const value = 6 + epoch * 0.3 + gcWeight * gcPerRequest + 0.05 * random();
        out.push({ epoch, block: epoch, position, side, level: 20, value, ok: 600, rps: 120, gcMs: gcPerRequest * 600, majorGcMs: null });
      }
    }
  }
  return out;
}

describe('gcCorrelation', () => {
  it('sees window CPU that follows GC, and none when it does not, whatever each epoch\'s level', () => {
    expect(gcCorrelation(windows(1, 1))!).toBeGreaterThan(0.9);
    expect(Math.abs(gcCorrelation(windows(0, 2))!)).toBeLessThan(0.5);
  });

  it('says nothing without GC figures', () => {
    expect(gcCorrelation(windows(1, 3).map((w) => ({ ...w, gcMs: null })))).toBeNull();
  });
});
