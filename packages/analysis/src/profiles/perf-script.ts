/**
 * A native gateway's `perf script` output read as a CPU profile, so the same bucket rules, tables
 * and flame graphs serve it as a V8 profile. Each sample is one stack of one thread, taken every
 * `period` ns of that thread's CPU time (perf's cpu-clock at a fixed period), so a sample weighs its
 * period: the profile's time is CPU time, summed over threads, and nothing in it is idle. A frame's
 * function is its symbol (Rust's hash suffix and the offset dropped), its url the binary or library
 * it is in; the outermost frame names the thread (`(thread tokio-runtime-w)`), which no rule claims.
 */
import type { CpuProfile, CpuProfileCallFrame, CpuProfileNode } from './cpuprofile.js';

const HEADER = /^(.+?)\s+(\d+)(?:\/(\d+))?\s+(?:\[\d+\]\s+)?(\d+\.\d+):\s+(\d+)\s+(\S+?):/;
const FRAME = /^\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$/;

/** The name perf gives a frame, as it is read: without the offset and Rust's legacy hash. */
export function symbolName(raw: string): string {
  const name = raw.replace(/\+0x[0-9a-f]+$/, '');
  return name.replace(/::h[0-9a-f]{16}$/, '');
}

export interface PerfSample {
  thread: string;
  tid: number;
  timeSec: number;
  periodNs: number;
  /** Innermost first, as perf prints them. */
  frames: Array<{ functionName: string; url: string }>;
}

/** The samples of a `perf script` text (default fields, call chains). */
export function parsePerfScript(text: string): PerfSample[] {
  const samples: PerfSample[] = [];
  let current: PerfSample | null = null;
  let addresses: string[] = [];
  const finish = () => {
    if (!current) return;
    placeInlinedFrames(current.frames, addresses);
    samples.push(current);
    current = null;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      finish();
      continue;
    }
    const header: RegExpExecArray | null = current === null ? HEADER.exec(line) : null;
    if (header) {
      current = { thread: header[1]!.trim(), tid: Number(header[3] ?? header[2]), timeSec: Number(header[4]), periodNs: Number(header[5]), frames: [] };
      addresses = [];
      continue;
    }
    const frame = FRAME.exec(line);
    if (current && frame) {
      current.frames.push({ functionName: symbolName(frame[2]!), url: frame[3]! });
      addresses.push(frame[1]!);
    }
  }
  finish();
  return samples;
}

/**
 * perf prints a function inlined at an address (known from the binary's DWARF) as `name (inlined)`,
 * before the function it was inlined into at the same address, which names the binary: the inlined
 * frames take that binary as their url. An inlined frame with no such frame after it keeps `inlined`.
 */
function placeInlinedFrames(frames: PerfSample['frames'], addresses: readonly string[]): void {
  for (let i = frames.length - 2; i >= 0; i--) {
    if (frames[i]!.url === 'inlined' && addresses[i] === addresses[i + 1]) frames[i]!.url = frames[i + 1]!.url;
  }
}

const callFrame = (functionName: string, url: string): CpuProfileCallFrame => ({ functionName, url, scriptId: '0', lineNumber: -1, columnNumber: -1 });

/** The samples as a CPU profile whose weights are CPU time: a sample's duration is its period. */
export function perfProfile(samples: readonly PerfSample[]): CpuProfile {
  const nodes: CpuProfileNode[] = [{ id: 1, callFrame: callFrame('(root)', ''), children: [] }];
  const childOf = new Map<string, number>();
  const child = (parent: number, frame: CpuProfileCallFrame): number => {
    const key = `${parent}\0${frame.functionName}\0${frame.url}`;
    const known = childOf.get(key);
    if (known !== undefined) return known;
    const id = nodes.length + 1;
    nodes.push({ id, callFrame: frame, children: [] });
    nodes[parent - 1]!.children!.push(id);
    childOf.set(key, id);
    return id;
  };
  const ids: number[] = [];
  const deltas: number[] = [];
  for (const sample of samples) {
    let node = child(1, callFrame(`(thread ${sample.thread})`, ''));
    for (let i = sample.frames.length - 1; i >= 0; i--) node = child(node, callFrame(sample.frames[i]!.functionName, sample.frames[i]!.url));
    ids.push(node);
    deltas.push(sample.periodNs / 1000);
  }
  const totalUs = deltas.reduce((a, b) => a + b, 0);
  const startUs = samples.length > 0 ? Math.round(samples[0]!.timeSec * 1e6) : 0;
  return { nodes, startTime: startUs, endTime: startUs + totalUs, samples: ids, timeDeltas: deltas };
}
