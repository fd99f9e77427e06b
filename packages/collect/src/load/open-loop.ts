/**
 * Open-loop load: requests leave on a schedule (Poisson arrivals by default, or evenly spaced) at
 * a target rate, whether or not earlier ones have been answered, so a gateway that slows down
 * meets the same arrivals and its queueing shows in the latency. Latency runs from each request's
 * intended send time (no coordinated omission). At most `maxInFlight` requests are outstanding:
 * a send the cap refuses is counted as dropped, never queued silently. Each request in flight has
 * a connection of its own: an idle one if there is one (the one used last), else a new one.
 */
import { mulberry32 } from '@gwprof/analysis';
import { type ExchangeDone, InFlight, exchange } from './exchange.js';
import { Http1Connection } from './http1-connection.js';
import type { WireRequests } from './http1-request.js';
import type { Completion, LoadRecorder } from './recorder.js';
import type { RequestStream } from './request-stream.js';
import type { LoadEngine } from './load-engine.js';
import type { RequestTraces } from './request-traces.js';

export type Arrivals = 'poisson' | 'uniform';

/** A connection of the open loop, with what to do when its request ends (made once, not per request). */
interface Sender {
  connection: Http1Connection;
  ended: ExchangeDone;
  /** Its request's latency start, and its trace number when sampled (0 otherwise). */
  startedAt: number;
  sampled: number;
}

export interface OpenLoopOptions {
  /** The stream's requests, encoded for the gateway. */
  wire: WireRequests;
  /** Target arrivals per second. */
  rate: number;
  arrivals: Arrivals;
  maxInFlight: number;
  timeoutMs: number;
  stream: RequestStream;
  recorder: LoadRecorder;
  /** Seed of the Poisson schedule, so a step's arrivals can be replayed. */
  seed?: number;
  /** A traceparent on every request (the wire must be encoded traced), and the window's sample. */
  traces?: RequestTraces;
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
  const next = arrivalSchedule(options.rate, options.arrivals, options.seed);
  const inFlight = new InFlight(options.timeoutMs);
  const { wire, recorder, stream, traces } = options;
  const connections: Sender[] = [];
  /** The connections with no request outstanding, the one used last on top. */
  const idle: Sender[] = [];
  const start = recorder.startedAt;
  let due = start + next();
  let outstanding = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let drained: (() => void) | null = null;
  const onTimeout = (at: number, timeout: Completion) => !stopped && recorder.onTimedOut(at, timeout);
  const onConnect = () => recorder.onConnect(performance.now());
  const newSender = (): Sender => {
    const sender: Sender = {
      connection: new Http1Connection(wire.host, wire.port, null, onConnect),
      ended: (completion, at) => {
        outstanding--;
        if (stopped) {
          if (outstanding === 0) drained?.();
          return;
        }
        idle.push(sender);
        if (completion) recorder.onComplete(at, completion);
        else recorder.onSettled();
        if (sender.sampled !== 0 && completion?.ok) traces!.onAnswered(sender.sampled, sender.startedAt, at);
      },
      startedAt: 0,
      sampled: 0,
    };
    connections.push(sender);
    return sender;
  };

  const send = (intendedAt: number, now: number): void => {
    if (outstanding >= options.maxInFlight) {
      recorder.onDrop(intendedAt);
      return;
    }
    outstanding++;
    recorder.onSend(now, now - intendedAt);
    const request = stream.take();
    const sender = idle.pop() ?? newSender();
    const message = wire.messages[request.index]!;
    sender.startedAt = intendedAt;
    if (traces) sender.sampled = traces.stamp(message, wire.traceAt!, now);
    exchange(sender.connection, message, request, stream, inFlight, intendedAt, onTimeout, sender.ended);
    traces?.release(wire, request.index, sender.connection);
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
      const allEnded = new Promise<void>((resolve) => {
        drained = resolve;
      });
      inFlight.abortAll();
      for (const sender of connections) sender.connection.close();
      if (outstanding > 0) await allEnded;
    },
  };
}
