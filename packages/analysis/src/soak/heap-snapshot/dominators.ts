/** Depth-first order over strong edges, immediate dominators (Cooper, Harvey and Kennedy) and retained sizes. */
import { NONE, edgeTarget, selfSize, strongEdgeTest, type HeapGraph } from './graph.js';

export interface DepthFirstOrder {
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
export function depthFirstOrder(g: HeapGraph): DepthFirstOrder {
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
export function immediateDominators(g: HeapGraph, order: DepthFirstOrder): Uint32Array {
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
export function strongPredecessors(g: HeapGraph, order: DepthFirstOrder): { start: Uint32Array; from: Uint32Array } {
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
export function retainedSizes(g: HeapGraph, order: DepthFirstOrder, idom: Uint32Array): Float64Array {
  const n = g.nodeCount;
  const retained = new Float64Array(n);
  for (let v = 0; v < n; v++) retained[v] = selfSize(g, order.nodeAt[v]!);
  for (let v = 0; v < n - 1; v++) retained[idom[v]!]! += retained[v]!;
  return retained;
}

/** The dominator tree's children per postorder number, in compressed rows. */
export function dominatorChildren(idom: Uint32Array): { start: Uint32Array; child: Uint32Array } {
  const n = idom.length;
  const start = new Uint32Array(n + 1);
  for (let v = 0; v < n - 1; v++) start[idom[v]! + 1]!++;
  for (let v = 0; v < n; v++) start[v + 1]! += start[v]!;
  const child = new Uint32Array(Math.max(0, n - 1));
  const fill = start.slice(0, n);
  for (let v = 0; v < n - 1; v++) child[fill[idom[v]!]!++] = v;
  return { start, child };
}
