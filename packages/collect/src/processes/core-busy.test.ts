import { describe, expect, it } from 'vitest';
import { busyPercent, parseCpuList, readCpuTimes } from './core-busy.js';

const stat = (cpu0: number[], cpu1: number[]) => `cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 ${cpu0.join(' ')} 0 0\ncpu1 ${cpu1.join(' ')} 0 0\nintr 1 2\n`;

describe('core busy', () => {
  it('reads CPU lists as the kernel writes them', () => {
    expect(parseCpuList('0-2,5')).toEqual([0, 1, 2, 5]);
    expect(parseCpuList('1')).toEqual([1]);
  });

  it('counts everything but idle and iowait as busy, per CPU set', () => {
    const before = readCpuTimes(stat([100, 0, 0, 900, 0, 0, 0, 0], [0, 0, 0, 1000, 0, 0, 0, 0]));
    // cpu0: 90 ticks of user, 5 of system, 5 idle; cpu1: 10 user, 80 idle, 10 iowait.
    const after = readCpuTimes(stat([190, 0, 5, 905, 0, 0, 0, 0], [10, 0, 0, 1080, 10, 0, 0, 0]));
    expect(busyPercent(before, after, [0])).toBeCloseTo(95, 5);
    expect(busyPercent(before, after, [1])).toBeCloseTo(10, 5);
    expect(busyPercent(before, after, [0, 1])).toBeCloseTo(52.5, 5);
    expect(busyPercent(before, after, [2])).toBeNull();
  });
});
