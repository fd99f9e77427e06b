import { mulberry32 } from '@gwprof/analysis';
import { describe, expect, it } from 'vitest';
import { FIGURES, figureScatter, probeDuring, windowCorrelation } from './alternative-figures.js';
import type { SlimWindow } from './driver.js';

/** A/A windows whose machine runs each window at a random speed that slows gateway and subgraphs alike. */
function windowsOnADriftingMachine(epochs: number, withSubgraphs = true): SlimWindow[] {
  const random = mulberry32(7);
  const windows: SlimWindow[] = [];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    (['baseline', 'baseline', 'candidate', 'candidate'] as const).forEach((side, position) => {
      const slowness = 0.6 + random() * 0.8;
      windows.push({
        epoch,
        block: 1,
        position,
        side,
        level: 20,
        value: 5 * slowness,
        ok: 1000,
        rps: 200,
        gcMs: 500 * slowness,
        majorGcMs: 20 * slowness,
        ...(withSubgraphs ? { subgraphCpuMs: 8000 * 0.5 * slowness, subgraphRequests: 8000 } : {}),
      });
    });
  }
  return windows;
}

describe('figureScatter', () => {
  it('finds that a figure divided by a probe of the same slowness does not scatter, where the raw figure does', () => {
    const rows = figureScatter(windowsOnADriftingMachine(30));
    const raw = rows.find((r) => r.figure.startsWith('gateway CPU'))!;
    const probed = rows.find((r) => r.figure.startsWith('÷ subgraph'))!;
    expect(raw.epochs).toBe(30);
    expect(raw.epochSd!).toBeGreaterThan(0.1);
    expect(probed.epochSd!).toBeLessThan(1e-9);
  });

  it('takes GC out window by window: slowness that scales GC and the rest alike still scatters', () => {
    const rows = figureScatter(windowsOnADriftingMachine(30));
    const raw = rows.find((r) => r.figure.startsWith('gateway CPU'))!;
    const noGc = rows.find((r) => r.figure === 'minus GC per request')!;
    // value − gc/ok = 4.5 × slowness: the same log ratios as the raw figure.
    expect(noGc.epochSd!).toBeCloseTo(raw.epochSd!, 9);
  });

  it('leaves out a figure that no window can read, and keeps the windows for the others', () => {
    const rows = figureScatter(windowsOnADriftingMachine(10, false));
    expect(rows.map((r) => r.figure)).not.toContain('÷ subgraph CPU per subgraph request');
    expect(rows.every((r) => r.epochs === 10)).toBe(true);
  });
});

describe('windowCorrelation', () => {
  it('is 1 for figures moved by the same slowness, and null with too few windows', () => {
    const windows = windowsOnADriftingMachine(5);
    expect(windowCorrelation(windows, FIGURES['gateway CPU per request (the verdict)']!, (w) => w.subgraphCpuMs ?? null)).toBeCloseTo(1, 9);
    expect(
      windowCorrelation(
        windows.slice(0, 2),
        (w) => w.value,
        (w) => w.gcMs,
      ),
    ).toBeNull();
  });
});

describe('figureScatter on a side whose subgraphs were not counted', () => {
  it('leaves the subgraph figure out rather than reading half the windows', () => {
    const windows = windowsOnADriftingMachine(6).map((w) => (w.side === 'candidate' ? { ...w, subgraphRequests: 0 } : w));
    const rows = figureScatter(windows);
    expect(rows.map((r) => r.figure)).not.toContain('÷ subgraph CPU per subgraph request');
    expect(rows[0]!.epochs).toBe(6);
  });
});

describe('probeDuring', () => {
  const readings = Array.from({ length: 40 }, (_, i) => ({ t: 1000 + i * 150, cpuUs: i < 20 ? 2000 : 3000 }));

  it("takes the median of the probe's readings inside the window only", () => {
    expect(probeDuring(readings, 1000, 1000 + 20 * 150)).toBe(2000);
    expect(probeDuring(readings, 1000 + 20 * 150, 1000 + 40 * 150)).toBe(3000);
  });

  it('is null where the window holds too few readings to say', () => {
    expect(probeDuring(readings, 0, 1000 + 3 * 150)).toBeNull();
  });
});
