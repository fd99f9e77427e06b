/**
 * What a gateway does more when its requests carry a traceparent: its instructions per validated
 * request under callgrind, counted exactly as `gwprof compare --measure instructions` counts them
 * (collect's pair, launch, warm-up and batch), a plain process (baseline) beside one started as
 * `sweep --trace` starts it (GWPROF_TRACE_CONTEXT=1) whose every request carries a traceparent of
 * its own (candidate). compare cannot put a header on one side's requests, so this drives the
 * epochs itself: a fresh pair each epoch, both started and warmed at once, then its batches.
 */
import {
  CALLGRIND_ARGS,
  DEFAULTS,
  GatewayPair,
  NO_EXTRAS,
  RequestTraces,
  SIDES,
  TRACE_CONTEXT_ENV,
  callgrindLaunch,
  countBatch,
  currentNode,
  gatewayFromSpec,
  loadScenario,
  openSession,
  sendSequential,
  type CountingContext,
  type ExtraHeaders,
  type GatewayUnderTest,
  type RunningSubgraphs,
  type Side,
} from '@gwprof/collect';
import type { InstructionDesign } from '@gwprof/results';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const COUNTING = DEFAULTS.compare.instructions;
const PORTS: Record<Side, number> = { baseline: 4000, candidate: DEFAULTS.compare.candidatePort };

export interface CountPlan {
  gateway: string;
  epochs: number;
  batches: number;
  /** Both sides plain: what the count's noise alone gives. */
  aa: boolean;
  log: (line: string) => void;
}

/** One epoch's batches: instructions per ok request of each batch, by side, and their means. */
export interface CountedEpoch {
  epoch: number;
  baseline: number[];
  candidate: number[];
  baselinePerRequest: number;
  candidatePerRequest: number;
  /** Responses that failed validation in the epoch's counted batches (any: the epoch is not kept). */
  failed: number;
  /**
   * Subgraph calls that carried one of the candidate's trace ids, per request sent to it (warm-up and
   * batches): whether, and how often, the gateway forwarded the header. null: the subgraphs keep no log.
   */
  forwardedPerRequest: number | null;
}

/** Trace ids for one side's requests, and the header that carries each. */
interface Traceparents {
  prefix: string;
  headers: ExtraHeaders;
}

/**
 * A traceparent per request, as the engine's: a random prefix and a counter. Sampled (flags 01), so
 * the subgraphs log the calls that carry it: what the gateway forwarded is read back, not assumed.
 */
export function traceparents(): Traceparents {
  const ids = new RequestTraces({ perSecond: 0, perWindow: 0 });
  let next = 0;
  return {
    prefix: ids.prefix,
    headers: () => {
      const id = ids.traceId(++next);
      return { traceparent: `00-${id}-${id.slice(16)}-01` };
    },
  };
}

export async function countedEpochs(plan: CountPlan, onEpoch: (epoch: CountedEpoch) => void): Promise<void> {
  // The dumps (tens of MB each) are read as they are made: the folder goes at the end.
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'gwprof-split-cost-'));
  const session = openSession({
    outDir,
    label: 'split-cost',
    maxConcurrency: 1,
    gatewayPackages: {},
    profiler: 'inspector',
    commandLine: process.argv.slice(2),
    subgraphPorts: DEFAULTS.subgraphPorts,
    candidateSubgraphPorts: portsPlus(DEFAULTS.subgraphPorts, DEFAULTS.compare.candidateSubgraphPortOffset),
    subgraphDelayMs: 0,
    gatewayPort: PORTS.baseline,
    onProgress: (line) => plan.log(line),
  });
  const design: InstructionDesign = { ...COUNTING, batchesPerEpoch: plan.batches, v8Flags: [...COUNTING.v8Flags], valgrindArgs: [...CALLGRIND_ARGS] };
  const scenario = loadScenario(DEFAULTS.compare.scenario);
  const traced = plan.aa ? null : traceparents();
  const ctx: CountingContext = {
    scenarios: { baseline: scenario, candidate: scenario },
    session: { runDir: session.runDir },
    options: { timeoutSec: 60, signal: new AbortController().signal, onProgress: (line) => plan.log(line) },
    extraHeaders: traced ? { candidate: traced.headers } : {},
  };
  const adapter = gatewayFromSpec(plan.gateway);
  const node = currentNode();
  try {
    const bed = await session.startBed();
    const candidateEnv: Record<string, string> = plan.aa ? {} : { [TRACE_CONTEXT_ENV]: '1' };
    const pair = new GatewayPair(
      bed,
      { baseline: { adapter, env: {}, port: PORTS.baseline, node }, candidate: { adapter, env: candidateEnv, port: PORTS.candidate, node } },
      { memoryLimitMB: null, cpuQuotaCores: null },
    );
    try {
      const forwarded = callsCarrying(bed.candidateSubgraphs?.takeCalls, traced?.prefix ?? null);
      for (let epoch = 1; epoch <= plan.epochs; epoch++) {
        await forwarded();
        const counted = await countEpoch(ctx, pair, design, epoch);
        const calls = await forwarded();
        const sent = design.warmupRequests + design.batchesPerEpoch * design.batchRequests;
        onEpoch({ ...counted, forwardedPerRequest: calls === null ? null : calls / sent });
      }
    } finally {
      await pair.stop();
      pair.release();
    }
  } finally {
    await session.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Reads (and empties) the subgraphs' call logs: how many calls carried a trace id beginning with `prefix`; null without logs. */
function callsCarrying(take: RunningSubgraphs['takeCalls'], prefix: string | null): () => Promise<number | null> {
  return async () => {
    if (!take) return null;
    const pages = Object.values(await take());
    if (pages.some((page) => page === null)) return null;
    return prefix === null ? 0 : pages.reduce((sum, page) => sum + page!.calls.filter((call) => call.traceId.startsWith(prefix)).length, 0);
  };
}

async function countEpoch(
  ctx: CountingContext,
  pair: GatewayPair,
  design: InstructionDesign,
  epoch: number,
): Promise<Omit<CountedEpoch, 'forwardedPerRequest'>> {
  await pair.restart();
  const label = String(epoch);
  const launches = SIDES.map((side) => callgrindLaunch(ctx, side, label, design, NO_EXTRAS));
  const gateways = await Promise.all(SIDES.map((side, i) => pair.startSide(side, label, design.v8Flags, launches[i])));
  await Promise.all(SIDES.map((side, i) => warmUp(ctx, gateways[i]!, side, design)));
  const perRequest: Record<Side, number[]> = { baseline: [], candidate: [] };
  let failed = 0;
  for (let batch = 1; batch <= design.batchesPerEpoch; batch++) {
    const counted = await Promise.all(
      SIDES.map((side, i) =>
        countBatch(
          ctx,
          { gateway: gateways[i]!, outBase: launches[i]!.outFile.replace('%p', String(gateways[i]!.process!.serverPid)) },
          side,
          { epoch, batch },
          design,
        ),
      ),
    );
    counted.forEach((b, i) => {
      if (!b || b.instructionsPerOkRequest === null) throw new Error(`epoch ${epoch} batch ${batch}: the ${SIDES[i]} counted nothing`);
      failed += b.requests - b.ok;
      perRequest[SIDES[i]!].push(b.instructionsPerOkRequest);
    });
  }
  if (failed > 0) throw new Error(`epoch ${epoch}: ${failed} responses failed validation`);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { epoch, ...perRequest, baselinePerRequest: mean(perRequest.baseline), candidatePerRequest: mean(perRequest.candidate), failed };
}

/** Uncounted requests, one at a time, as a comparison's epoch begins (the candidate's with their traceparent). */
async function warmUp(ctx: CountingContext, gateway: GatewayUnderTest, side: Side, design: InstructionDesign): Promise<void> {
  const indices = Array.from({ length: design.warmupRequests }, (_, i) => i);
  const warm = await sendSequential(gateway.step.url, ctx.scenarios[side], indices, 120_000, ctx.options.signal, ctx.extraHeaders?.[side]);
  if (warm.ok < warm.requests) throw new Error(`the ${side}'s warm-up had ${warm.requests - warm.ok} failures: ${warm.failureSamples[0]?.message ?? ''}`);
}

function portsPlus<K extends string>(ports: Record<K, number>, offset: number): Record<K, number> {
  return Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, (port as number) + offset])) as Record<K, number>;
}
