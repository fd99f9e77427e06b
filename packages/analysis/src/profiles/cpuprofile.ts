import { readFile } from 'node:fs/promises';
import { GwprofError } from '@gwprof/results';

/** A V8 call frame as written in a `.cpuprofile` (Chrome DevTools protocol `Runtime.CallFrame`). */
export interface CpuProfileCallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  /** 0-based; −1 for V8's pseudo-frames. */
  lineNumber: number;
  columnNumber: number;
}

export interface CpuProfileNode {
  id: number;
  callFrame: CpuProfileCallFrame;
  hitCount?: number;
  children?: number[];
}

/** A V8 CPU profile (`Profiler.stop`, `node --cpu-prof`, Chrome DevTools). Times are in µs. */
export interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  /** Leaf node id of each sample, in time order. */
  samples?: number[];
  /** µs since the previous sample (the first: since startTime). */
  timeDeltas?: number[];
}

/** Validates the shape that analysis relies on, so a bad file fails here with a clear message. */
export function parseCpuProfile(text: string, source: string): CpuProfile {
  const fail = (what: string): never => {
    throw new GwprofError(`${source}: ${what}`);
  };
  if (text.trim() === '') fail('empty file, not a V8 CPU profile');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail(`truncated or invalid JSON (${oneLine((error as Error).message)})`);
  }
  if (!isRecord(value)) fail('not a V8 CPU profile: top level is not a JSON object');
  const raw = value as Record<string, unknown>;
  if (!Array.isArray(raw.nodes)) fail('not a V8 CPU profile: missing "nodes" array');
  const nodes = raw.nodes as unknown[];
  if (nodes.length === 0) fail('not a V8 CPU profile: "nodes" is empty');

  const ids = new Set<number>();
  nodes.forEach((node, index) => {
    const where = `nodes[${index}]`;
    if (!isRecord(node)) fail(`not a V8 CPU profile: ${where} is not an object`);
    const { id, callFrame, hitCount, children } = node as Record<string, unknown>;
    if (!Number.isInteger(id)) fail(`not a V8 CPU profile: ${where} has no integer "id"`);
    if (ids.has(id as number)) fail(`not a V8 CPU profile: node id ${id} appears twice`);
    ids.add(id as number);
    if (!isRecord(callFrame)) fail(`not a V8 CPU profile: ${where} has no "callFrame"`);
    const frame = callFrame as Record<string, unknown>;
    if (typeof frame.functionName !== 'string' || typeof frame.url !== 'string') {
      fail(`not a V8 CPU profile: ${where}.callFrame needs string "functionName" and "url"`);
    }
    if (typeof frame.lineNumber !== 'number') fail(`not a V8 CPU profile: ${where}.callFrame has no "lineNumber"`);
    if (hitCount !== undefined && !isCount(hitCount)) fail(`${where}.hitCount is not a non-negative integer`);
    if (children !== undefined && !(Array.isArray(children) && children.every(Number.isInteger))) {
      fail(`${where}.children is not an array of node ids`);
    }
  });
  for (const node of nodes as CpuProfileNode[]) {
    for (const child of node.children ?? []) {
      if (!ids.has(child)) fail(`node ${node.id} lists child ${child}, which names no node`);
    }
  }

  if (typeof raw.startTime !== 'number' || typeof raw.endTime !== 'number') {
    fail('not a V8 CPU profile: missing numeric "startTime"/"endTime"');
  }
  if (raw.samples === undefined) {
    if (!(nodes as CpuProfileNode[]).some((node) => node.hitCount !== undefined)) {
      fail('not a V8 CPU profile: no "samples" array and no node "hitCount"');
    }
  } else {
    if (!Array.isArray(raw.samples)) fail('"samples" is not an array');
    (raw.samples as unknown[]).forEach((id, index) => {
      if (!ids.has(id as number)) fail(`samples[${index}] = ${JSON.stringify(id)} names no node`);
    });
  }
  if (raw.timeDeltas !== undefined) {
    if (!Array.isArray(raw.timeDeltas) || !raw.timeDeltas.every((d) => typeof d === 'number')) {
      fail('"timeDeltas" is not an array of numbers');
    }
    const samples = (raw.samples as unknown[] | undefined)?.length ?? 0;
    if ((raw.timeDeltas as number[]).length !== samples) {
      fail(`"timeDeltas" has ${(raw.timeDeltas as number[]).length} entries but "samples" has ${samples}`);
    }
  }
  return value as CpuProfile;
}

/** Reads and parses a `.cpuprofile`; every failure, including a missing file, names the path. */
export async function readCpuProfile(path: string): Promise<CpuProfile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new GwprofError(`${path}: cannot read CPU profile (${code ?? oneLine(message)})`, { cause: error });
  }
  return parseCpuProfile(text, path);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= 0;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Microseconds each sample stands for, in sample order: half the gap to the previous sample plus half
 * the gap to the next one (each instant goes to the nearest sample). The two edge samples mirror
 * their one inner gap, so the profiler's start-up before the first sample (0.1–0.4 s in gateway
 * profiles) is not charged to it. Weighting by time rather than counting samples matters because
 * V8's sampler is late during GC pauses: at a 1 ms interval it loses about 40% of the ticks due
 * inside a pause, at 4 ms it takes them late at the pause's end; counts then make the gc share
 * depend on the interval, times do not (docs/cpu-buckets.md). Out-of-order
 * timestamps count as 0 µs gaps. Profiles without `timeDeltas` give every sample the mean gap over
 * the profile's span.
 */
export function sampleDurationsUs(profile: CpuProfile): number[] {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas;
  const count = samples.length;
  if (!deltas || deltas.length !== count) {
    return new Array<number>(count).fill(count > 0 ? (profile.endTime - profile.startTime) / count : 0);
  }
  if (count === 1) return [Math.max(0, profile.endTime - profile.startTime)];
  // gaps[i]: µs between sample i − 1 and sample i (gaps[0], the start-up gap, is not used).
  const gaps = deltas.map((delta) => Math.max(0, delta));
  const durations = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const before = i === 0 ? gaps[1]! : gaps[i]!;
    const after = i === count - 1 ? gaps[i]! : gaps[i + 1]!;
    durations[i] = (before + after) / 2;
  }
  return durations;
}

/**
 * Samples and µs whose leaf is each node: from `samples` weighted by `sampleDurationsUs`, or from
 * `hitCount` (each hit the mean gap over the span) when a profile has no samples array.
 */
export function selfWeights(profile: CpuProfile): { selfCount: Map<number, number>; selfUs: Map<number, number> } {
  const selfCount = new Map<number, number>();
  const selfUs = new Map<number, number>();
  if (profile.samples) {
    const durations = sampleDurationsUs(profile);
    profile.samples.forEach((id, i) => {
      selfCount.set(id, (selfCount.get(id) ?? 0) + 1);
      selfUs.set(id, (selfUs.get(id) ?? 0) + durations[i]!);
    });
    return { selfCount, selfUs };
  }
  for (const node of profile.nodes) if (node.hitCount) selfCount.set(node.id, node.hitCount);
  const hits = [...selfCount.values()].reduce((sum, n) => sum + n, 0);
  const meanUs = hits > 0 ? (profile.endTime - profile.startTime) / hits : 0;
  for (const [id, n] of selfCount) selfUs.set(id, n * meanUs);
  return { selfCount, selfUs };
}

/** V8's `(idle)` pseudo-frame: the event loop waiting, not work. */
export function isIdleFrame(frame: Pick<CpuProfileCallFrame, 'functionName' | 'url'>): boolean {
  return frame.functionName === '(idle)' && frame.url === '';
}

/** V8's `(root)` pseudo-frame: its children are where V8 entered JavaScript from native code. */
export function isRootFrame(frame: Pick<CpuProfileCallFrame, 'functionName' | 'url'>): boolean {
  return frame.functionName === '(root)' && frame.url === '';
}

/** The identity a function keeps across nodes (callers) and profiles (processes). */
export function frameKey(frame: CpuProfileCallFrame): string {
  return `${frame.functionName}\0${frame.url}\0${frame.lineNumber}\0${frame.columnNumber}`;
}

/**
 * A function's identity across the two sides: the two builds of a comparison are often installed or
 * checked out in different folders (baseline/ and candidate/, two node_modules), so a file counts
 * the same when its path inside its package (after the last node_modules/) matches or, outside
 * packages, its last two path components do. Name, line and column must match too.
 */
export function sideFreeKey(frame: CpuProfileCallFrame): string {
  return frameKey({ ...frame, url: sideFreeUrl(frame.url) });
}

function sideFreeUrl(url: string): string {
  const inPackage = url.lastIndexOf('node_modules/');
  if (inPackage >= 0) return url.slice(inPackage + 'node_modules/'.length);
  if (!url.startsWith('file://') && !url.startsWith('/')) return url;
  return url.split('/').slice(-2).join('/');
}
