import { describe, expect, it } from 'vitest';
import { upstreamUnseen, upstreamUnseenBySide } from './upstream.js';

const step = (fanout: number | null, ok: number) => ({ fanout, requests: { total: ok, ok, failed: 0, inFlightAtEnd: 0 } });

describe('upstreamUnseen', () => {
  it('flags successful answers that reached none of the counted subgraphs', () => {
    expect(upstreamUnseen(step(0, 500))).toBe(true);
  });

  it('leaves alone steps with fan-out, with unknown counts, or without a success', () => {
    expect(upstreamUnseen(step(7, 500))).toBe(false);
    expect(upstreamUnseen(step(null, 500))).toBe(false);
    expect(upstreamUnseen(step(0, 0))).toBe(false);
  });
});

describe('upstreamUnseenBySide', () => {
  it('counts per side the windows whose subgraphs saw nothing, and names only the sides that had any', () => {
    const windows = [
      { side: 'baseline' as const, step: step(7, 500) },
      { side: 'baseline' as const, step: step(7, 480) },
      { side: 'candidate' as const, step: step(0, 510) },
      { side: 'candidate' as const, step: step(7, 490) },
    ];
    expect(upstreamUnseenBySide(windows)).toEqual([{ side: 'candidate', unseen: 1, windows: 2 }]);
  });
});
