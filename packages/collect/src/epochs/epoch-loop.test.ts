import { describe, expect, it } from 'vitest';
import { paceSeconds, type EpochTimes } from './epoch-loop.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 29, 1) + seconds * 1000).toISOString();
const side = (prepareMs: number) => ({ startup: { prepareMs } });

/** Epochs back to back, of these lengths in seconds, the first side's build taking `prepareMs`. */
function epochs(lengths: number[], prepareMs: number): EpochTimes[] {
  let t = 0;
  return lengths.map((length, i) => {
    const epoch = { epoch: i + 1, startedAt: at(t), finishedAt: at(t + length), sides: { baseline: side(i === 0 ? prepareMs : 0), candidate: side(0) } };
    t += length;
    return epoch;
  });
}

describe('paceSeconds', () => {
  it('takes the first epoch alone without its builds, which the next epochs do not repeat', () => {
    expect(paceSeconds(epochs([260], 60_000))).toBe(200);
    expect(paceSeconds(epochs([260], 0))).toBe(260);
  });

  it('leaves the first epoch out once there are others', () => {
    expect(paceSeconds(epochs([260, 190, 210], 60_000))).toBe(200);
  });

  it('has no pace before an epoch has finished', () => {
    expect(paceSeconds([{ epoch: 1, startedAt: at(0), finishedAt: null }])).toBe(Infinity);
  });
});
