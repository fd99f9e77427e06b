/**
 * The subgraph calls of gwprof's traced requests, as a subgraph (or the counting proxy in front of
 * one) saw them: each call that carried a W3C `traceparent` with the sampled flag, with its trace
 * id, when it arrived and when its answer was written (ms on the machine's monotonic clock, which
 * every process reads alike; wall-clock origins differ between processes by milliseconds) and
 * the bytes of the answer. The harness takes them after each measured window (GET /__gwprof/calls,
 * which also empties the log; `?untraced=1` or `0` also switches the logging of calls without a
 * traceparent on or off). Bounded: past `capacity` calls, further ones are only counted.
 */

/** One subgraph call of a traced request. */
export interface LoggedCall {
  traceId: string;
  /** ms on the machine's monotonic clock (`machineMs`): when the request reached the subgraph. */
  start: number;
  /** ms on the machine's monotonic clock: when its answer was written. */
  end: number;
  /** Bytes of the answer's body. */
  bytes: number;
}

/** What GET /__gwprof/calls answers. */
export interface CallLogPage {
  name: string;
  calls: LoggedCall[];
  /** Traced calls not kept since the last page, the log being full. */
  dropped: number;
}

/** The most calls a log keeps between two reads: a traced window's calls, with room to spare. */
export const CALL_LOG_CAPACITY = 50_000;

/** `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`: the trace id when the sampled flag is set, null otherwise. */
export function sampledTraceId(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || header.length < 55 || header.charCodeAt(2) !== 0x2d) return null;
  const flags = Number.parseInt(header.slice(53, 55), 16);
  if (!(flags & 1)) return null;
  return header.slice(3, 35);
}

/** ms on CLOCK_MONOTONIC, the same clock in every process of the machine. */
export function machineMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export class CallLog {
  private calls: LoggedCall[] = [];
  private dropped = 0;
  /**
   * Also log calls that carry no traceparent at all (trace id ''): the harness asks for them while it
   * sends one request at a time to a gateway that does not forward the trace context, and places
   * them in their request by timing.
   */
  untraced = false;

  constructor(
    private readonly name: string,
    private readonly capacity = CALL_LOG_CAPACITY,
  ) {}

  add(call: LoggedCall): void {
    if (this.calls.length < this.capacity) this.calls.push(call);
    else this.dropped++;
  }

  /** The calls logged since the last read, and the log emptied. */
  take(): CallLogPage {
    const page = { name: this.name, calls: this.calls, dropped: this.dropped };
    this.calls = [];
    this.dropped = 0;
    return page;
  }
}

/**
 * Logs the call `req` is, when it carries a sampled trace: from now until `res` has been written.
 * `bytes` reads the answer's size once it is written.
 */
export function logTracedCall(log: CallLog, traceparent: string | string[] | undefined, res: import('node:http').ServerResponse, bytes: () => number): void {
  const traceId = sampledTraceId(traceparent) ?? (log.untraced && traceparent === undefined ? '' : null);
  if (traceId === null) return;
  const start = machineMs();
  res.once('finish', () => log.add({ traceId, start, end: machineMs(), bytes: bytes() }));
}

/** GET /__gwprof/calls[?untraced=0|1]: the page, after switching untraced logging as asked. */
export function takeCallPage(log: CallLog, url: string): CallLogPage {
  const asked = /[?&]untraced=([01])/.exec(url);
  const page = log.take();
  if (asked) log.untraced = asked[1] === '1';
  return page;
}
