/**
 * Closed-loop load with autocannon: N connections, each sending the next request as soon as
 * the previous response arrives. Every response is validated (validate-response.ts);
 * throughput and latency count successful responses only, so a gateway that answers fast
 * with errors can never look good.
 */
import autocannon from 'autocannon';
import * as hdr from 'hdr-histogram-js';
import type { FailureCounts, FailureSample, LatencyMs, RequestCounts } from '@gwprof/results';
import type { Scenario } from './fixtures.js';
import { validateResponse, type FailureKind } from './validate-response.js';

export interface LoadOptions {
  url: string;
  scenario: Scenario;
  connections: number;
  durationSec: number;
  timeoutSec: number;
  /** Called about once a second while the load runs. */
  onProgress?: (progress: { elapsedSec: number; ok: number; failed: number }) => void;
}

export interface LoadOutcome {
  requests: RequestCounts;
  failures: FailureCounts;
  failureSamples: FailureSample[];
  orderWarnings: number;
  latencyMs: LatencyMs | null;
  durationSec: number;
  bytesPerResponse: number;
}

export interface LoadRun {
  done: Promise<LoadOutcome>;
  stop(): void;
}

const SAMPLES_PER_KIND = 5;

/** autocannon's per-connection context: which variables entry the request in flight used. */
interface RequestContext {
  bodyIndex?: number;
}

type AutocannonInstance = import('node:events').EventEmitter & { stop(): void };

function emptyFailures(): FailureCounts {
  return { non2xx: 0, badBody: 0, graphqlErrors: 0, mismatch: 0, timeouts: 0, socketErrors: 0 };
}

/** Keeps a few distinct messages per failure kind, with how often each was seen. */
class FailureLog {
  readonly counts = emptyFailures();
  private readonly samples = new Map<FailureKind, Map<string, number>>();

  add(kind: FailureKind, message: string): void {
    this.counts[kind]++;
    let messages = this.samples.get(kind);
    if (!messages) this.samples.set(kind, (messages = new Map()));
    if (messages.has(message)) messages.set(message, messages.get(message)! + 1);
    else if (messages.size < SAMPLES_PER_KIND) messages.set(message, 1);
  }

  list(): FailureSample[] {
    return [...this.samples].flatMap(([kind, messages]) => [...messages].map(([message, count]) => ({ kind, message, count })));
  }
}

function requestBodies(scenario: Scenario): string[] {
  const sets = scenario.variableSets ?? [{}];
  return sets.map((variables) => JSON.stringify({ query: scenario.query, operationName: scenario.operationName, variables }));
}

export function summarizeLatency(histogram: hdr.Histogram): LatencyMs | null {
  if (histogram.totalCount === 0) return null;
  const ms = (us: number): number => Math.round(us) / 1000;
  return {
    mean: Math.round(histogram.mean) / 1000,
    p50: ms(histogram.getValueAtPercentile(50)),
    p75: ms(histogram.getValueAtPercentile(75)),
    p90: ms(histogram.getValueAtPercentile(90)),
    p95: ms(histogram.getValueAtPercentile(95)),
    p99: ms(histogram.getValueAtPercentile(99)),
    max: ms(histogram.maxValue),
  };
}

export function runLoad(options: LoadOptions): LoadRun {
  const { scenario } = options;
  const bodies = requestBodies(scenario);
  const expected = scenario.expected;
  const failures = new FailureLog();
  const latencies = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
  let ok = 0;
  let orderWarnings = 0;
  let bytes = 0;
  let responses = 0;
  let next = 0;
  // onResponse runs synchronously right before autocannon's 'response' event for the same
  // response, so the verdict can be handed over in a variable.
  let lastVerdictOk = false;

  const request: autocannon.Request = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: bodies[0],
    onResponse: (status: number, body: string, context: object) => {
      const index = ((context as RequestContext).bodyIndex as number | undefined) ?? 0;
      const verdict = validateResponse(status, body, {
        order: scenario.order,
        expected: expected ? (expected.length === 1 ? expected[0] : expected[index]) : null,
      });
      lastVerdictOk = verdict.ok;
      if (verdict.ok) {
        ok++;
        if (verdict.orderWarning) orderWarnings++;
      } else {
        failures.add(verdict.kind, verdict.message);
      }
    },
  };
  if (bodies.length > 1) {
    // Vary the variables per request, round-robin over all connections.
    request.setupRequest = (req: autocannon.Request, context: object) => {
      const index = next++ % bodies.length;
      (context as RequestContext).bodyIndex = index;
      return { ...req, body: bodies[index] };
    };
  }

  const started = performance.now();
  let finish: (error: Error | null) => void = () => undefined;
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSec,
    timeout: options.timeoutSec,
    pipelining: 1,
    requests: [request],
    // Our own histogram keeps only successful responses; autocannon's aggregate is unused.
    skipAggregateResult: true,
  } as autocannon.Options, (error: Error | null) => finish(error)) as unknown as AutocannonInstance;

  instance.on('response', (_client: unknown, _status: number, resBytes: number, responseTimeMs: number) => {
    responses++;
    bytes += resBytes;
    if (lastVerdictOk) latencies.recordValue(Math.max(1, Math.round(responseTimeMs * 1000)));
  });
  instance.on('reqError', (error: Error) => {
    if (/timed out/i.test(error.message)) failures.add('timeouts', `no response within ${options.timeoutSec} s`);
    else failures.add('socketErrors', error.message || String(error));
  });

  const progressTimer = options.onProgress
    ? setInterval(() => {
        options.onProgress!({ elapsedSec: (performance.now() - started) / 1000, ok, failed: sumFailures(failures.counts) });
      }, 1000)
    : undefined;

  const done = new Promise<LoadOutcome>((resolve, reject) => {
    finish = (error) => {
      if (progressTimer) clearInterval(progressTimer);
      if (error) {
        reject(error);
        return;
      }
      const durationSec = (performance.now() - started) / 1000;
      const failed = sumFailures(failures.counts);
      const outcome: LoadOutcome = {
        requests: { total: ok + failed, ok, failed },
        failures: { ...failures.counts },
        failureSamples: failures.list(),
        orderWarnings,
        latencyMs: summarizeLatency(latencies),
        durationSec,
        bytesPerResponse: responses > 0 ? Math.round(bytes / responses) : 0,
      };
      latencies.destroy();
      resolve(outcome);
    };
  });

  return {
    done,
    stop: () => instance.stop(),
  };
}

function sumFailures(counts: FailureCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
