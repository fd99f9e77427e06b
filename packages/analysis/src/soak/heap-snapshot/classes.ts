/** Nodes grouped by class the way DevTools' Summary view groups them, with counts, self and retained sizes. */
import { dominatorChildren, type DepthFirstOrder } from './dominators.js';
import { selfSize, type HeapGraph } from './graph.js';

export interface NodeClasses {
  /** Per node ordinal, its class id. */
  classOf: Uint32Array;
  names: string[];
  /** Per node ordinal: counted in the summary (DevTools leaves out empty nodes, except native ones). */
  counted: Uint8Array;
}

/** DevTools' grouping: objects and natives by name, other types by a group named after the type. */
export function classifyNodes(g: HeapGraph): NodeClasses {
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

export function typeGroup(type: string): string {
  if (type === 'hidden') return '(system)';
  if (type === 'code') return '(compiled code)';
  return `(${type})`;
}

export interface ClassRow {
  classIndex: number;
  name: string;
  count: number;
  selfSize: number;
  retainedSize: number;
  /** Node ordinal of the instance with the largest retained size. */
  largest: number;
  largestRetained: number;
}

export function aggregateClasses(g: HeapGraph, classes: NodeClasses, retained: Float64Array, order: DepthFirstOrder): ClassRow[] {
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
export function addClassRetainedSizes(
  g: HeapGraph,
  classes: NodeClasses,
  order: DepthFirstOrder,
  idom: Uint32Array,
  retained: Float64Array,
  rows: ClassRow[],
): void {
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
