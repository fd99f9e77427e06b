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
import { SnapshotReader, isRecord, notSnapshot, type GraphParts } from './heap-snapshot-reader.js';

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
const MAX_PATH_STEPS = 12;
const NONE = 0xffffffff;

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

// ---------------------------------------------------------------------------------------------
// The graph: nodes and edges as typed arrays, with the field offsets of this snapshot's meta

interface HeapGraph {
  nodes: Uint32Array;
  edges: Uint32Array;
  strings: string[];
  nodeTypes: string[];
  edgeTypes: string[];
  nodeFields: number;
  edgeFields: number;
  typeAt: number;
  nameAt: number;
  selfSizeAt: number;
  edgeCountAt: number;
  edgeTypeAt: number;
  edgeNameAt: number;
  edgeToAt: number;
  nodeCount: number;
  edgeCount: number;
  /** Per node ordinal, the ordinal of its first edge (nodeCount + 1 entries). */
  firstEdge: Uint32Array;
}

function buildGraph(parts: GraphParts, source: string): HeapGraph {
  const meta = parts.meta;
  if (!isRecord(meta)) throw notSnapshot(source, 'no "snapshot.meta"');
  const nodeFields = stringList(meta.node_fields, 'snapshot.meta.node_fields', source);
  const edgeFields = stringList(meta.edge_fields, 'snapshot.meta.edge_fields', source);
  const field = (fields: string[], name: string) => {
    const at = fields.indexOf(name);
    if (at < 0) throw notSnapshot(source, `meta has no "${name}" field`);
    return at;
  };
  const nodeTypes = typeNames(meta.node_types, 'node_types', source);
  const edgeTypes = typeNames(meta.edge_types, 'edge_types', source);
  if (!Array.isArray(parts.strings) || !parts.strings.every((s) => typeof s === 'string')) {
    throw notSnapshot(source, '"strings" is not an array of strings');
  }
  const { nodes, edges } = parts;
  if (nodes.length === 0 || nodes.length % nodeFields.length !== 0) throw notSnapshot(source, `"nodes" does not hold whole nodes`);
  if (edges.length % edgeFields.length !== 0) throw notSnapshot(source, `"edges" does not hold whole edges`);
  const nodeCount = nodes.length / nodeFields.length;
  if (parts.nodeCount !== undefined && parts.nodeCount !== nodeCount) {
    throw notSnapshot(source, `snapshot.node_count is ${String(parts.nodeCount)} but "nodes" holds ${nodeCount} (truncated?)`);
  }
  const graph: HeapGraph = {
    nodes,
    edges,
    strings: parts.strings as string[],
    nodeTypes,
    edgeTypes,
    nodeFields: nodeFields.length,
    edgeFields: edgeFields.length,
    typeAt: field(nodeFields, 'type'),
    nameAt: field(nodeFields, 'name'),
    selfSizeAt: field(nodeFields, 'self_size'),
    edgeCountAt: field(nodeFields, 'edge_count'),
    edgeTypeAt: field(edgeFields, 'type'),
    edgeNameAt: field(edgeFields, 'name_or_index'),
    edgeToAt: field(edgeFields, 'to_node'),
    nodeCount,
    edgeCount: edges.length / edgeFields.length,
    firstEdge: new Uint32Array(nodeCount + 1),
  };
  checkGraph(graph, source);
  return graph;
}

/** Checks every index the analysis follows, so a corrupt file fails here and not as a wrong answer. */
function checkGraph(g: HeapGraph, source: string): void {
  const { nodes, edges, firstEdge, nodeFields, edgeFields } = g;
  for (let n = 0; n < g.nodeCount; n++) {
    const at = n * nodeFields;
    if (nodes[at + g.typeAt]! >= g.nodeTypes.length) throw notSnapshot(source, `node ${n} has an unknown type`);
    if (nodes[at + g.nameAt]! >= g.strings.length) throw notSnapshot(source, `node ${n} names a missing string`);
    firstEdge[n + 1] = firstEdge[n]! + nodes[at + g.edgeCountAt]!;
  }
  if (firstEdge[g.nodeCount] !== g.edgeCount) {
    throw notSnapshot(source, `the nodes' edge counts add up to ${firstEdge[g.nodeCount]} but "edges" holds ${g.edgeCount}`);
  }
  const numbered = numberedEdgeTypes(g);
  for (let e = 0; e < g.edgeCount; e++) {
    const at = e * edgeFields;
    const type = edges[at + g.edgeTypeAt]!;
    const to = edges[at + g.edgeToAt]!;
    if (type >= g.edgeTypes.length) throw notSnapshot(source, `edge ${e} has an unknown type`);
    if (to % nodeFields !== 0 || to >= nodes.length) throw notSnapshot(source, `edge ${e} points at no node`);
    if (!numbered[type] && edges[at + g.edgeNameAt]! >= g.strings.length) throw notSnapshot(source, `edge ${e} names a missing string`);
  }
}

/** Element and hidden edges carry an index; the others a string (V8's serializer, DevTools' reader). */
function numberedEdgeTypes(g: HeapGraph): boolean[] {
  return g.edgeTypes.map((t) => t === 'element' || t === 'hidden');
}

function typeNames(value: unknown, what: string, source: string): string[] {
  const first: unknown = Array.isArray(value) ? value[0] : undefined;
  return stringList(first, `snapshot.meta.${what}[0]`, source);
}

function stringList(value: unknown, what: string, source: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw notSnapshot(source, `${what} is not a list of names`);
  return value as string[];
}

function toUint32(values: unknown, what: string, source: string): Uint32Array {
  if (values instanceof Uint32Array) return values;
  if (!isRecord(values) && !Array.isArray(values)) throw notSnapshot(source, `no "${what}" array`);
  const list = values as ArrayLike<unknown>;
  if (typeof list.length !== 'number') throw notSnapshot(source, `no "${what}" array`);
  const out = new Uint32Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (typeof v !== 'number' || !(v >= 0 && v <= NONE) || !Number.isInteger(v)) {
      throw notSnapshot(source, `${what}[${i}] is not a non-negative 32-bit integer`);
    }
    out[i] = v;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Summary

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

const selfSize = (g: HeapGraph, n: number): number => g.nodes[n * g.nodeFields + g.selfSizeAt]!;
const nodeType = (g: HeapGraph, n: number): string => g.nodeTypes[g.nodes[n * g.nodeFields + g.typeAt]!]!;
const nodeName = (g: HeapGraph, n: number): string => g.strings[g.nodes[n * g.nodeFields + g.nameAt]!]!;
const edgeTarget = (g: HeapGraph, e: number): number => g.edges[e * g.edgeFields + g.edgeToAt]! / g.nodeFields;

/**
 * The edges that keep their target alive, as DevTools counts them: weak edges do not, and shortcut
 * edges only from the root (where they mark the user roots); elsewhere they duplicate a longer path.
 */
function strongEdgeTest(g: HeapGraph): (from: number, type: number) => boolean {
  const weak = g.edgeTypes.indexOf('weak');
  const shortcut = g.edgeTypes.indexOf('shortcut');
  return (from, type) => type !== weak && (type !== shortcut || from === 0);
}

interface DepthFirstOrder {
  /** Postorder number → node ordinal; the root (ordinal 0) is last. */
  nodeAt: Uint32Array;
  /** Node ordinal → postorder number. */
  numberOf: Uint32Array;
  /** Per node ordinal: reached from the root through strong edges. */
  reached: Uint8Array;
}

/**
 * An iterative depth-first walk from the root over strong edges. Nodes the root cannot reach that
 * way (held only by weak edges) are treated as held by the root itself: walked after the root's own
 * edges (as DevTools walks weak-only nodes), so they number below the root, and then dominated by the
 * root directly, so a weak holder never retains them.
 */
function depthFirstOrder(g: HeapGraph): DepthFirstOrder {
  const n = g.nodeCount;
  const strong = strongEdgeTest(g);
  const nodeAt = new Uint32Array(n);
  const numberOf = new Uint32Array(n);
  const seen = new Uint8Array(n);
  const stackNode = new Uint32Array(n);
  const stackEdge = new Uint32Array(n);
  let top = 0;
  let next = 0;
  let unvisited = 1;
  let reached: Uint8Array | null = null;
  stackNode[0] = 0;
  stackEdge[0] = g.firstEdge[0]!;
  seen[0] = 1;
  while (top >= 0) {
    const node = stackNode[top]!;
    const e = stackEdge[top]!;
    if (e < g.firstEdge[node + 1]!) {
      stackEdge[top] = e + 1;
      const to = edgeTarget(g, e);
      if (seen[to] || !strong(node, g.edges[e * g.edgeFields + g.edgeTypeAt]!)) continue;
      seen[to] = 1;
      stackNode[++top] = to;
      stackEdge[top] = g.firstEdge[to]!;
      continue;
    }
    if (top === 0) {
      reached ??= seen.slice();
      while (unvisited < n && seen[unvisited]) unvisited++;
      if (unvisited < n) {
        seen[unvisited] = 1;
        stackNode[++top] = unvisited;
        stackEdge[top] = g.firstEdge[unvisited]!;
        continue;
      }
    }
    nodeAt[next] = node;
    numberOf[node] = next++;
    top--;
  }
  return { nodeAt, numberOf, reached: reached ?? seen };
}

/**
 * Immediate dominators by the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
 * Dominance Algorithm"), on postorder numbers so the intersection walks compare integers. Returns, per
 * postorder number, the postorder number of the immediate dominator (the root's is itself).
 */
function immediateDominators(g: HeapGraph, order: DepthFirstOrder): Uint32Array {
  const n = g.nodeCount;
  const root = n - 1;
  const { start, from } = strongPredecessors(g, order);
  const idom = new Uint32Array(n).fill(NONE);
  idom[root] = root;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (a < b) a = idom[a]!;
      while (b < a) b = idom[b]!;
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let v = root - 1; v >= 0; v--) {
      let best = order.reached[order.nodeAt[v]!] ? NONE : root;
      for (let i = start[v]!; i < start[v + 1]! && best !== root; i++) {
        const p = from[i]!;
        if (idom[p] !== NONE) best = best === NONE ? p : intersect(best, p);
      }
      if (idom[v] !== best) {
        idom[v] = best;
        changed = true;
      }
    }
  }
  return idom;
}

/** The strong retainers of every node, by postorder number, in compressed rows. */
function strongPredecessors(g: HeapGraph, order: DepthFirstOrder): { start: Uint32Array; from: Uint32Array } {
  const strong = strongEdgeTest(g);
  const start = new Uint32Array(g.nodeCount + 1);
  const forEachStrongEdge = (visit: (from: number, to: number) => void) => {
    for (let node = 0; node < g.nodeCount; node++) {
      for (let e = g.firstEdge[node]!; e < g.firstEdge[node + 1]!; e++) {
        if (strong(node, g.edges[e * g.edgeFields + g.edgeTypeAt]!)) visit(order.numberOf[node]!, order.numberOf[edgeTarget(g, e)]!);
      }
    }
  };
  forEachStrongEdge((_, to) => start[to + 1]!++);
  for (let v = 0; v < g.nodeCount; v++) start[v + 1]! += start[v]!;
  const from = new Uint32Array(start[g.nodeCount]!);
  const fill = start.slice(0, g.nodeCount);
  forEachStrongEdge((p, to) => (from[fill[to]!++] = p));
  return { start, from };
}

/** Retained size per postorder number: a dominator comes after all it dominates, so one pass adds up. */
function retainedSizes(g: HeapGraph, order: DepthFirstOrder, idom: Uint32Array): Float64Array {
  const n = g.nodeCount;
  const retained = new Float64Array(n);
  for (let v = 0; v < n; v++) retained[v] = selfSize(g, order.nodeAt[v]!);
  for (let v = 0; v < n - 1; v++) retained[idom[v]!]! += retained[v]!;
  return retained;
}

interface NodeClasses {
  /** Per node ordinal, its class id. */
  classOf: Uint32Array;
  names: string[];
  /** Per node ordinal: counted in the summary (DevTools leaves out empty nodes, except native ones). */
  counted: Uint8Array;
}

/** DevTools' grouping: objects and natives by name, other types by a group named after the type. */
function classifyNodes(g: HeapGraph): NodeClasses {
  const names: string[] = [];
  const ids = new Map<string, number>();
  const idOf = (name: string) => {
    let id = ids.get(name);
    if (id === undefined) ids.set(name, (id = names.push(name) - 1));
    return id;
  };
  const byType = g.nodeTypes.map((t) => (t === 'object' || t === 'native' ? -1 : idOf(typeGroup(t))));
  const byString = new Int32Array(g.strings.length).fill(-1);
  const classOf = new Uint32Array(g.nodeCount);
  const counted = new Uint8Array(g.nodeCount);
  const native = g.nodeTypes.indexOf('native');
  for (let n = 0; n < g.nodeCount; n++) {
    const at = n * g.nodeFields;
    const type = g.nodes[at + g.typeAt]!;
    let id = byType[type]!;
    if (id < 0) {
      const name = g.nodes[at + g.nameAt]!;
      if (byString[name]! < 0) byString[name] = idOf(g.strings[name]!);
      id = byString[name]!;
    }
    classOf[n] = id;
    counted[n] = g.nodes[at + g.selfSizeAt]! > 0 || type === native ? 1 : 0;
  }
  return { classOf, names, counted };
}

function typeGroup(type: string): string {
  if (type === 'hidden') return '(system)';
  if (type === 'code') return '(compiled code)';
  return `(${type})`;
}

interface ClassRow {
  classIndex: number;
  name: string;
  count: number;
  selfSize: number;
  retainedSize: number;
  /** Node ordinal of the instance with the largest retained size. */
  largest: number;
  largestRetained: number;
}

function aggregateClasses(g: HeapGraph, classes: NodeClasses, retained: Float64Array, order: DepthFirstOrder): ClassRow[] {
  const rows: ClassRow[] = classes.names.map((name, classIndex) => ({
    classIndex,
    name,
    count: 0,
    selfSize: 0,
    retainedSize: 0,
    largest: -1,
    largestRetained: -1,
  }));
  for (let n = 0; n < g.nodeCount; n++) {
    if (!classes.counted[n]) continue;
    const row = rows[classes.classOf[n]!]!;
    row.count++;
    row.selfSize += selfSize(g, n);
    const r = retained[order.numberOf[n]!]!;
    if (r > row.largestRetained) {
      row.largest = n;
      row.largestRetained = r;
    }
  }
  return rows;
}

/**
 * A class's retained size: a walk down the dominator tree adds an instance's retained size only when
 * no instance of its class is above it, so nested instances (a linked list) count once.
 */
function addClassRetainedSizes(g: HeapGraph, classes: NodeClasses, order: DepthFirstOrder, idom: Uint32Array, retained: Float64Array, rows: ClassRow[]): void {
  const n = g.nodeCount;
  const { start, child } = dominatorChildren(idom);
  const open = new Uint32Array(rows.length);
  const stackNode = new Uint32Array(n);
  const stackNext = new Uint32Array(n);
  const enter = (v: number, depth: number) => {
    stackNode[depth] = v;
    stackNext[depth] = start[v]!;
    const node = order.nodeAt[v]!;
    if (!classes.counted[node]) return;
    const c = classes.classOf[node]!;
    if (open[c]!++ === 0) rows[c]!.retainedSize += retained[v]!;
  };
  const leave = (v: number) => {
    const node = order.nodeAt[v]!;
    if (classes.counted[node]) open[classes.classOf[node]!]!--;
  };
  let top = 0;
  enter(n - 1, 0);
  while (top >= 0) {
    const v = stackNode[top]!;
    const i = stackNext[top]!;
    if (i < start[v + 1]!) {
      stackNext[top] = i + 1;
      enter(child[i]!, ++top);
    } else {
      leave(v);
      top--;
    }
  }
}

/** The dominator tree's children per postorder number, in compressed rows. */
function dominatorChildren(idom: Uint32Array): { start: Uint32Array; child: Uint32Array } {
  const n = idom.length;
  const start = new Uint32Array(n + 1);
  for (let v = 0; v < n - 1; v++) start[idom[v]! + 1]!++;
  for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
  const child = new Uint32Array(Math.max(0, n - 1));
  const fill = start.slice(0, n);
  for (let v = 0; v < n - 1; v++) child[fill[idom[v]!]!++] = v;
  return { start, child };
}

// ---------------------------------------------------------------------------------------------
// Retainer paths

/**
 * Shortest paths from the root by breadth-first search over strong edges, shortcut edges left out;
 * a second pass from the same frontier admits shortcut edges for what only they reach. Weak edges
 * never count: a node held only by them has no path.
 */
class RetainerPaths {
  private parentEdge: Int32Array | null = null;
  private parentNode: Int32Array | null = null;

  constructor(
    private readonly g: HeapGraph,
    private readonly classes: NodeClasses,
  ) {}

  pathTo(node: number): string[] | null {
    if (node < 0) return null;
    const parentNode = this.search();
    if (node !== 0 && parentNode[node]! < 0) return null;
    // Each step is a holder and the edge it holds the next one by, the last the instance's class.
    const steps = [this.classes.names[this.classes.classOf[node]!]!];
    for (let at = node; parentNode[at] !== 0; at = parentNode[at]!) {
      steps.push(this.label(parentNode[at]!) + this.edgeLabel(this.parentEdge![at]!));
    }
    steps.reverse();
    return steps.length <= MAX_PATH_STEPS ? steps : [...steps.slice(0, 5), '…', ...steps.slice(steps.length - (MAX_PATH_STEPS - 6))];
  }

  /**
   * Per class, the largest instance of those held by the holder that holds the most of them: for a
   * leak, the list it piles up in (the largest instance overall is often an unrelated one, such as
   * a big I/O buffer beside thousands of small leaked ones). Ties go to the larger instance.
   */
  instancesOfBusiestHolders(classIndexes: ReadonlySet<number>, retainedOf: (node: number) => number): Map<number, number> {
    const parentNode = this.search();
    type Held = { count: number; instance: number; retained: number };
    const held = new Map<number, Map<number, Held>>();
    for (let n = 1; n < this.g.nodeCount; n++) {
      const classIndex = this.classes.classOf[n]!;
      const holder = parentNode[n]!;
      if (!this.classes.counted[n] || holder < 0 || !classIndexes.has(classIndex)) continue;
      let byHolder = held.get(classIndex);
      if (!byHolder) held.set(classIndex, (byHolder = new Map()));
      const retained = retainedOf(n);
      const entry = byHolder.get(holder);
      if (!entry) byHolder.set(holder, { count: 1, instance: n, retained });
      else {
        entry.count++;
        if (retained > entry.retained) Object.assign(entry, { instance: n, retained });
      }
    }
    const instances = new Map<number, number>();
    for (const [classIndex, byHolder] of held) {
      let best: Held = { count: 0, instance: -1, retained: -1 };
      for (const entry of byHolder.values()) if (entry.count > best.count || (entry.count === best.count && entry.retained > best.retained)) best = entry;
      instances.set(classIndex, best.instance);
    }
    return instances;
  }

  private search(): Int32Array {
    if (this.parentNode) return this.parentNode;
    const g = this.g;
    const weak = g.edgeTypes.indexOf('weak');
    const shortcut = g.edgeTypes.indexOf('shortcut');
    const parentNode = new Int32Array(g.nodeCount).fill(-1);
    const parentEdge = new Int32Array(g.nodeCount).fill(-1);
    const queue = new Uint32Array(g.nodeCount);
    let tail = 1;
    parentNode[0] = 0;
    for (const allowShortcut of [false, true]) {
      if (allowShortcut && tail === g.nodeCount) break;
      for (let head = 0; head < tail; head++) {
        const node = queue[head]!;
        for (let e = g.firstEdge[node]!; e < g.firstEdge[node + 1]!; e++) {
          const type = g.edges[e * g.edgeFields + g.edgeTypeAt]!;
          const to = edgeTarget(g, e);
          if (type === weak || (type === shortcut && !allowShortcut) || parentNode[to]! >= 0) continue;
          parentNode[to] = node;
          parentEdge[to] = e;
          queue[tail++] = to;
        }
      }
    }
    this.parentEdge = parentEdge;
    return (this.parentNode = parentNode);
  }

  /** A holder as a reader knows it: the class, but the own name of root groups and V8 internals. */
  private label(node: number): string {
    const type = nodeType(this.g, node);
    const name = nodeName(this.g, node);
    if ((type === 'synthetic' || type === 'hidden') && name !== '') return name;
    return this.classes.names[this.classes.classOf[node]!]!;
  }

  private edgeLabel(e: number): string {
    const g = this.g;
    const at = e * g.edgeFields;
    const type = g.edgeTypes[g.edges[at + g.edgeTypeAt]!]!;
    const name = g.edges[at + g.edgeNameAt]!;
    if (type === 'element' || type === 'hidden') return `[${name}]`;
    // V8 names some internal edges by a slot number.
    const text = g.strings[name]!;
    return /^\d+$/.test(text) ? `[${text}]` : `.${text}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Streaming reader

/** Summarises a snapshot from chunks of its JSON text (any split), as summarizeHeapSnapshotFile reads it. */
export async function summarizeHeapSnapshotStream(
  chunks: AsyncIterable<Uint8Array | string>,
  source: string,
  options: { top?: number } = {},
): Promise<HeapSnapshotSummary> {
  const top = topOf(options.top);
  return summarizeGraph(await readHeapGraph(chunks, source), top);
}

/** Reads a snapshot from chunks of its JSON text into typed arrays. */
async function readHeapGraph(chunks: AsyncIterable<Uint8Array | string>, source: string): Promise<HeapGraph> {
  const reader = new SnapshotReader(source);
  for await (const chunk of chunks) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return buildGraph(reader.finish(), source);
}

// ---------------------------------------------------------------------------------------------
// Helpers

function topOf(top: number | undefined): number {
  if (top === undefined) return DEFAULT_TOP;
  if (!(top >= 0) || (!Number.isInteger(top) && top !== Infinity)) throw new GwprofError(`top must be a non-negative integer, got ${top}`);
  return top;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
