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
 * Each stack of the side's merged stacks (analysis's `mergeStacks`: identical stacks of all its
 * profiles merged, `(root)` and `(idle)` left out) becomes a sample, leaf first as pprof wants.
 * Every function is one location at the line where it starts (V8 gives no line per sample).
 * Each sample carries a `bucket` label, so `pprof -tags` totals per bucket and
 * `-tagfocus=bucket=plan` narrows to one.
 */
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { frameKey, type CpuProfileCallFrame, type MergedStacks } from '@gwprof/analysis';
import { Function as PprofFunction, Label, Line, Location, Mapping, Profile, Sample, StringTable, ValueType } from 'pprof-format';

/** By default values are CPU nanoseconds per this many successful requests. */
export const PPROF_REQUESTS_PER_VALUE = 1000;

/** One side: the merged stacks of all its measured windows and the successful requests in them. */
export interface PprofSide {
  merged: MergedStacks;
  /** How many profiles were merged (for the profile's comments). */
  profiles: number;
  okRequests: number;
}

export interface PprofOptions {
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

/** The two sides' files, relative to one folder. */
export interface PprofPair {
  baseline: string;
  candidate: string;
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
  const { stacks, busyUs, intervalUs } = side.merged;
  const requestsPerValue = options.requestsPerValue ?? PPROF_REQUESTS_PER_VALUE;
  const scale = (1000 * requestsPerValue) / side.okRequests;
  const bucketKey = table.strings.dedup('bucket');
  // Rounded once per merged stack, so the total is off by at most half a unit per sample.
  const samples = stacks
    .map(({ frames, bucket, us }) => ({ frames, bucket, value: Math.round(us * scale) }))
    .filter((sample) => sample.value > 0)
    .map(
      ({ frames, bucket, value }) =>
        new Sample({
          locationId: frames.map((frame) => table.locationOf(frame)),
          value: [value],
          label: [new Label({ key: bucketKey, str: table.strings.dedup(bucket) })],
        }),
    );
  const cpu = new ValueType({ type: table.strings.dedup('cpu'), unit: table.strings.dedup('nanoseconds') });
  const comments = [
    `gwprof: CPU nanoseconds per ${requestsPerValue.toLocaleString('en-US')} successful requests${readingHint(requestsPerValue)}; (idle) left out`,
    `successful requests: ${side.okRequests}; profiles: ${side.profiles}; CPU per request: ${(busyUs / 1000 / side.okRequests).toFixed(3)} ms`,
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
    period: Math.round(intervalUs * 1000),
    timeNanos: options.timeNanos ?? 0,
    comment: comments.map((line) => table.strings.dedup(line)),
  });
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
    const key = frameKey(frame);
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

function readingHint(requestsPerValue: number): string {
  if (requestsPerValue === 1000) return " (pprof's s = ms per request, its ms = µs per request)";
  if (requestsPerValue === 1) return " (pprof's figures are per request)";
  return '';
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
