/** The gateway's CPU between two readings, from /proc: one stat file per reading, cheap enough every second. */
import { cpuSeconds } from '../proc-stats.js';

export class CpuSampler {
  private lastCpu: number;
  private lastTime: number;

  /** `pid` null: a gateway we cannot see (a URL), so every reading is null. */
  constructor(private readonly pid: number | null) {
    this.lastCpu = pid === null ? 0 : cpuSeconds([pid]);
    this.lastTime = performance.now();
  }

  /** % of one core used since the previous reading. */
  read(): number | null {
    if (this.pid === null) return null;
    const cpu = cpuSeconds([this.pid]);
    const now = performance.now();
    const wall = (now - this.lastTime) / 1000;
    const percent = wall > 0 ? ((cpu - this.lastCpu) / wall) * 100 : 0;
    this.lastCpu = cpu;
    this.lastTime = now;
    return Math.max(0, Math.round(percent * 10) / 10);
  }
}
