/**
 * One request and its response on a connection of ours (http1-connection.ts), validated and timed.
 *
 * A request unanswered after the timeout is counted as a timeout at that moment, but its
 * connection is kept and the response awaited (up to a hard cap): a gateway under load accepts
 * new connections one per event-loop iteration (libuv ≥ 1.45), so a client that drops the
 * connection and reconnects goes to the back of the accept queue and times out again and again.
 * That feedback loop, not the gateway, made every autocannon version report periodic timeouts
 * at c=300 that wrk, which never aborts, did not see (docs/validation/fidelity-wrk.md).
 */
import type { Http1Connection, ResponseHandler } from './http1-connection.js';
import type { Completion } from './recorder.js';
import type { PreparedRequest, RequestStream } from './request-stream.js';

export { REQUEST_HEADERS } from './http1-request.js';

/** A late response is awaited this many timeouts (at least a minute) before the connection is given up. */
const HARD_CAP_TIMEOUTS = 6;

/** How long a late response is awaited before its connection is given up. */
export function hardCapMs(timeoutMs: number): number {
  return Math.max(60_000, HARD_CAP_TIMEOUTS * timeoutMs);
}

/** What InFlight watches of a request in flight. */
interface Pending {
  deadline: number;
  hardDeadline: number;
  timedOut: boolean;
  /** Records the timeout, once, at the deadline, while the request may still be answered later. */
  timeOut(at: number, timeout: Completion): void;
  /** Gives the request up (its connection is closed). */
  abort(error: Error): void;
}

/** The requests in flight, checked ten times a second against their deadlines. */
export class InFlight {
  private readonly pending = new Set<Pending>();
  private readonly timer: NodeJS.Timeout;
  readonly hardCapMs: number;
  /** What a timeout is recorded as: one object for every timeout of the step. */
  readonly timeout: Completion;

  constructor(readonly timeoutMs: number) {
    this.hardCapMs = hardCapMs(timeoutMs);
    this.timeout = { ok: false, kind: 'timeouts', message: `no response within ${timeoutMs / 1000} s`, bytes: 0 };
    this.timer = setInterval(() => this.expire(performance.now()), 100);
  }

  add(entry: Pending): void {
    this.pending.add(entry);
  }

  remove(entry: Pending): void {
    this.pending.delete(entry);
  }

  /** Abandons every request in flight (the load stops). */
  abortAll(): void {
    clearInterval(this.timer);
    const entries = [...this.pending];
    this.pending.clear();
    for (const entry of entries) entry.abort(new Error('the load stopped'));
  }

  private expire(now: number): void {
    for (const entry of this.pending) {
      if (!entry.timedOut && entry.deadline <= now) {
        entry.timedOut = true;
        entry.timeOut(entry.deadline, this.timeout);
      }
      if (entry.hardDeadline <= now) {
        this.pending.delete(entry);
        entry.abort(new Error(`no response within ${this.hardCapMs / 1000} s: connection given up`));
      }
    }
  }
}

/**
 * How a request ended: `completion` is null when it timed out (the timeout was recorded at its
 * deadline, see onTimeout); `at` is performance.now() when the response (or the failure) was complete.
 */
export type ExchangeDone = (completion: Completion | null, at: number) => void;

/**
 * Sends a request (`message`, its bytes on the wire) and reads its whole response. Latency runs
 * from `startedAt` (when the request was handed to the connection, or for open-loop load, when it
 * was meant to be sent) to the last byte of the body, and so does the timeout: an answer later than
 * `startedAt` + the timeout is a timeout, whether or not InFlight's tick has seen it yet (wrk counts
 * any answer slower than its timeout as one), so no latency above the timeout is ever ok.
 * `onTimeout(at)` reports a timeout at its deadline; `done` is still called only when the late
 * response has arrived (it is not counted again) or the hard cap gave up on it. Callbacks rather
 * than a promise: one object per request on the load engine's hot path.
 */
export function exchange(
  connection: Http1Connection,
  message: Buffer,
  request: PreparedRequest,
  stream: RequestStream,
  inFlight: InFlight,
  startedAt: number,
  onTimeout: (at: number, completion: Completion) => void,
  done: ExchangeDone,
): void {
  const exchanged = new Exchange(connection, request, stream, inFlight, startedAt, onTimeout, done);
  inFlight.add(exchanged);
  connection.send(message, exchanged);
}

class Exchange implements Pending, ResponseHandler {
  readonly deadline: number;
  readonly hardDeadline: number;
  timedOut = false;

  constructor(
    private readonly connection: Http1Connection,
    private readonly request: PreparedRequest,
    private readonly stream: RequestStream,
    private readonly inFlight: InFlight,
    private readonly startedAt: number,
    private readonly onTimeout: (at: number, completion: Completion) => void,
    private readonly done: ExchangeDone,
  ) {
    this.deadline = startedAt + inFlight.timeoutMs;
    this.hardDeadline = performance.now() + inFlight.hardCapMs;
  }

  timeOut(at: number, timeout: Completion): void {
    this.onTimeout(at, timeout);
  }

  abort(error: Error): void {
    this.connection.abort(error);
  }

  onResponse(status: number, body: Buffer): void {
    const at = this.settle();
    this.done(this.timedOut ? null : validated(status, body, this.request, this.stream, at - this.startedAt), at);
  }

  onError(error: Error): void {
    const at = this.settle();
    const kind = (error as { code?: string }).code === 'HTTP_PARSE' ? 'protocolErrors' : 'socketErrors';
    this.done(this.timedOut ? null : { ok: false, kind, message: describeError(error), bytes: 0 }, at);
  }

  /** The request is no longer in flight; one that ended at or after its deadline is recorded as a timeout (once). */
  private settle(): number {
    this.inFlight.remove(this);
    const at = performance.now();
    if (!this.timedOut && at >= this.deadline) {
      this.timedOut = true;
      this.onTimeout(this.deadline, this.inFlight.timeout);
    }
    return at;
  }
}

/**
 * The response's completion. Whatever the judging throws is this request's failure, with its
 * reason: it runs in the socket's read callback, where a throw would end the run.
 */
function validated(status: number, body: Buffer, request: PreparedRequest, stream: RequestStream, latencyMs: number): Completion {
  let verdict: ReturnType<RequestStream['verdict']>;
  try {
    verdict = stream.verdict(request.index, status, body);
  } catch (error) {
    return { ok: false, kind: 'badBody', message: `the body could not be judged: ${String(error)}`, bytes: body.length };
  }
  return verdict.ok
    ? { ok: true, latencyMs, orderWarning: verdict.orderWarning, bytes: body.length }
    : { ok: false, kind: verdict.kind, message: verdict.message, bytes: body.length };
}

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return [code, message].filter(Boolean).join(': ') || String(error);
}
