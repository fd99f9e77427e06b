/**
 * A pair of processes under callgrind, started at the same time (counts do not depend on the
 * machine's speed, so the sides need no turns) and warmed up with uncounted requests, and one
 * counted batch of a side: a full GC through the preload, counting on, the batch's requests one at
 * a time, counting off, a dump whose total is the batch's count.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { InstructionBatch, InstructionDesign, InstructionSide } from '@gwprof/results';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import type { CallgrindLaunch } from '../services/gateway-process.js';
import type { CompareOptions, ComparisonContext } from '../epochs/context.js';
import type { Scenario } from '../scenario/scenario.js';
import { SIDES, type Side } from '../epochs/gateway-pair.js';
import { allocationCallsOfFile } from '@gwprof/analysis';
import { startCounting, stopCounting } from './callgrind.js';
import { sendSequential, type ExtraHeaders, type SequentialResult } from './sequential-batch.js';

/** A request under callgrind may take seconds: never sooner than this is it a timeout. */
const MIN_TIMEOUT_MS = 120_000;

/** What counting a batch needs of a run: its requests, its folder and its options (a comparison's, or a bisection's). */
export interface CountingContext {
  scenarios: Record<Side, Scenario>;
  session: { runDir: string };
  options: Pick<CompareOptions, 'timeoutSec' | 'signal' | 'onProgress'>;
  /** Headers a side's requests carry beside the engine's (a traceparent: bench/src/split-cost); absent: none. */
  extraHeaders?: Partial<Record<Side, ExtraHeaders>>;
}

export interface CountedSide {
  gateway: GatewayUnderTest;
  outBase: string;
}

/** What a pair adds to valgrind's and V8's flags (the pair that shows where the instructions went). */
export interface PairExtras {
  valgrindArgs: string[];
  v8Flags: string[];
}

export const NO_EXTRAS: PairExtras = { valgrindArgs: [], v8Flags: [] };

export interface StartedPair {
  startedAt: string;
  sides: Record<Side, CountedSide>;
  records: Record<Side, InstructionSide>;
}

/** Both sides started at once under callgrind and warmed up; null when interrupted. */
export async function startPair(ctx: ComparisonContext, label: string, design: InstructionDesign, extras: PairExtras): Promise<StartedPair | null> {
  const startedAt = new Date().toISOString();
  ctx.options.onProgress(`epoch ${label}: starting both gateways under callgrind…`, false);
  await ctx.pair.restart();
  const launches = Object.fromEntries(SIDES.map((side) => [side, callgrindLaunch(ctx, side, label, design, extras)])) as Record<Side, CallgrindLaunch>;
  const started = await Promise.allSettled(SIDES.map((side) => ctx.pair.startSide(side, label, [...design.v8Flags, ...extras.v8Flags], launches[side])));
  for (const launch of started) if (launch.status === 'rejected') throw launch.reason;
  const gateways = Object.fromEntries(SIDES.map((side, i) => [side, (started[i] as PromiseFulfilledResult<GatewayUnderTest>).value])) as Record<
    Side,
    GatewayUnderTest
  >;
  ctx.options.onProgress(`epoch ${label}: warming both up with ${design.warmupRequests} uncounted requests…`, false);
  const indices = Array.from({ length: design.warmupRequests }, (_, i) => i);
  const warmups = await Promise.all(
    SIDES.map((side) => sendSequential(gateways[side].step.url, ctx.scenarios[side], indices, timeoutMs(ctx), ctx.options.signal)),
  );
  if (ctx.options.signal.aborted) return null;
  throwOnFailedWarmup(warmups);
  const records = Object.fromEntries(SIDES.map((side, i) => [side, sideRecord(gateways[side], warmups[i]!)])) as Record<Side, InstructionSide>;
  const sides = Object.fromEntries(
    SIDES.map((side) => [side, { gateway: gateways[side], outBase: launches[side].outFile.replace('%p', String(gateways[side].process!.serverPid)) }]),
  ) as Record<Side, CountedSide>;
  return { startedAt, sides, records };
}

export function callgrindLaunch(ctx: CountingContext, side: Side, label: string, design: InstructionDesign, extras: PairExtras): CallgrindLaunch {
  const dir = path.join(ctx.session.runDir, 'callgrind');
  mkdirSync(dir, { recursive: true });
  return { valgrindArgs: [...design.valgrindArgs, ...extras.valgrindArgs], outFile: path.join(dir, `${side}-e${label}.%p`) };
}

export function sideRecord(gateway: GatewayUnderTest, warmup: SequentialResult): InstructionSide {
  return {
    pid: gateway.process!.serverPid,
    node: gateway.profiler?.collectGarbage !== undefined,
    startup: gateway.process!.startup,
    warmupSec: Math.round(warmup.seconds * 10) / 10,
    warmupFailures: warmup.requests - warmup.ok,
  };
}

/** A warm-up answered wrongly: the gateway is broken before anything is counted. */
function throwOnFailedWarmup(warmups: readonly SequentialResult[]): void {
  const i = warmups.findIndex((w) => w.ok < w.requests);
  if (i < 0) return;
  const w = warmups[i]!;
  throw new Error(`the ${SIDES[i]}'s warm-up had ${w.requests - w.ok} of ${w.requests} responses fail validation: ${w.failureSamples[0]?.message ?? ''}`);
}

export function timeoutMs(ctx: CountingContext): number {
  return Math.max(MIN_TIMEOUT_MS, ctx.options.timeoutSec * 1000);
}

/** Where a batch stands in the comparison: its epoch (0 for the profile pair) and its number there. */
export interface BatchPlace {
  epoch: number;
  batch: number;
  /** What the progress line calls the batch instead of its epoch, batch and side (a bisection's point). */
  label?: string;
}

/** One counted batch of one side; null when interrupted. */
export async function countBatch(
  ctx: CountingContext,
  side: CountedSide,
  name: Side,
  { epoch, batch, label }: BatchPlace,
  design: InstructionDesign,
  requests = design.batchRequests,
  timeout = timeoutMs(ctx),
): Promise<InstructionBatch | null> {
  const { gateway, outBase } = side;
  const pid = gateway.process!.serverPid;
  const startedAt = new Date().toISOString();
  let forcedGcMs: number | null = null;
  if (gateway.profiler?.collectGarbage) {
    const t0 = performance.now();
    await gateway.profiler.collectGarbage();
    forcedGcMs = Math.round((performance.now() - t0) * 10) / 10;
  }
  const indices = Array.from({ length: requests }, (_, i) => i);
  // Read outside the counted span, so the preload's own work is not in the instructions.
  const allocatedBefore = (await gateway.profiler?.allocatedBytes?.()) ?? null;
  await startCounting(pid);
  const sent = await sendSequential(gateway.step.url, ctx.scenarios[name], indices, timeout, ctx.options.signal, ctx.extraHeaders?.[name]);
  const dump = await stopCounting(pid, outBase, `${name}-e${epoch || 'profile'}-b${batch}`);
  if (ctx.options.signal.aborted) return null;
  const allocatedBytes = allocatedBefore === null ? null : (await gateway.profiler!.allocatedBytes!()) - allocatedBefore;
  // A Node gateway's heap is V8's: its allocator calls are not its allocations.
  const allocations = gateway.profiler?.collectGarbage ? null : await allocationCallsOfFile(dump.file);
  ctx.options.onProgress(
    `${label ?? `${epoch ? `epoch ${epoch} batch ${batch}` : 'where the instructions went:'} ${name}`}: ${(dump.total / Math.max(1, sent.ok) / 1e6).toFixed(3)} M instructions/req (${sent.ok}/${sent.requests} ok, ${sent.seconds.toFixed(1)} s)`,
    true,
  );
  return {
    epoch,
    side: name,
    batch,
    startedAt,
    requests: sent.requests,
    ok: sent.ok,
    failureCounts: sent.failureCounts,
    failureSamples: sent.failureSamples,
    instructions: dump.total,
    instructionsPerOkRequest: sent.ok > 0 ? dump.total / sent.ok : null,
    seconds: Math.round(sent.seconds * 100) / 100,
    forcedGcMs,
    dumpFile: path.relative(ctx.session.runDir, dump.file),
    allocationCalls: allocations?.calls ?? null,
    ...(allocations ? { allocationCallers: allocations.byCaller } : {}),
    allocatedBytes,
  };
}
