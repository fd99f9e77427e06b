/**
 * A side's CPU profiles as one pprof profile (`.pb.gz`, the format of `pprof` and `go tool pprof`),
 * normalised per successful request, so that
 *
 *     pprof -top -diff_base=baseline.pb.gz candidate.pb.gz
 *
 * prints how much CPU each function costs per request more or less in the candidate, offline.
 *
 * Values: sample type `cpu`/`nanoseconds`, holding CPU nanoseconds per 1,000 successful requests
 * (int64 as pprof wants; per single request each stack would be rounded to whole ns, and with
 * 10^5 requests a side one 1 ms sample is only 10 ns per request). pprof scales nanoseconds for
 * display, so its seconds read as milliseconds per request ("2.5s" is 2.5 s per 1,000 requests
 * = 2.5 ms per request) and its ms as µs per request. The profile's comments say so.
 *
 * Each stack of each V8 profile becomes a sample (root frame dropped, leaf first as pprof wants),
 * identical stacks of all the side's profiles merged, `(idle)` left out as in `diffFunctions`.
 * Every function is one location at the line where it starts (V8 gives no line per sample).
 * Each sample carries a `bucket` label, so `pprof -tags` totals per bucket and
 * `-tagfocus=bucket=plan` narrows to one.
 */
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  DEFAULT_BUCKET_RULES,
  classifyNodes,
  selfTimeUsByNode,
  type BucketRule,
  type CpuProfile,
  type CpuProfileCallFrame,
  type CpuProfileNode,
} from '@gwprof/analysis';
import { Function as PprofFunction, Label, Line, Location, Mapping, Profile, Sample, StringTable, ValueType } from 'pprof-format';

/** By default values are CPU nanoseconds per this many successful requests. */
export const PPROF_REQUESTS_PER_VALUE = 1000;

/** The same shape as analysis's `SideProfiles`: all measured windows of one side. */
export interface PprofSide {
  profiles: readonly CpuProfile[];
  okRequests: number;
}

export interface PprofOptions {
  rules?: readonly BucketRule[];
  /** Lines for `pprof -comments`, after the ones that say what the values mean. */
  comments?: readonly string[];
  /** When the profiles were taken, ns since the epoch (default 0: unknown). */
  timeNanos?: number;
  /**
   * Values are CPU ns per this many successful requests (default `PPROF_REQUESTS_PER_VALUE`).
   * 1 makes pprof's figures read as they are (ms = ms per request) but rounds every stack to whole
   * ns per request; both sides of a diff must use the same.
   */
  requestsPerValue?: number;
}

/** A side as gzipped pprof protobuf bytes, ready to write as `.pb.gz`. */
export function encodePprofProfile(side: PprofSide, options: PprofOptions = {}): Uint8Array {
  return gzipSync(buildPprofProfile(side, options).encode());
}

/** Where `writePprofPair` put the two sides. */
export interface PprofPair {
  baseline: string;
  candidate: string;
}

/**
 * Writes `<prefix>baseline.pb.gz` and `<prefix>candidate.pb.gz` into `dir` (which must exist);
 * returns their paths.
 */
export async function writePprofPair(
  dir: string,
  sides: { baseline: PprofSide; candidate: PprofSide },
  options: PprofOptions & { prefix?: string } = {},
): Promise<PprofPair> {
  const prefix = options.prefix ?? '';
  const paths = { baseline: join(dir, `${prefix}baseline.pb.gz`), candidate: join(dir, `${prefix}candidate.pb.gz`) };
  for (const name of ['baseline', 'candidate'] as const) {
    const comments = [`side: ${name}`, ...(options.comments ?? [])];
    await writeFile(paths[name], encodePprofProfile(sides[name], { ...options, comments }));
  }
  return paths;
}

/** The command that shows the per-request difference, run from the folder holding both files. */
export function pprofDiffCommand(pair: PprofPair, view = '-top'): string {
  return `go tool pprof ${view} -diff_base=${shellWord(basename(pair.baseline))} ${shellWord(basename(pair.candidate))}`;
}

/** The pprof profile for one side (unencoded). */
export function buildPprofProfile(side: PprofSide, options: PprofOptions = {}): Profile {
  if (!(side.okRequests > 0)) {
    throw new RangeError(`a per-request pprof profile needs successful requests, got okRequests = ${side.okRequests}`);
  }
  const table = new PprofTable();
  const { stacks, busyUs } = collectStacks(side.profiles, options.rules ?? DEFAULT_BUCKET_RULES, table);
  const requestsPerValue = options.requestsPerValue ?? PPROF_REQUESTS_PER_VALUE;
  const scale = (1000 * requestsPerValue) / side.okRequests;
  const bucketKey = table.strings.dedup('bucket');
  // Rounded once per merged stack, so the total is off by at most half a unit per sample.
  const samples = stacks
    .map(({ locationIds, bucket, us }) => ({ locationIds, bucket, value: Math.round(us * scale) }))
    .filter((sample) => sample.value > 0)
    .map(
      ({ locationIds, bucket, value }) =>
        new Sample({ locationId: locationIds, value: [value], label: [new Label({ key: bucketKey, str: table.strings.dedup(bucket) })] }),
    );
  const cpu = new ValueType({ type: table.strings.dedup('cpu'), unit: table.strings.dedup('nanoseconds') });
  const comments = [
    `gwprof: CPU nanoseconds per ${requestsPerValue.toLocaleString('en-US')} successful requests${readingHint(requestsPerValue)}; (idle) left out`,
    `successful requests: ${side.okRequests}; profiles: ${side.profiles.length}; CPU per request: ${(busyUs / 1000 / side.okRequests).toFixed(3)} ms`,
    ...(options.comments ?? []),
  ];
  return new Profile({
    sampleType: [cpu],
    sample: samples,
    mapping: [table.mapping],
    location: table.locations,
    function: table.functions,
    stringTable: table.strings,
    periodType: cpu,
    period: Math.round(medianIntervalUs(side.profiles) * 1000),
    timeNanos: options.timeNanos ?? 0,
    comment: comments.map((line) => table.strings.dedup(line)),
  });
}

interface StackTime {
  /** Leaf first. */
  locationIds: number[];
  bucket: string;
  us: number;
}

/** Self time of every distinct (stack, bucket) over all profiles, and the non-idle total, µs. */
function collectStacks(
  profiles: readonly CpuProfile[],
  rules: readonly BucketRule[],
  table: PprofTable,
): { stacks: StackTime[]; busyUs: number } {
  const byKey = new Map<string, StackTime>();
  let busyUs = 0;
  for (const profile of profiles) {
    const nodeBucket = classifyNodes(profile, rules);
    const stacks = locationStacks(profile.nodes, table);
    for (const [id, us] of selfTimeUsByNode(profile)) {
      const locationIds = stacks.get(id);
      if (!locationIds || us === 0) continue;
      const bucket = nodeBucket.get(id) ?? 'other';
      const key = `${locationIds.join(',')}|${bucket}`;
      const entry = byKey.get(key) ?? { locationIds, bucket, us: 0 };
      entry.us += us;
      byKey.set(key, entry);
      busyUs += us;
    }
  }
  return { stacks: [...byKey.values()], busyUs };
}

/** One frame of a decoded stack. */
export interface PprofFrame {
  name: string;
  file: string;
  /** 1-based. */
  line: number;
}

export interface PprofStackSample {
  /** Root first, leaf last (pprof stores leaf first). */
  stack: PprofFrame[];
  value: number;
  labels: Record<string, string>;
}

export interface DecodedPprof {
  sampleTypes: Array<{ type: string; unit: string }>;
  comments: string[];
  samples: PprofStackSample[];
  /** Sum of all sample values (first sample type). */
  total: number;
}

/** Reads a pprof profile back (gzipped or not) into plain stacks: for tests and tools. */
export function decodePprofProfile(bytes: Uint8Array): DecodedPprof {
  const raw = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  const profile = Profile.decode(raw);
  const text = (index: number | bigint) => profile.stringTable.strings[Number(index)] ?? '';
  const functions = new Map(profile.function.map((fn) => [Number(fn.id), fn]));
  const locations = new Map(profile.location.map((loc) => [Number(loc.id), loc]));
  const frameOf = (locationId: number | bigint): PprofFrame => {
    const line = locations.get(Number(locationId))?.line[0];
    const fn = line === undefined ? undefined : functions.get(Number(line.functionId));
    return { name: fn ? text(fn.name) : '', file: fn ? text(fn.filename) : '', line: Number(line?.line ?? 0) };
  };
  const samples = profile.sample.map((sample) => ({
    stack: sample.locationId.map(frameOf).reverse(),
    value: Number(sample.value[0] ?? 0),
    labels: Object.fromEntries(sample.label.map((label) => [text(label.key), text(label.str)])),
  }));
  return {
    sampleTypes: profile.sampleType.map((t) => ({ type: text(t.type), unit: text(t.unit) })),
    comments: profile.comment.map(text),
    samples,
    total: samples.reduce((sum, sample) => sum + sample.value, 0),
  };
}

/** Strings, functions and locations, one function and one location per distinct V8 frame. */
class PprofTable {
  readonly strings = new StringTable();
  /**
   * One mapping that says every location already has its function, file and line, so pprof looks
   * for no binary to symbolize against.
   */
  readonly mapping = new Mapping({
    id: 1,
    filename: this.strings.dedup('node'),
    hasFunctions: true,
    hasFilenames: true,
    hasLineNumbers: true,
  });
  readonly functions: PprofFunction[] = [];
  readonly locations: Location[] = [];
  readonly #locationByFrame = new Map<string, number>();

  locationOf(frame: CpuProfileCallFrame): number {
    const key = `${frame.functionName}\0${frame.url}\0${frame.lineNumber}\0${frame.columnNumber}`;
    const known = this.#locationByFrame.get(key);
    if (known !== undefined) return known;
    const id = this.locations.length + 1;
    const line = Math.max(0, frame.lineNumber + 1);
    const filename = this.strings.dedup(fileName(frame.url));
    const name = this.strings.dedup(displayName(frame));
    this.functions.push(new PprofFunction({ id, name, systemName: name, filename, startLine: line }));
    this.locations.push(new Location({ id, mappingId: this.mapping.id, line: [new Line({ functionId: id, line })] }));
    this.#locationByFrame.set(key, id);
    return id;
  }
}

/**
 * Location ids of each node's stack, leaf first, without V8's `(root)`; none for `(idle)`.
 * Parents before children (breadth-first), iteratively: real stacks can be very deep.
 */
function locationStacks(nodes: readonly CpuProfileNode[], table: PprofTable): Map<number, number[]> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const hasParent = new Set(nodes.flatMap((node) => node.children ?? []));
  const stacks = new Map<number, number[]>();
  const queue = nodes.filter((node) => !hasParent.has(node.id)).map((node) => ({ node, above: [] as number[] }));
  for (let head = 0; head < queue.length; head++) {
    const { node, above } = queue[head]!;
    if (stacks.has(node.id)) continue;
    const frame = node.callFrame;
    const isRoot = frame.url === '' && frame.functionName === '(root)';
    const stack = isRoot ? above : [table.locationOf(frame), ...above];
    // `(root)` itself only shows where a sample has nothing else (V8 rarely records that).
    if (!isIdle(frame)) stacks.set(node.id, stack.length > 0 ? stack : [table.locationOf(frame)]);
    for (const child of node.children ?? []) queue.push({ node: byId.get(child)!, above: stack });
  }
  return stacks;
}

function readingHint(requestsPerValue: number): string {
  if (requestsPerValue === 1000) return " (pprof's s = ms per request, its ms = µs per request)";
  if (requestsPerValue === 1) return " (pprof's figures are per request)";
  return '';
}

function isIdle(frame: CpuProfileCallFrame): boolean {
  return frame.url === '' && frame.functionName === '(idle)';
}

/** The sampling interval, for pprof's informational `period`. */
function medianIntervalUs(profiles: readonly CpuProfile[]): number {
  const deltas = profiles.flatMap((profile) => profile.timeDeltas ?? []).sort((a, b) => a - b);
  return deltas.length === 0 ? 0 : deltas[Math.floor(deltas.length / 2)]!;
}

/**
 * pprof lists functions by name alone, so an anonymous one is named after where it is
 * (`(anonymous graphql/execution/execute.js:120)`) rather than merging with every other.
 */
function displayName(frame: CpuProfileCallFrame): string {
  if (frame.functionName !== '') return frame.functionName;
  if (frame.url === '') return '(anonymous)';
  return `(anonymous ${shortFile(frame.url)}:${Math.max(0, frame.lineNumber + 1)})`;
}

/** A local path where there is one (so `pprof -list` can show source), else the URL as V8 gave it. */
function fileName(url: string): string {
  return url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
}

/** The path from the last node_modules/ on, which names the package; else the file's name. */
function shortFile(url: string): string {
  const path = fileName(url);
  const nm = path.lastIndexOf('node_modules/');
  return nm >= 0 ? path.slice(nm + 'node_modules/'.length) : basename(path);
}

function shellWord(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
