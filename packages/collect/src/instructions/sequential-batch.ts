/**
 * Requests sent one at a time on one connection, each validated as in every step: the requests a
 * counted batch (or an uncounted warm-up) is made of. One at a time, so a batch's work does not
 * depend on how requests overlap, and the same requests give the same work on both sides.
 */
import { Client } from 'undici';
import type { FailureCounts, FailureSample } from '@gwprof/results';
import { REQUEST_HEADERS } from '../load/exchange.js';
import { FailureSamples, emptyFailureCounts } from '../load/failure-log.js';
import { RequestStream } from '../load/request-stream.js';
import type { Scenario } from '../scenario/scenario.js';

export interface SequentialResult {
  requests: number;
  ok: number;
  failureCounts: FailureCounts;
  failureSamples: FailureSample[];
  seconds: number;
}

/** Headers a request carries beside REQUEST_HEADERS, by its place in the batch (0, 1, …). */
export type ExtraHeaders = (sent: number) => Record<string, string>;

/** Sends the scenario's requests at `indices` (cycled) in order; a request unanswered after timeoutMs is a timeout. */
export async function sendSequential(
  url: string,
  scenario: Scenario,
  indices: readonly number[],
  timeoutMs: number,
  signal: AbortSignal,
  extraHeaders?: ExtraHeaders,
): Promise<SequentialResult> {
  const target = new URL(url);
  const stream = new RequestStream(scenario);
  const client = new Client(target.origin, { pipelining: 1, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const failures = emptyFailureCounts();
  const samples = new FailureSamples();
  let ok = 0;
  let requests = 0;
  const t0 = performance.now();
  try {
    for (const index of indices) {
      if (signal.aborted) break;
      requests++;
      const prepared = stream.request(index);
      try {
        const response = await client.request({
          path: target.pathname,
          method: 'POST',
          headers: extraHeaders ? { ...REQUEST_HEADERS, ...extraHeaders(requests - 1) } : REQUEST_HEADERS,
          body: prepared.body,
          signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
        });
        const text = await response.body.text();
        const verdict = stream.verdict(prepared.index, response.statusCode, text);
        if (verdict.ok) ok++;
        else {
          failures[verdict.kind]++;
          samples.add(verdict.kind, verdict.message);
        }
      } catch (error) {
        const kind = (error as Error).name === 'TimeoutError' || /timeout/i.test((error as Error).message) ? 'timeouts' : 'socketErrors';
        failures[kind]++;
        samples.add(kind, (error as Error).message);
      }
    }
  } finally {
    await client.close().catch(() => undefined);
  }
  return { requests, ok, failureCounts: failures, failureSamples: samples.list(), seconds: (performance.now() - t0) / 1000 };
}
