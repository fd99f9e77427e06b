/**
 * The control socket between the harness (controller.ts) and the preload in the gateway
 * (preload.cts): one JSON command per line, one JSON envelope per line: `ok` and the op's reply,
 * or `ok: false` and an error. Types only: the preload stays plain CommonJS with no dependencies.
 */
import type { RssAndHeap } from '@gwprof/results';

export type ProfilerCommand =
  | { op: 'ping' }
  /** CPU sampling every intervalUs, and allocations every heapSamplingBytes when given, from now on. */
  | { op: 'start'; intervalUs: number; heapSamplingBytes?: number }
  /** Stops sampling; writes the CPU profile to `file`, and the allocation profile to `heapFile` when allocations were sampled. */
  | { op: 'stop'; file: string; heapFile?: string }
  | { op: 'stats' }
  | { op: 'gc' }
  /** Bytes allocated on V8's heap since the first such command (0 then). */
  | { op: 'allocated' }
  | { op: 'snapshot'; file: string }
  /** TurboFan's inlining on or off, every optimised function dropped so that it holds at once. */
  | { op: 'inlining'; enabled: boolean }
  | { op: 'heapStart'; heapSamplingBytes: number }
  | { op: 'heapStop'; heapFile: string };

export type ProfilerOp = ProfilerCommand['op'];

export interface MemoryAfterGc {
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
}

/** What RSS holds beside the heap, read after a forced GC: to tell a native leak from the allocator's moods. */
export interface NativeMemoryDetail {
  /** Resident anonymous memory (RssAnon), null off Linux. */
  rssAnonBytes: number | null;
  /** Heap pages V8 has touched (total_physical_size). */
  heapPhysicalBytes: number;
  /** What V8 itself holds in malloc (compiler zones, snapshots in progress). */
  v8MallocedBytes: number;
}

export interface ProcessStats extends MemoryAfterGc {
  openFds: number | null;
  activeResources: number;
  eventLoopDelayP99Ms: number;
  gcMs: number;
}

/** Node's own account of a profiled window: GC pauses (perf_hooks) and every thread's CPU in clock ticks. */
export interface WindowAccountReply {
  nodeGc: { ms: number; count: number; windowMs: number; msByKind: Record<string, number> };
  threadTicks: { main: number; others: number } | null;
}

export interface ProfilerReplies {
  ping: { pid: number };
  start: { started: true };
  stop: WindowAccountReply & { samples: number; heapSamples: number | null };
  stats: ProcessStats;
  gc: MemoryAfterGc & NativeMemoryDetail;
  allocated: { bytes: number };
  snapshot: { file: string; bytes: number; memoryAround: { before: RssAndHeap; after: RssAndHeap } };
  inlining: { ms: number };
  heapStart: { started: true };
  heapStop: { heapSamples: number };
}

export type ProfilerReply<K extends ProfilerOp = ProfilerOp> = ProfilerReplies[K];

/** One line from the preload: the op's reply, or why it failed. */
export type ProfilerEnvelope<K extends ProfilerOp = ProfilerOp> = { ok: true; reply: ProfilerReply<K> } | { ok: false; error: string };
