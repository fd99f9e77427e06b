/**
 * One step's profiles through the publish pass: read and parsed once, analysed (buckets as shares
 * and as ms per successful request, top functions, the gc bucket against Node's own account; bytes
 * allocated per successful request by bucket and function, beside Node's GC), and each drawn as a
 * flame graph page next to it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AllocationAttribution, AllocationSummary, BucketFunctionCost, GcCheck, StepAnalysis, StepRecord } from '@gwprof/results';
import {
  analyzeAllocations,
  analyzeProfile,
  placeByAttribution,
  bucketCosts,
  compareGcWithNode,
  parseCpuProfile,
  parseHeapProfile,
  type BucketRule,
  type CpuProfile,
  type HeapProfile,
  type ProfileAnalysis,
} from '@gwprof/analysis';
import { renderFlameGraphHtml } from '@gwprof/render';

/** A step's profile, read and parsed once; or why it could not be. */
export async function readStepProfile(runDir: string, step: StepRecord): Promise<{ profile: CpuProfile } | { error: string } | null> {
  if (!step.profile) return null;
  let text: string;
  try {
    text = await readFile(path.join(runDir, step.profile.cpuprofile), 'utf8');
  } catch (error) {
    return { error: `cannot read ${step.profile.cpuprofile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  try {
    return { profile: parseCpuProfile(text, step.profile.cpuprofile) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The analysis of a step's profile and its flame graph page; null when the step has none. */
export async function publishStepProfile(runDir: string, step: StepRecord, title: string, rules: readonly BucketRule[]): Promise<StepAnalysis | null> {
  const read = await readStepProfile(runDir, step);
  if (!read) return null;
  if ('error' in read) return failed(step, read.error);
  const flamegraph = `${step.profile!.cpuprofile.replace(/\.cpuprofile$/, '')}.flame.html`;
  const html = renderFlameGraphHtml(read.profile, { title, fileName: path.basename(step.profile!.cpuprofile) });
  await writeFile(path.join(runDir, flamegraph), html, 'utf8');
  const analysis = deriveStepAnalysis(step, analyzeProfile(read.profile, { rules }), flamegraph);
  const heap = await readHeapProfile(runDir, step);
  if (heap && 'error' in heap) analysis.warnings.push(`no allocation analysis: ${heap.error}`);
  if (heap && 'profile' in heap) analysis.allocation = await publishAllocations(runDir, step, heap.profile, `${title} · allocations`, rules, analysis.warnings);
  return analysis;
}

/** A step's allocation profile (or its inlining-off one), read and parsed; or why it could not be; null when it has none. */
export async function readHeapProfile(
  runDir: string,
  step: StepRecord,
  which: 'window' | 'attribution' = 'window',
): Promise<{ profile: HeapProfile } | { error: string } | null> {
  const heap = step.profile?.heap;
  const attribution = heap?.attribution;
  if (which === 'attribution' && attribution && 'error' in attribution) return { error: attribution.error };
  const file = which === 'window' ? heap?.heapprofile : attribution && 'heapprofile' in attribution ? attribution.heapprofile : undefined;
  if (!file) return null;
  try {
    return { profile: parseHeapProfile(await readFile(path.join(runDir, file), 'utf8'), file) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { error: code ? `cannot read ${file} (${code})` : (error as Error).message };
  }
}

/**
 * The allocation summary of a step and its flame graph page (bytes, drawn by speedscope from the
 * .heapprofile): of the inlining-off profile when there is one, since its frames are the ones that allocated.
 */
async function publishAllocations(
  runDir: string,
  step: StepRecord,
  profile: HeapProfile,
  title: string,
  rules: readonly BucketRule[],
  warnings: string[],
): Promise<AllocationSummary> {
  const read = await readHeapProfile(runDir, step, 'attribution');
  if (read && 'error' in read) warnings.push(`allocations by function in physical frames only (inlined functions charged to their callers): ${read.error}`);
  const attribution = read && 'profile' in read ? read.profile : null;
  const taken = takenAttribution(step);
  const drawn = attribution && taken ? taken.heapprofile : step.profile!.heap!.heapprofile;
  const flamegraph = `${drawn.replace(/\.heapprofile$/, '')}.alloc.html`;
  const pageTitle = attribution && taken ? `${title} (inlining off, ${taken.seconds} s after the window)` : title;
  await writeFile(path.join(runDir, flamegraph), renderFlameGraphHtml(attribution ?? profile, { title: pageTitle, fileName: path.basename(drawn) }), 'utf8');
  return deriveAllocationSummary(step, profile, rules, flamegraph, attribution);
}

/** What the publish pass records of an allocation profile; with an inlining-off profile, its frames place the window's bytes. */
export function deriveAllocationSummary(
  step: StepRecord,
  profile: HeapProfile,
  rules: readonly BucketRule[],
  flamegraph: string | null,
  attribution: HeapProfile | null = null,
): AllocationSummary {
  const window = analyzeAllocations(profile, { rules });
  // The inlining-off profile, analysed once: its shares place the window's bytes, its own total is kept beside them.
  const attributed = attribution ? analyzeAllocations(attribution, { rules }) : null;
  const placed = attributed ? placeByAttribution(window, attributed) : window;
  const ok = step.requests.ok;
  const perOk = (bytes: number) => bytes / ok;
  const attributionOk = takenAttribution(step)?.okResponses ?? 0;
  return {
    flamegraph,
    samples: window.samples,
    samplingIntervalBytes: step.profile!.heap!.samplingIntervalBytes,
    bytes: window.bytes,
    bytesPerOkRequest: ok > 0 ? perOk(window.bytes) : null,
    bucketBytesPerOkRequest: ok > 0 ? Object.fromEntries(Object.entries(placed.bytesByBucket).map(([bucket, bytes]) => [bucket, perOk(bytes)])) : null,
    topAllocators: placed.topAllocators.map(({ bytes, ...f }) => ({ ...f, bytesPerOkRequest: ok > 0 ? perOk(bytes) : 0 })),
    gcMsPerOkRequest: step.profile!.nodeGc && ok > 0 ? step.profile!.nodeGc.ms / ok : null,
    frames: attributed ? 'allocating' : 'physical',
    ...(attributed ? { attributionBytesPerOkRequest: attributionOk > 0 ? attributed.bytes / attributionOk : null } : {}),
  };
}

function takenAttribution(step: StepRecord): AllocationAttribution | null {
  const attribution = step.profile?.heap?.attribution;
  return attribution && 'heapprofile' in attribution ? attribution : null;
}

/** What the publish pass records of an analysed profile. */
export function deriveStepAnalysis(step: StepRecord, analysis: ProfileAnalysis, flamegraph: string | null): StepAnalysis {
  const costs = bucketCosts(analysis, step.requests.ok);
  const gc = gcCheck(step, analysis);
  return {
    stepId: step.id,
    flamegraph,
    samples: analysis.samples,
    samplingIntervalUs: analysis.samplingIntervalUs,
    buckets: analysis.samples > 0 ? analysis.buckets : null,
    bucketMsPerOkRequest: costs?.bucketMsPerOkRequest ?? null,
    busyMsPerOkRequest: costs?.busyMsPerOkRequest ?? null,
    bucketFunctions: costs ? functionsByBucket(costs.functionsByBucket) : {},
    topFunctions: analysis.topFunctions,
    gc,
    allocation: null,
    warnings: gc?.disagrees ? [`the gc bucket (${pct(gc.profileShare)}) and Node's own GC account (${pct(gc.nodeShare)}) differ by more than 3 points`] : [],
    error: null,
  };
}

function gcCheck(step: StepRecord, analysis: ProfileAnalysis): GcCheck | null {
  const node = step.profile?.nodeGc;
  if (!node) return null;
  const truth = compareGcWithNode(analysis, { gcMs: node.ms, windowMs: node.windowMs });
  return truth && { profileShare: truth.profileGcShare, nodeShare: truth.nodeGcShare, differencePoints: truth.differencePoints, disagrees: truth.disagrees };
}

function functionsByBucket(source: Record<string, readonly BucketFunctionCost[]>): Record<string, BucketFunctionCost[]> {
  return Object.fromEntries(
    Object.entries(source).map(([bucket, functions]) => [
      bucket,
      functions.map((fn) => ({
        functionName: fn.functionName,
        url: fn.url,
        line: fn.line,
        msPerOkRequest: fn.msPerOkRequest,
        shareOfBucket: fn.shareOfBucket,
      })),
    ]),
  );
}

const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;

export function failed(step: StepRecord, error: string): StepAnalysis {
  return {
    stepId: step.id,
    flamegraph: null,
    samples: 0,
    samplingIntervalUs: 0,
    buckets: null,
    bucketMsPerOkRequest: null,
    busyMsPerOkRequest: null,
    bucketFunctions: {},
    topFunctions: [],
    gc: null,
    allocation: null,
    warnings: [],
    error: `profile analysis failed: ${error}`,
  };
}

/** The bucket rules to use and how results.json names them. */
export interface RulesChoice {
  rules: readonly BucketRule[];
  /** "built-in", or the rules file followed by "+ built-in". */
  label: string;
}

export async function publishStepProfiles(
  runDir: string,
  steps: readonly StepRecord[],
  titleOf: (step: StepRecord) => string,
  rules: readonly BucketRule[],
): Promise<StepAnalysis[]> {
  const analyses: StepAnalysis[] = [];
  for (const step of steps) {
    const analysis = await publishStepProfile(runDir, step, titleOf(step), rules);
    if (analysis) analyses.push(analysis);
  }
  return analyses;
}
