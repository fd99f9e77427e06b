/**
 * One request and its response on a connection of ours (undici), validated and timed. Requests
 * in flight are tracked so that one that has not been answered within the timeout is aborted and
 * counted as a timeout, and so that stopping the load can abandon them all.
 */
import { Client } from 'undici';
import { validateResponse } from '../validate-response.js';
import type { Completion } from './recorder.js';
import type { PreparedRequest, RequestStream } from './request-stream.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** A keep-alive connection that sends one request at a time. Timeouts are ours, not undici's. */
export function openConnection(origin: string): Client {
  return new Client(origin, { pipelining: 1, headersTimeout: 0, bodyTimeout: 0, connect: { timeout: 10_000 } });
}

interface Pending {
  deadline: number;
  controller: AbortController;
  timedOut: boolean;
}

/** The requests in flight, checked ten times a second against their deadline. */
export class InFlight {
  private readonly pending = new Set<Pending>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly timeoutMs: number) {
    this.timer = setInterval(() => this.expire(performance.now()), 100);
  }

  get timeoutSeconds(): number {
    return this.timeoutMs / 1000;
  }

  add(now: number): Pending {
    const entry = { deadline: now + this.timeoutMs, controller: new AbortController(), timedOut: false };
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
      if (entry.deadline > now) continue;
      entry.timedOut = true;
      entry.controller.abort();
      this.pending.delete(entry);
    }
  }
}

export interface ExchangeResult {
  completion: Completion;
  /** performance.now() when the response (or the failure) was complete. */
  at: number;
}

/**
 * Sends a request and reads its whole response. Latency runs from `startedAt` (when the request
 * was handed to the connection, or for open-loop load, when it was meant to be sent) to the last
 * byte of the body.
 */
export async function exchange(client: Client, path: string, request: PreparedRequest, stream: RequestStream, inFlight: InFlight, startedAt: number): Promise<ExchangeResult> {
  const pending = inFlight.add(performance.now());
  try {
    const response = await client.request({ path, method: 'POST', headers: HEADERS, body: request.body, signal: pending.controller.signal });
    const text = await response.body.text();
    const at = performance.now();
    return { completion: validated(response.statusCode, text, request, stream, at - startedAt), at };
  } catch (error) {
    const at = performance.now();
    if (pending.timedOut) return { completion: { ok: false, kind: 'timeouts', message: `no response within ${inFlight.timeoutSeconds} s`, bytes: 0 }, at };
    return { completion: { ok: false, kind: 'socketErrors', message: describeError(error), bytes: 0 }, at };
  } finally {
    inFlight.remove(pending);
  }
}

function validated(status: number, text: string, request: PreparedRequest, stream: RequestStream, latencyMs: number): Completion {
  const bytes = Buffer.byteLength(text);
  const verdict = validateResponse(status, text, { order: stream.order, expected: stream.expectedFor(request.index) });
  return verdict.ok ? { ok: true, latencyMs, orderWarning: verdict.orderWarning, bytes } : { ok: false, kind: verdict.kind, message: verdict.message, bytes };
}

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return [code, message].filter(Boolean).join(': ') || String(error);
}
