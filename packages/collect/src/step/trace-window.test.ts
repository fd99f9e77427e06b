import { describe, expect, it } from 'vitest';
import { traceSample } from './trace-window.js';

describe("a traced window's sample", () => {
  it('gives each answered request the calls that carried its trace id, in its own time, and leaves other traces out', () => {
    const sample = traceSample(
      [
        { traceId: 'a', start: 1000, end: 1050 },
        { traceId: 'b', start: 2000, end: 2010 },
      ],
      {
        accounts: {
          name: 'accounts',
          calls: [
            { traceId: 'a', start: 1010.5, end: 1020.25, bytes: 7 },
            { traceId: 'z', start: 1500, end: 1510, bytes: 1 },
          ],
          dropped: 2,
        },
        reviews: { name: 'reviews', calls: [{ traceId: 'a', start: 1005, end: 1009, bytes: 3 }], dropped: 0 },
        inventory: null,
      },
      { perSecond: 25, perWindow: 500 },
    );
    expect(sample.requests).toEqual([
      {
        traceId: 'a',
        latencyMs: 50,
        calls: [
          { subgraph: 'reviews', startMs: 5, endMs: 9, bytes: 3 },
          { subgraph: 'accounts', startMs: 10.5, endMs: 20.25, bytes: 7 },
        ],
      },
      { traceId: 'b', latencyMs: 10, calls: [] },
    ]);
    expect(sample.unlogged).toEqual(['inventory']);
    expect(sample.droppedCalls).toBe(2);
  });
});
