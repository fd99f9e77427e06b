/**
 * One round of a bisection: up to two points counted at once, one on each of the comparison's two
 * sides (their own ports and subgraph addresses), each in a fresh process under callgrind, warmed
 * up with uncounted requests and then counted in one batch, exactly as a comparison's epoch counts
 * its sides. A point that does not start, or answers a request wrongly, is skipped, never counted;
 * the other point of the round goes on.
 */
import type { BisectMeasure, BisectPoint, BisectSkip, InstructionDesign } from '@gwprof/results';
import { GatewayPair, SIDES, type Side } from '../epochs/gateway-pair.js';
import type { NodeBinary } from '../processes/node-binaries.js';
import type { TestBed } from '../services/test-bed.js';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import { oneLineReason } from '../services/gateway-process.js';
import type { GatewayAdapter } from '../gateways/index.js';
import { NO_EXTRAS, callgrindLaunch, countBatch, timeoutMs, type CountingContext } from '../instructions/counted-pair.js';
import { sendSequential } from '../instructions/sequential-batch.js';

export interface RoundContext extends CountingContext {
  bed: TestBed;
  design: InstructionDesign;
  /** A memory bisection skips a point whose batch counted no allocations: it has no value to place. */
  measure: BisectMeasure;
  node: NodeBinary;
  ports: Record<Side, number>;
  limits: { memoryLimitMB: number | null; cpuQuotaCores: number | null };
}

/** A point with the adapter that starts it. */
export interface RoundPoint {
  point: BisectPoint;
  adapter: GatewayAdapter;
}

/** Counts each point once (in place: a count or a skip); false when interrupted. `note` ends the progress line. */
export async function countRound(ctx: RoundContext, round: number, points: readonly RoundPoint[], note = ''): Promise<boolean> {
  const sides = SIDES.slice(0, points.length);
  const spec = (i: number) => ({ adapter: points[Math.min(i, points.length - 1)]!.adapter, env: {}, port: ctx.ports[SIDES[i]!], node: ctx.node });
  const pair = new GatewayPair(ctx.bed, { baseline: spec(0), candidate: spec(1) }, ctx.limits);
  try {
    ctx.options.onProgress(`round ${round}: counting ${points.map((p) => p.point.label).join(' and ')} under callgrind${note}…`, false);
    await Promise.all(sides.map((side, i) => countPoint(ctx, pair, side, round, points[i]!.point)));
    return !ctx.options.signal.aborted;
  } finally {
    await pair.stop();
    pair.release();
  }
}

async function countPoint(ctx: RoundContext, pair: GatewayPair, side: Side, round: number, point: BisectPoint): Promise<void> {
  const label = `r${round}-p${point.index}`;
  const launch = callgrindLaunch(ctx, side, label, ctx.design, NO_EXTRAS);
  let gateway: GatewayUnderTest;
  try {
    gateway = await pair.startSide(side, label, ctx.design.v8Flags, launch);
  } catch (error) {
    if (!ctx.options.signal.aborted) skip(ctx, point, { stage: 'start', reason: oneLineReason(error as Error) });
    return;
  }
  const indices = Array.from({ length: ctx.design.warmupRequests }, (_, i) => i);
  const warmup = await sendSequential(gateway.step.url, ctx.scenarios[side], indices, timeoutMs(ctx), ctx.options.signal);
  if (ctx.options.signal.aborted) return;
  if (warmup.ok < warmup.requests) return skip(ctx, point, failedRequests('warm-up', warmup.requests - warmup.ok, warmup.requests, warmup.failureSamples));
  const outBase = launch.outFile.replace('%p', String(gateway.process!.serverPid));
  const batch = await countBatch(ctx, { gateway, outBase }, side, { epoch: round, batch: 1, label: point.label }, ctx.design);
  if (!batch) return;
  if (batch.ok < batch.requests || batch.instructionsPerOkRequest === null)
    return skip(ctx, point, failedRequests('counted batch', batch.requests - batch.ok, batch.requests, batch.failureSamples));
  if (ctx.measure === 'memory' && !batch.allocationCalls && !batch.allocatedBytes)
    return skip(ctx, point, {
      stage: 'count',
      reason: "no allocations counted: no call into a known allocator's entry points (a binary without their symbols?) and no V8 heap reading",
    });
  point.counts.push({
    startedAt: batch.startedAt,
    pid: gateway.process!.serverPid,
    requests: batch.requests,
    ok: batch.ok,
    instructions: batch.instructions,
    instructionsPerOkRequest: batch.instructionsPerOkRequest,
    allocationCalls: batch.allocationCalls ?? null,
    allocatedBytes: batch.allocatedBytes ?? null,
    warmupSec: Math.round(warmup.seconds * 10) / 10,
  });
}

function failedRequests(what: string, failed: number, requests: number, samples: readonly { message: string }[]): BisectSkip {
  return { stage: 'validate', reason: `${failed} of ${requests} ${what} responses failed validation: ${samples[0]?.message ?? ''}`.slice(0, 300) };
}

/** A point that will not be counted: why, in the record and on the progress line. */
export function skip(ctx: RoundContext, point: BisectPoint, why: BisectSkip): void {
  point.skipped = why;
  ctx.options.onProgress(`skipped ${point.label} (${why.stage}): ${why.reason}`, true);
}
