/**
 * V8 heap snapshots (`.heapsnapshot`, the Chrome DevTools format) summarised by class, the way the
 * DevTools Summary view groups them, and the leak rule of memlab's class trend and Hive Gateway's
 * memtest across snapshots: a class whose retained size grows in every consecutive diff is leaking.
 *
 * Snapshots are read in a streaming way into typed arrays, because a large one is longer than the
 * longest string V8 can hold; everything after reading works on those arrays and never recurses,
 * since a heap has millions of nodes.
 */
import { createReadStream } from 'node:fs';
import { GwprofError } from '@gwprof/results';
import { addClassRetainedSizes, aggregateClasses, classifyNodes } from './heap-snapshot/classes.js';
import { depthFirstOrder, immediateDominators, retainedSizes } from './heap-snapshot/dominators.js';
import { buildGraph, readHeapGraph, selfSize, toUint32, type HeapGraph } from './heap-snapshot/graph.js';
import { isRecord, notSnapshot } from './heap-snapshot-reader.js';
import { RetainerPaths } from './heap-snapshot/retainer-paths.js';

// ---------------------------------------------------------------------------------------------
// The format and the public shapes

export interface HeapSnapshotMeta {
  node_fields: string[];
  /** One entry per node field: the first (`type`) is the list of node type names. */
  node_types: Array<string | string[]>;
  edge_fields: string[];
  /** One entry per edge field: the first (`type`) is the list of edge type names. */
  edge_types: Array<string | string[]>;
  [other: string]: unknown;
}

/** A `.heapsnapshot` file as JSON.parse returns it (the fields summaries need; others are ignored). */
export interface RawHeapSnapshot {
  snapshot: { meta: HeapSnapshotMeta; node_count?: number; edge_count?: number; [other: string]: unknown };
  /** node_fields.length numbers per node. */
  nodes: ArrayLike<number>;
  /** edge_fields.length numbers per edge; `to_node` is the index of the target's first field in `nodes`. */
  edges: ArrayLike<number>;
  strings: string[];
  [other: string]: unknown;
}

export interface HeapClassSummary {
  /** DevTools' "Constructor" grouping: the name of object and native nodes, else the type's group, e.g. "(closure)". */
  name: string;
  count: number;
  selfSize: number;
  /** Retained size of the instances that no other instance of the class dominates (nesting counted once). */
  retainedSize: number;
  /**
   * A shortest strong path from a GC root to one instance held by the holder that holds the most
   * instances (on that path); null if none exists.
   */
  retainerPath: string[] | null;
}

export interface HeapSnapshotSummary {
  nodeCount: number;
  edgeCount: number;
  /** Sum of all nodes' self sizes. */
  totalSize: number;
  /** Classes by retained size, largest first, the first `top` of them. */
  classes: HeapClassSummary[];
}

export interface GrowingClass {
  name: string;
  /** Per snapshot, in order (null where the class was not in that snapshot's top list). */
  counts: Array<number | null>;
  retainedSizes: Array<number | null>;
  selfSizes: Array<number | null>;
  /** Retained size in the last snapshot minus the first (see growingClasses for a class missing in the first). */
  growthBytes: number;
  /** From the last snapshot. */
  retainerPath: string[] | null;
}

const DEFAULT_TOP = 200;
export const DEFAULT_MIN_GROWTH = 1024 * 1024;

/** Summarises a `.heapsnapshot` file, reading it in chunks (never as one string). */
export async function summarizeHeapSnapshotFile(file: string, options: { top?: number } = {}): Promise<HeapSnapshotSummary> {
  const top = topOf(options.top);
  let graph: HeapGraph;
  try {
    graph = await readHeapGraph(createReadStream(file, { highWaterMark: 1 << 20 }), file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code === 'string') throw new GwprofError(`${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}`);
    throw error;
  }
  return summarizeGraph(graph, top);
}

/** Summarises an already-parsed snapshot. */
export function summarizeHeapSnapshot(snapshot: RawHeapSnapshot, options: { top?: number } = {}): HeapSnapshotSummary {
  const source = 'heap snapshot';
  if (!isRecord(snapshot) || !isRecord(snapshot.snapshot)) throw notSnapshot(source, 'no "snapshot" object');
  const meta = snapshot.snapshot.meta;
  const graph = buildGraph(
    {
      meta,
      nodeCount: snapshot.snapshot.node_count,
      nodes: toUint32(snapshot.nodes, 'nodes', source),
      edges: toUint32(snapshot.edges, 'edges', source),
      strings: snapshot.strings,
    },
    source,
  );
  return summarizeGraph(graph, topOf(options.top));
}

/**
 * Classes whose retained size grew in every consecutive diff of snapshots taken in order (at least 3)
 * and by more than `minGrowthBytes` in all (default 1 MiB), largest growth first.
 *
 * A class missing from a summary's top list retained at most the smallest retained size in that list,
 * so an earlier miss still counts as growth when the next value exceeds that bound, and the bound
 * stands in for a missing first value in `growthBytes` (which then understates the growth). A miss in
 * a later snapshot never counts as growth.
 */
export function growingClasses(summaries: ReadonlyArray<Pick<HeapSnapshotSummary, 'classes'>>, options: { minGrowthBytes?: number } = {}): GrowingClass[] {
  if (summaries.length < 3) {
    throw new GwprofError(`growing classes need at least 3 heap snapshots (2 diffs), got ${summaries.length}`);
  }
  const minGrowth = options.minGrowthBytes ?? DEFAULT_MIN_GROWTH;
  const byName = summaries.map((s) => new Map(s.classes.map((c) => [c.name, c])));
  const bounds = summaries.map((s) => s.classes.reduce((min, c) => Math.min(min, c.retainedSize), s.classes.length === 0 ? 0 : Infinity));
  const last = byName[byName.length - 1]!;
  const growing: GrowingClass[] = [];
  for (const [name, latest] of last) {
    const rows = byName.map((m) => m.get(name) ?? null);
    const retained = rows.map((r) => r?.retainedSize ?? null);
    const grewEveryTime = retained.every((now, i) => i === 0 || (now !== null && now > (retained[i - 1] ?? bounds[i - 1]!)));
    const growthBytes = latest.retainedSize - (retained[0] ?? bounds[0]!);
    if (!grewEveryTime || growthBytes <= minGrowth) continue;
    growing.push({
      name,
      counts: rows.map((r) => r?.count ?? null),
      retainedSizes: retained,
      selfSizes: rows.map((r) => r?.selfSize ?? null),
      growthBytes,
      retainerPath: latest.retainerPath,
    });
  }
  return growing.sort((a, b) => b.growthBytes - a.growthBytes || compareText(a.name, b.name));
}

function summarizeGraph(g: HeapGraph, top: number): HeapSnapshotSummary {
  const order = depthFirstOrder(g);
  const idom = immediateDominators(g, order);
  const retained = retainedSizes(g, order, idom);
  const classes = classifyNodes(g);
  const rows = aggregateClasses(g, classes, retained, order);
  addClassRetainedSizes(g, classes, order, idom, retained, rows);
  const chosen = rows
    .filter((r) => r.count > 0)
    .sort((a, b) => b.retainedSize - a.retainedSize || compareText(a.name, b.name))
    .slice(0, top);
  const paths = new RetainerPaths(g, classes);
  const typical = paths.instancesOfBusiestHolders(new Set(chosen.map((r) => r.classIndex)), (n) => retained[order.numberOf[n]!]!);
  let totalSize = 0;
  for (let n = 0; n < g.nodeCount; n++) totalSize += selfSize(g, n);
  return {
    nodeCount: g.nodeCount,
    edgeCount: g.edgeCount,
    totalSize,
    classes: chosen.map((r) => ({
      name: r.name,
      count: r.count,
      selfSize: r.selfSize,
      retainedSize: r.retainedSize,
      retainerPath: paths.pathTo(typical.get(r.classIndex) ?? r.largest),
    })),
  };
}

/** Summarises a snapshot from chunks of its JSON text (any split), as summarizeHeapSnapshotFile reads it. */
export async function summarizeHeapSnapshotStream(
  chunks: AsyncIterable<Uint8Array | string>,
  source: string,
  options: { top?: number } = {},
): Promise<HeapSnapshotSummary> {
  const top = topOf(options.top);
  return summarizeGraph(await readHeapGraph(chunks, source), top);
}

function topOf(top: number | undefined): number {
  if (top === undefined) return DEFAULT_TOP;
  if (!(top >= 0) || (!Number.isInteger(top) && top !== Infinity)) throw new GwprofError(`top must be a non-negative integer, got ${top}`);
  return top;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
