import { describe, expect, it } from 'vitest';
import { snapshotDue } from './run-soak.js';

describe('snapshotDue', () => {
  it('takes the first, the last and every n-th interval', () => {
    const due = Array.from({ length: 10 }, (_, i) => i).filter((i) => snapshotDue(i, 10, 3));
    expect(due).toEqual([0, 2, 5, 8, 9]);
  });

  it('takes none at all with 0, as --snapshot-every 0 promises', () => {
    expect(Array.from({ length: 10 }, (_, i) => snapshotDue(i, 10, 0)).some(Boolean)).toBe(false);
  });
});
