/**
 * One request and its response on a connection of ours (undici), validated and timed.
 *
 * A request unanswered after the timeout is counted as a timeout at that moment, but its
 * connection is kept and the response awaited (up to a hard cap): a gateway under load accepts
 * new connections one per event-loop iteration (libuv ≥ 1.45), so a client that drops the
 * connection and reconnects goes to the back of the accept queue and times out again and again.
 * That feedback loop, not the gateway, made every autocannon version report periodic timeouts
 * at c=300 that wrk, which never aborts, did not see (docs/validation/fidelity-wrk.md).
 */
import type { Dispatcher } from 'undici';
import type { Completion } from './recorder.js';
import type { PreparedRequest, RequestStream } from './request-stream.js';

/** What every request carries, whichever engine sends it (k6's exported script too). */
export const REQUEST_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** A late response is awaited this many timeouts (at least a minute) before the connection is given up. */
const HARD_CAP_TIMEOUTS = 6;

interface Pending {
  deadline: number;
  hardDeadline: number;
  controller: AbortController;
  /** Called once, at the deadline, while the request may still be answered later. */
  onTimeout: (at: number) => void;
  timedOut: boolean;
}

/** The requests in flight, checked ten times a second against their deadlines. */
export class InFlight {
  private readonly pending = new Set<Pending>();
  private readonly timer: NodeJS.Timeout;
  private readonly hardCapMs: number;

  constructor(private readonly timeoutMs: number) {
    this.hardCapMs = Math.max(60_000, HARD_CAP_TIMEOUTS * timeoutMs);
    this.timer = setInterval(() => this.expire(performance.now()), 100);
  }

  get timeoutSeconds(): number {
    return this.timeoutMs / 1000;
  }

  add(now: number, onTimeout: (at: number) => void): Pending {
    const entry = { deadline: now + this.timeoutMs, hardDeadline: now + this.hardCapMs, controller: new AbortController(), onTimeout, timedOut: false };
    this.pending.add(entry);
    return entry;
  }

  remove(entry: Pending): void {
    this.pending.delete(entry);
  }

  /** Abandons every request in flight (the load stops). */
  abortAll(): void {
    clearInterval(this.timer);
    for (const entry of this.pending) entry.controller.abort();
    this.pending.clear();
  }

  private expire(now: number): void {
    for (const entry of this.pending) {
      if (!entry.timedOut && entry.deadline <= now) {
        entry.timedOut = true;
        entry.onTimeout(entry.deadline);
      }
      if (entry.hardDeadline <= now) {
        entry.controller.abort();
        this.pending.delete(entry);
      }
    }
  }
}

export interface ExchangeResult {
  /** null when the request timed out: the timeout was recorded at its deadline (see onTimeout). */
  completion: Completion | null;
  /** performance.now() when the response (or the failure) was complete. */
  at: number;
}

/**
 * Sends a request and reads its whole response. Latency runs from `startedAt` (when the request
 * was handed to the connection, or for open-loop load, when it was meant to be sent) to the last
 * byte of the body. `onTimeout(at)` reports a timeout at its deadline; the call still resolves only
 * when the late response has arrived (it is not counted again) or the hard cap gave up on it.
 */
export async function exchange(
  client: Dispatcher,
  path: string,
  request: PreparedRequest,
  stream: RequestStream,
  inFlight: InFlight,
  startedAt: number,
  onTimeout: (at: number, completion: Completion) => void,
): Promise<ExchangeResult> {
  const timeout: Completion = { ok: false, kind: 'timeouts', message: `no response within ${inFlight.timeoutSeconds} s`, bytes: 0 };
  const pending = inFlight.add(performance.now(), (at) => onTimeout(at, timeout));
  try {
    const response = await client.request({ path, method: 'POST', headers: REQUEST_HEADERS, body: request.body, signal: pending.controller.signal });
    const text = await response.body.text();
    const at = performance.now();
    return { completion: pending.timedOut ? null : validated(response.statusCode, text, request, stream, at - startedAt), at };
  } catch (error) {
    const at = performance.now();
    return { completion: pending.timedOut ? null : { ok: false, kind: 'socketErrors', message: describeError(error), bytes: 0 }, at };
  } finally {
    inFlight.remove(pending);
  }
}

function validated(status: number, text: string, request: PreparedRequest, stream: RequestStream, latencyMs: number): Completion {
  const bytes = Buffer.byteLength(text);
  const verdict = stream.verdict(request.index, status, text);
  return verdict.ok ? { ok: true, latencyMs, orderWarning: verdict.orderWarning, bytes } : { ok: false, kind: verdict.kind, message: verdict.message, bytes };
}

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return [code, message].filter(Boolean).join(': ') || String(error);
}
