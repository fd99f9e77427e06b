/**
 * A comparison by instructions: every epoch starts a fresh pair of processes under callgrind at
 * the same time (counts do not depend on the machine's speed, so the sides need no turns), warms
 * each up with uncounted requests, then counts fixed batches on both: a full GC through the
 * preload, counting on, the batch's requests one at a time, counting off, a dump. After every
 * epoch, analysis's test on the epochs says whether the verdict is in.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PerfMap, instructionProfileOfFile, judgeInstructions, type ComparisonVerdict } from '@gwprof/analysis';
import {
  writeCompareResult,
  type InstructionBatch,
  type InstructionDesign,
  type InstructionEpoch,
  type InstructionProfileSide,
  type InstructionSide,
} from '@gwprof/results';
import type { GatewayUnderTest } from '../gateway-under-test.js';
import type { CallgrindLaunch } from '../gateway-process.js';
import { RequestStream } from '../load/request-stream.js';
import type { ComparisonContext } from '../compare/context.js';
import { SIDES, type Side } from '../compare/gateway-pair.js';
import { startCounting, stopCounting } from './callgrind.js';
import { sendSequential } from './sequential-batch.js';

/** A request under callgrind may take seconds: never sooner than this is it a timeout. */
const MIN_TIMEOUT_MS = 120_000;
/** The profile pair's requests, with callers kept, may take this many times longer. */
const PROFILE_TIMEOUT_FACTOR = 4;

export async function countUntilDecided(ctx: ComparisonContext): Promise<string> {
  const reason = await epochsUntilDecided(ctx);
  const design = ctx.options.design.instructions!;
  if ((design.profileCallers ?? 0) > 0 && !ctx.options.signal.aborted && judge(ctx).verdict !== 'invalid') await profilePair(ctx, design);
  return reason;
}

async function epochsUntilDecided(ctx: ComparisonContext): Promise<string> {
  const design = ctx.options.design.instructions!;
  ctx.compare.batches ??= [];
  ctx.compare.instructionEpochs ??= [];
  for (let epoch = 1; ; epoch++) {
    if (budgetExceeded(ctx))
      return `--budget ${ctx.options.design.budgetMinutes} min would be exceeded by another epoch (after ${epoch - 1} epochs, ${minutes(ctx)} min)`;
    const started = await startPair(ctx, `${epoch}`, design, NO_EXTRAS);
    if (!started) return 'interrupted';
    recordEpoch(ctx, epoch, started);
    const { sides } = started;
    for (let batch = 1; batch <= design.batchesPerEpoch; batch++) {
      const counted = await Promise.all(SIDES.map((side) => countBatch(ctx, sides[side], side, epoch, batch, design)));
      if (counted.some((b) => b === null)) return 'interrupted';
      ctx.compare.batches.push(...(counted as InstructionBatch[]));
      writeCompareResult(ctx.session.runDir, ctx.compare);
    }
    finishEpoch(ctx, epoch);
    const verdict = judge(ctx);
    progressAfterEpoch(ctx, epoch, verdict);
    if (verdict.done)
      return verdict.verdict === 'inconclusive' ? `the last look (${epoch} epochs) came without a verdict` : `${verdict.verdict} after ${epoch} epochs`;
  }
}

export function judge(ctx: ComparisonContext): ComparisonVerdict {
  const { threshold, alpha, minEpochs, spendingPower } = ctx.options.design;
  const maxEpochs = ctx.compare.plan?.maxEpochs ?? minEpochs;
  return judgeInstructions(ctx.compare.batches ?? [], {
    threshold,
    alpha,
    minEpochs,
    maxEpochs,
    spendingPower,
    minEpochSd: ctx.options.design.instructions!.minEpochSd,
  });
}

interface CountedSide {
  gateway: GatewayUnderTest;
  outBase: string;
}

/** What the pair that shows where the instructions went adds to valgrind's and V8's flags. */
interface PairExtras {
  valgrindArgs: string[];
  v8Flags: string[];
}

const NO_EXTRAS: PairExtras = { valgrindArgs: [], v8Flags: [] };

/** V8 names its JIT code in /tmp/perf-<pid>.map; interpreted functions get code of their own to be named by. */
const PROFILE_V8_FLAGS = ['--perf-basic-prof', '--interpreted-frames-native-stack'];
const V8_LOG_PREFIX = 'v8-events-';

function callgrindLaunch(ctx: ComparisonContext, side: Side, label: string, design: InstructionDesign, extras: PairExtras): CallgrindLaunch {
  const dir = path.join(ctx.session.runDir, 'callgrind');
  mkdirSync(dir, { recursive: true });
  return { valgrindArgs: [...design.valgrindArgs, ...extras.valgrindArgs], outFile: path.join(dir, `${side}-e${label}.%p`) };
}

interface StartedPair {
  startedAt: string;
  sides: Record<Side, CountedSide>;
  records: Record<Side, InstructionSide>;
}

/** Both sides started at once under callgrind and warmed up; null when interrupted. */
async function startPair(ctx: ComparisonContext, label: string, design: InstructionDesign, extras: PairExtras): Promise<StartedPair | null> {
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
  const stream = new RequestStream(ctx.scenario);
  const indices = Array.from({ length: design.warmupRequests }, (_, i) => i);
  const warmups = await Promise.all(SIDES.map((side) => sendSequential(gateways[side].step.url, stream, indices, timeoutMs(ctx), ctx.options.signal)));
  if (ctx.options.signal.aborted) return null;
  const sideRecord = (side: Side, i: number): InstructionSide => ({
    pid: gateways[side].process!.serverPid,
    node: gateways[side].profiler?.collectGarbage !== undefined,
    startup: gateways[side].process!.startup,
    warmupSec: Math.round(warmups[i]!.seconds * 10) / 10,
    warmupFailures: warmups[i]!.requests - warmups[i]!.ok,
  });
  const records = { baseline: sideRecord('baseline', 0), candidate: sideRecord('candidate', 1) };
  const failedWarmup = SIDES.find((_, i) => warmups[i]!.ok < warmups[i]!.requests);
  if (failedWarmup) {
    const i = SIDES.indexOf(failedWarmup);
    throw new Error(
      `the ${failedWarmup}'s warm-up had ${warmups[i]!.requests - warmups[i]!.ok} of ${warmups[i]!.requests} responses fail validation: ${warmups[i]!.failureSamples[0]?.message ?? ''}`,
    );
  }
  const sides = Object.fromEntries(
    SIDES.map((side) => [side, { gateway: gateways[side], outBase: launches[side].outFile.replace('%p', String(gateways[side].process!.serverPid)) }]),
  ) as Record<Side, CountedSide>;
  return { startedAt, sides, records };
}

function recordEpoch(ctx: ComparisonContext, epoch: number, started: StartedPair): void {
  const record: InstructionEpoch = { epoch, startedAt: started.startedAt, finishedAt: null, sides: started.records };
  ctx.compare.instructionEpochs!.push(record);
  writeCompareResult(ctx.session.runDir, ctx.compare);
}

/**
 * One more pair, after the verdict: callgrind keeps each count's callers and V8 names its JIT code,
 * so publish can place every instruction in a bucket and a function. One batch a side, reduced at
 * once to a profile of instructions (the raw dump of a large gateway runs to a gigabyte). A failure
 * here is recorded and logged: it never changes the verdict.
 */
async function profilePair(ctx: ComparisonContext, design: InstructionDesign): Promise<void> {
  const callers = design.profileCallers!;
  const startedAt = new Date().toISOString();
  try {
    const extras: PairExtras = { valgrindArgs: [`--separate-callers=${callers}`], v8Flags: [...PROFILE_V8_FLAGS, ...v8LogFlags(ctx)] };
    const started = await startPair(ctx, 'profile', design, extras);
    if (!started) return;
    const requests = design.profileRequests ?? design.batchRequests;
    // Keeping callers makes callgrind several times slower again: a request gets longer before it is a timeout.
    const timeout = PROFILE_TIMEOUT_FACTOR * timeoutMs(ctx);
    const batches = await Promise.all(SIDES.map((side) => countBatch(ctx, started.sides[side], side, 0, 1, design, requests, timeout)));
    if (batches.some((b) => b === null)) return;
    ctx.options.onProgress("reducing the profile pair's dumps…", false);
    const sides = {} as Record<Side, InstructionProfileSide>;
    for (const [i, name] of SIDES.entries()) {
      const pid = started.sides[name].gateway.process!.serverPid;
      const perfMapFile = copyPerfMap(ctx, pid, name);
      const batch = batches[i]!;
      const profileFile = await reduceDump(ctx, batch.dumpFile, perfMapFile, callers, name);
      sides[name] = { pid, node: started.records[name].node, batch, perfMapFile, profileFile };
    }
    ctx.compare.instructionProfile = { startedAt, finishedAt: new Date().toISOString(), separateCallers: callers, v8Flags: PROFILE_V8_FLAGS, sides };
    removeV8Logs(ctx);
  } catch (error) {
    if (ctx.options.signal.aborted) return;
    const message = (error as Error).message;
    ctx.session.logs.harness.warn({ err: error }, 'the profile pair failed: no breakdown of the instructions');
    ctx.options.onProgress(`warning: no breakdown of the instructions: ${message}`, true);
    ctx.compare.instructionProfile = {
      error: message,
      startedAt,
      finishedAt: new Date().toISOString(),
      separateCallers: callers,
      v8Flags: PROFILE_V8_FLAGS,
      sides: null,
    };
  }
  writeCompareResult(ctx.session.runDir, ctx.compare);
}

/**
 * --perf-basic-prof also opens V8's event log, by default isolate-*.log in the working folder: the
 * user's repository. It goes to the run folder instead, and is removed once the profile is reduced.
 */
function v8LogFlags(ctx: ComparisonContext): string[] {
  return ['--no-logfile-per-isolate', `--logfile=${path.join(ctx.session.runDir, 'callgrind', V8_LOG_PREFIX)}%p.log`];
}

function removeV8Logs(ctx: ComparisonContext): void {
  const dir = path.join(ctx.session.runDir, 'callgrind');
  for (const name of readdirSync(dir)) if (name.startsWith(V8_LOG_PREFIX)) rmSync(path.join(dir, name), { force: true });
}

/** The dump as a profile of instructions (frames named through the perf map), written beside it; the dump is removed. */
async function reduceDump(ctx: ComparisonContext, dumpFile: string, perfMapFile: string | null, callers: number, side: Side): Promise<string> {
  const runDir = ctx.session.runDir;
  const perfMap = new PerfMap(perfMapFile ? readFileSync(path.join(runDir, perfMapFile), 'utf8') : '');
  const profile = await instructionProfileOfFile(path.join(runDir, dumpFile), perfMap, callers);
  const target = path.join(runDir, 'callgrind', `${side}-profile.instructions.json`);
  writeFileSync(target, JSON.stringify(profile));
  rmSync(path.join(runDir, dumpFile), { force: true });
  return path.relative(runDir, target);
}

/** V8's perf map of a process, moved into the run folder; null when there is none. */
function copyPerfMap(ctx: ComparisonContext, pid: number, side: Side): string | null {
  const source = path.join(os.tmpdir(), `perf-${pid}.map`);
  if (!existsSync(source)) return null;
  const target = path.join(ctx.session.runDir, 'callgrind', `${side}-profile.perf.map`);
  copyFileSync(source, target);
  rmSync(source, { force: true });
  return path.relative(ctx.session.runDir, target);
}

function timeoutMs(ctx: ComparisonContext): number {
  return Math.max(MIN_TIMEOUT_MS, ctx.options.timeoutSec * 1000);
}

/** One counted batch of one side; null when interrupted. */
async function countBatch(
  ctx: ComparisonContext,
  side: CountedSide,
  name: Side,
  epoch: number,
  batch: number,
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
  await startCounting(pid);
  const sent = await sendSequential(gateway.step.url, new RequestStream(ctx.scenario), indices, timeout, ctx.options.signal);
  const dump = await stopCounting(pid, outBase, `${name}-e${epoch || 'profile'}-b${batch}`);
  if (ctx.options.signal.aborted) return null;
  ctx.options.onProgress(
    `${epoch ? `epoch ${epoch} batch ${batch}` : 'where the instructions went:'} ${name}: ${(dump.total / Math.max(1, sent.ok) / 1e6).toFixed(3)} M instructions/req (${sent.ok}/${sent.requests} ok, ${sent.seconds.toFixed(1)} s)`,
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
  };
}

function finishEpoch(ctx: ComparisonContext, epoch: number): void {
  const record = ctx.compare.instructionEpochs!.find((e) => e.epoch === epoch);
  if (record) record.finishedAt = new Date().toISOString();
  const { minEpochs, budgetMinutes } = ctx.options.design;
  if (ctx.compare.plan === null && epoch >= minEpochs - 1) {
    const pace = paceSeconds(ctx);
    const remaining = budgetMinutes * 60 - (performance.now() - ctx.started) / 1000;
    ctx.compare.plan = {
      maxEpochs: Math.max(minEpochs, epoch + Math.floor(remaining / pace)),
      epochSeconds: Math.round(pace * 10) / 10,
      fixedAfterEpoch: epoch,
    };
  }
  writeCompareResult(ctx.session.runDir, ctx.compare);
}

/** Seconds per epoch so far, the first left out when there are others (it holds the builds). */
function paceSeconds(ctx: ComparisonContext): number {
  const seconds = (ctx.compare.instructionEpochs ?? [])
    .filter((e) => e.finishedAt !== null)
    .map((e) => (Date.parse(e.finishedAt!) - Date.parse(e.startedAt)) / 1000);
  const usable = seconds.length > 1 ? seconds.slice(1) : seconds;
  return usable.length > 0 ? usable.reduce((a, b) => a + b, 0) / usable.length : Infinity;
}

function budgetExceeded(ctx: ComparisonContext): boolean {
  const pace = paceSeconds(ctx);
  return Number.isFinite(pace) && (performance.now() - ctx.started) / 1000 + pace > ctx.options.design.budgetMinutes * 60;
}

function minutes(ctx: ComparisonContext): string {
  return ((performance.now() - ctx.started) / 60_000).toFixed(1);
}

function progressAfterEpoch(ctx: ComparisonContext, epoch: number, verdict: ComparisonVerdict): void {
  const pct = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(2)}%`;
  const d = [...verdict.decisions.values()][0]!;
  const interval = d.interval ? ` [${pct(d.interval.low)}, ${pct(d.interval.high)}]` : '';
  const plan = ctx.compare.plan ? ` of at most ${ctx.compare.plan.maxEpochs}` : '';
  ctx.options.onProgress(`after epoch ${epoch}${plan} · ${minutes(ctx)} min · instructions/req ${pct(d.relativeChange)}${interval}: ${d.outcome}`, true);
}
