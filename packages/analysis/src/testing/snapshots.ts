/** Hand-written heap snapshots in V8's layout, for the snapshot tests. */
import type { HeapClassSummary, HeapSnapshotSummary, RawHeapSnapshot } from '../soak/heap-snapshot.js';

// ---------------------------------------------------------------------------------------------
// Hand-written snapshots

const NODE_TYPES = [
  'hidden',
  'array',
  'string',
  'object',
  'code',
  'closure',
  'regexp',
  'number',
  'native',
  'synthetic',
  'concatenated string',
  'sliced string',
  'symbol',
  'bigint',
  'object shape',
];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];

export type NodeSpec = [type: string, name: string, selfSize: number];
/** [from, edge type, name (or index for element/hidden edges), to] */
export type EdgeSpec = [from: number, type: string, name: string | number, to: number];

/** A snapshot in V8's layout; node 0 is the root. */
export function snapshotOf(nodes: NodeSpec[], edges: EdgeSpec[]): RawHeapSnapshot {
  const strings: string[] = [];
  const stringId = (s: string) => (strings.includes(s) ? strings.indexOf(s) : strings.push(s) - 1);
  const flatNodes: number[] = [];
  nodes.forEach(([type, name, size], n) => {
    const edgeCount = edges.filter(([from]) => from === n).length;
    flatNodes.push(NODE_TYPES.indexOf(type), stringId(name), n * 2 + 1, size, edgeCount, 0, 0);
  });
  const flatEdges: number[] = [];
  for (let n = 0; n < nodes.length; n++) {
    for (const [from, type, name, to] of edges) {
      if (from !== n) continue;
      flatEdges.push(EDGE_TYPES.indexOf(type), typeof name === 'number' ? name : stringId(name), to * 7);
    }
  }
  return {
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
        node_types: [NODE_TYPES, 'string', 'number', 'number', 'number', 'number', 'number'],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [EDGE_TYPES, 'string_or_number', 'node'],
      },
      node_count: nodes.length,
      edge_count: flatEdges.length / 3,
    },
    nodes: flatNodes,
    edges: flatEdges,
    strings,
  };
}

export const byName = (summary: HeapSnapshotSummary): Map<string, HeapClassSummary> => new Map(summary.classes.map((c) => [c.name, c]));
export const retainedOf = (summary: HeapSnapshotSummary, name: string): number | undefined => byName(summary).get(name)?.retainedSize;

export async function* chunksOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
