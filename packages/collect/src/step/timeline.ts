/**
 * The clock of one step's continuous load: it wakes at every whole second, records the second
 * that just ended (successful and failed responses, latency, gateway CPU) in the step's series,
 * and keeps the progress line up to date.
 */
import type { SeriesPoint } from '@gwprof/results';
import type { LoadRecorder } from '../load/recorder.js';
import type { CpuSampler } from './gateway-cpu.js';
import { untilSecond } from './ticks.js';

export class StepTimeline {
  readonly series: SeriesPoint[] = [];
  private elapsed = 0;

  constructor(
    private readonly recorder: LoadRecorder,
    private readonly cpu: CpuSampler,
    private readonly signal: AbortSignal,
  ) {}

  /** Whole seconds since the load started. */
  get seconds(): number {
    return this.elapsed;
  }

  /** Waits for the current second to end and records it; returns the seconds elapsed. */
  async tick(phase: SeriesPoint['phase']): Promise<number> {
    await untilSecond(this.recorder.startedAt, this.elapsed + 1, this.signal);
    if (this.signal.aborted) return this.elapsed;
    const second = this.recorder.second(this.elapsed);
    this.series.push({
      t: this.elapsed,
      phase,
      ok: second.ok,
      failed: second.failed,
      p50Ms: second.p50Ms,
      p99Ms: second.p99Ms,
      gatewayCpuPercent: this.cpu.read(),
    });
    this.elapsed++;
    return this.elapsed;
  }

  /**
   * The series as recorded, each second's counts and latency read again from the recorder: a
   * response that completed just before a second ended can be filed after the tick read that
   * second, so only the final reading adds up to the window's own count.
   */
  finalSeries(): SeriesPoint[] {
    return this.series.map((point) => {
      const second = this.recorder.second(point.t);
      return { ...point, ok: second.ok, failed: second.failed, p50Ms: second.p50Ms, p99Ms: second.p99Ms };
    });
  }

  /** Successful responses per second over the last `seconds` seconds recorded. */
  recentOk(seconds: number): number[] {
    return this.series.slice(-seconds).map((point) => point.ok);
  }
}
