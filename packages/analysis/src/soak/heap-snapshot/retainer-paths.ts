/** One retainer path per class: the path to an instance held by the holder that holds the most of them. */
import type { NodeClasses } from './classes.js';
import { edgeTarget, nodeName, nodeType, type HeapGraph } from './graph.js';

const MAX_PATH_STEPS = 12;

/**
 * Shortest paths from the root by breadth-first search over strong edges, shortcut edges left out;
 * a second pass from the same frontier admits shortcut edges for what only they reach. Weak edges
 * never count: a node held only by them has no path.
 */
export class RetainerPaths {
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
