/**
 * Open-loop load: requests leave on a schedule (Poisson arrivals by default, or evenly spaced) at
 * a target rate, whether or not earlier ones have been answered, so a gateway that slows down
 * meets the same arrivals and its queueing shows in the latency. Latency runs from each request's
 * intended send time (no coordinated omission). At most `maxInFlight` requests are outstanding:
 * a send the cap refuses is counted as dropped, never queued silently. Only the scheduler is ours:
 * undici's Pool carries the requests, one connection per request in flight.
 */
import { Pool } from 'undici';
import { mulberry32 } from '@gwprof/analysis';
import { InFlight, exchange } from './exchange.js';
import type { Completion, LoadRecorder } from './recorder.js';
import type { RequestStream } from './request-stream.js';
import type { LoadEngine } from './load-engine.js';

export type Arrivals = 'poisson' | 'uniform';

export interface OpenLoopOptions {
  url: string;
  /** Target arrivals per second. */
  rate: number;
  arrivals: Arrivals;
  maxInFlight: number;
  timeoutMs: number;
  stream: RequestStream;
  recorder: LoadRecorder;
  /** Seed of the Poisson schedule, so a step's arrivals can be replayed. */
  seed?: number;
}

/** Intended send times, ms after the start: exponential gaps (Poisson) or equal ones. */
export function arrivalSchedule(rate: number, arrivals: Arrivals, seed = 1): () => number {
  const random = mulberry32(seed);
  let t = 0;
  return () => {
    t += arrivals === 'uniform' ? 1000 / rate : (-Math.log(1 - random()) * 1000) / rate;
    return t;
  };
}

export function startOpenLoop(options: OpenLoopOptions): LoadEngine {
  const { origin, pathname } = new URL(options.url);
  const pool = new Pool(origin, { connections: options.maxInFlight, pipelining: 1, headersTimeout: 0, bodyTimeout: 0, connect: { timeout: 10_000 } });
  const inFlight = new InFlight(options.timeoutMs);
  const next = arrivalSchedule(options.rate, options.arrivals, options.seed);
  const { recorder, stream } = options;
  const start = recorder.startedAt;
  let due = start + next();
  let outstanding = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<Promise<void>>();

  const send = (intendedAt: number, now: number): void => {
    if (outstanding >= options.maxInFlight) {
      recorder.onDrop(intendedAt);
      return;
    }
    outstanding++;
    recorder.onSend(now, now - intendedAt);
    const request = stream.take();
    const onTimeout = (at: number, timeout: Completion) => !stopped && recorder.onTimedOut(at, timeout);
    const done = exchange(pool, pathname, request, stream, inFlight, intendedAt, onTimeout).then(({ completion, at }) => {
      outstanding--;
      if (stopped) return;
      if (completion) recorder.onComplete(at, completion);
      else recorder.onSettled();
    });
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };

  // Wakes at the next intended send time and sends everything that is due.
  const tick = (): void => {
    if (stopped) return;
    const now = performance.now();
    while (due <= now) {
      send(due, now);
      due = start + next();
    }
    timer = setTimeout(tick, Math.max(0, due - performance.now()));
  };
  timer = setTimeout(tick, Math.max(0, due - performance.now()));

  return {
    answered: () => null,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      inFlight.abortAll();
      await pool.destroy().catch(() => undefined);
      await Promise.all([...pending]);
    },
  };
}
