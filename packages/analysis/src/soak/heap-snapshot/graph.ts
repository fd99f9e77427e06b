/**
 * A heap snapshot's graph: nodes and edges as typed arrays with the field offsets of its meta,
 * checked index by index, read from chunks of the file's JSON text.
 */
import { SnapshotReader, isRecord, notSnapshot, type GraphParts } from '../heap-snapshot-reader.js';

/** No node: the typed arrays' empty value. */
export const NONE = 0xffffffff;

export interface HeapGraph {
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

export function buildGraph(parts: GraphParts, source: string): HeapGraph {
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
export function checkGraph(g: HeapGraph, source: string): void {
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
export function numberedEdgeTypes(g: HeapGraph): boolean[] {
  return g.edgeTypes.map((t) => t === 'element' || t === 'hidden');
}

export function typeNames(value: unknown, what: string, source: string): string[] {
  const first: unknown = Array.isArray(value) ? value[0] : undefined;
  return stringList(first, `snapshot.meta.${what}[0]`, source);
}

export function stringList(value: unknown, what: string, source: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw notSnapshot(source, `${what} is not a list of names`);
  return value as string[];
}

export function toUint32(values: unknown, what: string, source: string): Uint32Array {
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

export const selfSize = (g: HeapGraph, n: number): number => g.nodes[n * g.nodeFields + g.selfSizeAt]!;
export const nodeType = (g: HeapGraph, n: number): string => g.nodeTypes[g.nodes[n * g.nodeFields + g.typeAt]!]!;
export const nodeName = (g: HeapGraph, n: number): string => g.strings[g.nodes[n * g.nodeFields + g.nameAt]!]!;
export const edgeTarget = (g: HeapGraph, e: number): number => g.edges[e * g.edgeFields + g.edgeToAt]! / g.nodeFields;

/**
 * The edges that keep their target alive, as DevTools counts them: weak edges do not, and shortcut
 * edges only from the root (where they mark the user roots); elsewhere they duplicate a longer path.
 */
export function strongEdgeTest(g: HeapGraph): (from: number, type: number) => boolean {
  const weak = g.edgeTypes.indexOf('weak');
  const shortcut = g.edgeTypes.indexOf('shortcut');
  return (from, type) => type !== weak && (type !== shortcut || from === 0);
}

/** Reads a snapshot from chunks of its JSON text into typed arrays. */
export async function readHeapGraph(chunks: AsyncIterable<Uint8Array | string>, source: string): Promise<HeapGraph> {
  const reader = new SnapshotReader(source);
  for await (const chunk of chunks) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return buildGraph(reader.finish(), source);
}
