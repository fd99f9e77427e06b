/** The gateway's CPU between two readings, from /proc: one stat file per reading, cheap enough every second. */
import { cpuSeconds } from '../processes/proc-stats.js';

export class CpuSampler {
  private lastCpu: number;
  private lastTime: number;

  /** `pids` null or []: a gateway we cannot see (a URL), so every reading is null. Several pids add up. */
  private readonly pids: number[];

  constructor(pids: number | null | readonly number[]) {
    this.pids = pids === null ? [] : typeof pids === 'number' ? [pids] : [...pids];
    this.lastCpu = cpuSeconds(this.pids);
    this.lastTime = performance.now();
  }

  /** % of one core used since the previous reading. */
  read(): number | null {
    if (this.pids.length === 0) return null;
    const cpu = cpuSeconds(this.pids);
    const now = performance.now();
    const wall = (now - this.lastTime) / 1000;
    const percent = wall > 0 ? ((cpu - this.lastCpu) / wall) * 100 : 0;
    this.lastCpu = cpu;
    this.lastTime = now;
    return Math.max(0, Math.round(percent * 10) / 10);
  }
}
