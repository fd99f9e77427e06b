import { describe, expect, it } from 'vitest';
import { summarizeHeapSnapshot } from './heap-snapshot.js';
import { mulberry32 } from '../random.js';
import { byName, retainedOf, snapshotOf, type EdgeSpec, type NodeSpec } from '../testing/snapshots.js';

describe('summarizeHeapSnapshot on hand-written graphs', () => {
  // root ─ A ─left→ L ─join→ J        root ─ B ┄weak┄→ W (held by nothing else)
  //          ─right→ R ─join→ J                 ┄weak┄→ T (also held strongly, through S)
  //          ─solo→ S ─next→ T
  const graph = snapshotOf(
    [
      ['synthetic', '', 0],
      ['object', 'A', 10],
      ['object', 'L', 20],
      ['object', 'R', 30],
      ['object', 'J', 40],
      ['object', 'S', 50],
      ['object', 'T', 60],
      ['object', 'B', 5],
      ['object', 'W', 70],
    ],
    [
      [0, 'element', 1, 1],
      [0, 'element', 2, 7],
      [1, 'property', 'left', 2],
      [1, 'property', 'right', 3],
      [1, 'property', 'solo', 5],
      [2, 'property', 'join', 4],
      [3, 'property', 'join', 4],
      [5, 'property', 'next', 6],
      [7, 'weak', 'w', 8],
      [7, 'weak', 't', 6],
    ],
  );
  const summary = summarizeHeapSnapshot(graph);

  it('gives each node the retained size of its dominator subtree', () => {
    expect(Object.fromEntries(summary.classes.map((c) => [c.name, c.retainedSize]))).toEqual({
      A: 10 + 20 + 30 + 40 + 50 + 60,
      S: 50 + 60,
      W: 70,
      T: 60,
      J: 40,
      R: 30,
      L: 20,
      B: 5,
    });
    expect(summary).toMatchObject({ nodeCount: 9, edgeCount: 10, totalSize: 285 });
  });

  it('lets the fork of a diamond dominate the join, not either branch', () => {
    expect(retainedOf(summary, 'L')).toBe(20);
    expect(retainedOf(summary, 'R')).toBe(30);
    expect(retainedOf(summary, 'A')).toBe(210);
  });

  it('does not let weak edges retain, nor make a path', () => {
    expect(retainedOf(summary, 'B')).toBe(5);
    expect(byName(summary).get('W')!.retainerPath).toBeNull();
  });

  it('gives a shortest strong path, each step a holder and its edge', () => {
    const paths = Object.fromEntries(summary.classes.map((c) => [c.name, c.retainerPath]));
    expect(paths.J).toEqual(['A.left', 'L.join', 'J']);
    expect(paths.T).toEqual(['A.solo', 'S.next', 'T']);
    expect(paths.A).toEqual(['A']);
  });

  it('counts nested instances of a class once, and sorts and cuts by retained size', () => {
    // root → Item → Item → Item, each Item holding a Payload of 100 bytes
    const list = snapshotOf(
      [
        ['synthetic', '', 0],
        ['object', 'Item', 10],
        ['object', 'Item', 10],
        ['object', 'Item', 10],
        ['object', 'Payload', 100],
        ['object', 'Payload', 100],
        ['object', 'Payload', 100],
        ['array', '', 8],
      ],
      [
        [0, 'element', 1, 1],
        [1, 'property', 'next', 2],
        [2, 'property', 'next', 3],
        [1, 'property', 'payload', 4],
        [2, 'property', 'payload', 5],
        [3, 'property', 'payload', 6],
        [0, 'element', 2, 7],
      ],
    );
    const s = summarizeHeapSnapshot(list);
    expect(s.classes).toEqual([
      { name: 'Item', count: 3, selfSize: 30, retainedSize: 330, retainerPath: ['Item'] },
      { name: 'Payload', count: 3, selfSize: 300, retainedSize: 300, retainerPath: ['Item.payload', 'Payload'] },
      { name: '(array)', count: 1, selfSize: 8, retainedSize: 8, retainerPath: ['(array)'] },
    ]);
    expect(summarizeHeapSnapshot(list, { top: 1 }).classes.map((c) => c.name)).toEqual(['Item']);
  });

  it("groups nodes by DevTools' constructor names and leaves out empty ones", () => {
    const types = ['hidden', 'array', 'string', 'code', 'closure', 'regexp', 'number', 'concatenated string', 'sliced string', 'object shape'];
    const g = snapshotOf(
      [['synthetic', '', 0], ['native', 'Buffer', 0], ['object', 'Empty', 0], ...types.map((t): NodeSpec => [t, 'x', 1])],
      [[0, 'element', 1, 1], [0, 'element', 2, 2], ...types.map((_, i): EdgeSpec => [0, 'element', i + 3, i + 3])],
    );
    expect(
      summarizeHeapSnapshot(g)
        .classes.map((c) => c.name)
        .sort(),
    ).toEqual(
      [
        '(system)',
        '(array)',
        '(string)',
        '(compiled code)',
        '(closure)',
        '(regexp)',
        '(number)',
        '(concatenated string)',
        '(sliced string)',
        '(object shape)',
        'Buffer',
      ].sort(),
    );
  });

  it('elides the middle of a long path', () => {
    const n = 20;
    const chain = snapshotOf(
      [['synthetic', '', 0], ...Array.from({ length: n }, (_, i): NodeSpec => ['object', `C${i}`, 1])],
      [[0, 'element', 1, 1], ...Array.from({ length: n - 1 }, (_, i): EdgeSpec => [i + 1, 'property', 'next', i + 2])],
    );
    const path = byName(summarizeHeapSnapshot(chain)).get(`C${n - 1}`)!.retainerPath!;
    expect(path).toHaveLength(12);
    expect(path.slice(0, 2)).toEqual(['C0.next', 'C1.next']);
    expect(path[5]).toBe('…');
    expect(path.slice(-2)).toEqual([`C${n - 2}.next`, `C${n - 1}`]);
  });

  it('agrees with dominators computed by brute force on random graphs', () => {
    const random = mulberry32(7);
    for (let round = 0; round < 40; round++) {
      const n = 2 + Math.floor(random() * 30);
      const nodes: NodeSpec[] = [
        ['synthetic', '', 0],
        ...Array.from({ length: n - 1 }, (_, i): NodeSpec => ['object', `N${i + 1}`, 1 + Math.floor(random() * 100)]),
      ];
      const edges: EdgeSpec[] = [];
      const edgeCount = Math.floor(random() * n * 2.5);
      for (let e = 0; e < edgeCount; e++) {
        const r = random();
        const type = r < 0.15 ? 'weak' : r < 0.25 ? 'shortcut' : 'property';
        edges.push([Math.floor(random() * n), type, `e${e}`, 1 + Math.floor(random() * (n - 1))]);
      }
      const got = Object.fromEntries(summarizeHeapSnapshot(snapshotOf(nodes, edges), { top: Infinity }).classes.map((c) => [c.name, c.retainedSize]));
      expect(got).toEqual(bruteForceRetained(nodes, edges));
    }
  });
});

/**
 * Retained sizes from the definition: d retains v when v cannot be reached from the root without
 * passing d. Edges as the summary counts them (no weak edges, shortcut edges only from the root),
 * and nodes the root cannot reach held by the root directly.
 */
function bruteForceRetained(nodes: NodeSpec[], edges: EdgeSpec[]): Record<string, number> {
  const strong = edges.filter(([from, type]) => type !== 'weak' && (type !== 'shortcut' || from === 0));
  const reach = (without: number, extra: Array<[number, number]>): Set<number> => {
    const seen = new Set([0]);
    const todo = [0];
    const all = [...strong.map(([from, , , to]): [number, number] => [from, to]), ...extra];
    while (todo.length) {
      const at = todo.pop()!;
      for (const [from, to] of all)
        if (from === at && to !== without && !seen.has(to)) {
          todo.push(to);
          seen.add(to);
        }
    }
    return seen;
  };
  const fromRoot = reach(-1, []);
  const virtual = nodes.map((_, v): [number, number] => [0, v]).filter(([, v]) => !fromRoot.has(v));
  const out: Record<string, number> = {};
  for (let d = 1; d < nodes.length; d++) {
    const left = reach(d, virtual);
    out[nodes[d]![1]] = nodes.reduce((sum, [, , size], v) => sum + (v === d || !left.has(v) ? size : 0), 0);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The streaming reader
