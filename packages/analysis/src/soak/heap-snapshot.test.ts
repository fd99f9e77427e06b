import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GwprofError } from '@gwprof/results';
import {
  growingClasses,
  summarizeHeapSnapshot,
  summarizeHeapSnapshotFile,
  summarizeHeapSnapshotStream,
  type HeapClassSummary,
  type HeapSnapshotSummary,
  type RawHeapSnapshot,
} from './heap-snapshot.js';
import { mulberry32 } from '../random.js';

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

type NodeSpec = [type: string, name: string, selfSize: number];
/** [from, edge type, name (or index for element/hidden edges), to] */
type EdgeSpec = [from: number, type: string, name: string | number, to: number];

/** A snapshot in V8's layout; node 0 is the root. */
function snapshotOf(nodes: NodeSpec[], edges: EdgeSpec[]): RawHeapSnapshot {
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

const byName = (summary: HeapSnapshotSummary): Map<string, HeapClassSummary> => new Map(summary.classes.map((c) => [c.name, c]));
const retainedOf = (summary: HeapSnapshotSummary, name: string): number | undefined => byName(summary).get(name)?.retainedSize;

async function* chunksOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

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

describe('summarizeHeapSnapshotStream', () => {
  const graph = snapshotOf(
    [
      ['synthetic', '', 0],
      ['object', 'Quote"Back\\slash\nnew line', 10],
      ['object', 'ünïcødé €😀', 20],
      ['native', 'Buffer', 30],
      ['string', 'a "quoted" string', 5],
    ],
    [
      [0, 'element', 1, 1],
      [1, 'property', 'è"', 2],
      [1, 'internal', '12', 3],
      [3, 'property', 'text', 4],
    ],
  );
  // Keys in an order V8 never writes, other values to skip, and whitespace everywhere.
  const { snapshot, nodes, edges, strings } = graph;
  const reordered = { trace_tree: [[1, [2, 3]], { a: ']}"' }], strings, nodes, locations: [], snapshot, edges, samples: 'x', n: -1.5e3, t: true };
  const text = JSON.stringify(reordered, null, 2);
  const expected = summarizeHeapSnapshot(graph);

  it('reads any split of the text as JSON.parse does', async () => {
    expect(expected.classes.map((c) => c.name)).toContain('ünïcødé €😀');
    expect(byName(expected).get('Buffer')!.retainerPath).toEqual(['Quote"Back\\slash\nnew line[12]', 'Buffer']);
    for (const size of [1, 2, 3, 5, 7, 64, 1 << 20]) {
      expect(await summarizeHeapSnapshotStream(chunksOf(text, size), 'test')).toEqual(expected);
    }
    expect(await summarizeHeapSnapshotStream(chunksOf(JSON.stringify(graph), 4), 'test')).toEqual(expected);
  });

  it('rejects a truncated or malformed snapshot with a GwprofError', async () => {
    const compact = JSON.stringify(graph);
    const fails = (t: string) => expect(summarizeHeapSnapshotStream(chunksOf(t, 16), 'cut.heapsnapshot')).rejects.toThrow(GwprofError);
    await fails(compact.slice(0, compact.indexOf('"edges"') + 20));
    await fails(compact.slice(0, -3));
    await fails(compact.replace('"nodes":[', '"nodes":[-'));
    await fails(compact.replace('"edges":[', '"edges":[1,'));
    await fails('');
    await fails('[1, 2]');
    await expect(summarizeHeapSnapshotStream(chunksOf(compact.slice(0, -3), 16), 'cut.heapsnapshot')).rejects.toThrow(
      /cut\.heapsnapshot: not a V8 heap snapshot: .*truncated/,
    );
    expect(() => summarizeHeapSnapshot({ ...graph, nodes: [1, 2, 3] })).toThrow(GwprofError);
  });
});

// ---------------------------------------------------------------------------------------------
// Real snapshots, written by V8 in a child process

/** A store that leaks LeakyThings, 500 StableThings, a 2000-long list of ListNodes, and one big Piece beside 300 small ones in a list. */
const CHILD = `
const v8 = require('node:v8');
class LeakyThing { constructor() { this.payload = new Array(100).fill(0).map((_, i) => ({ i })); } }
class LeakyStore { constructor() { this.items = []; } }
class StableThing { constructor(i) { this.i = i; this.label = 'stable ' + i; } }
class ListNode { constructor(next) { this.next = next; this.data = new Array(20).fill(7); } }
const store = new LeakyStore();
for (let i = 0; i < Number(process.env.LEAKY_COUNT); i++) store.items.push(new LeakyThing());
const stable = [];
for (let i = 0; i < 500; i++) stable.push(new StableThing(i));
let head = null;
for (let i = 0; i < 2000; i++) head = new ListNode(head);
class Piece { constructor(n) { this.data = new Array(n).fill(1); } }
const big = { piece: new Piece(100000) };
const pieces = Array.from({ length: 300 }, () => new Piece(10));
globalThis.held = { store, stable, head, big, pieces };
v8.writeHeapSnapshot(process.env.SNAPSHOT_FILE);
`;

describe('summaries of real V8 heap snapshots', () => {
  const leaky = [1000, 2000, 3000];
  let dir = '';
  let files: string[] = [];
  let summaries: HeapSnapshotSummary[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gwprof-heap-'));
    files = leaky.map((n) => join(dir, `leak-${n}.heapsnapshot`));
    leaky.forEach((n, i) => {
      execFileSync(process.execPath, ['-e', CHILD], { env: { ...process.env, LEAKY_COUNT: String(n), SNAPSHOT_FILE: files[i] } });
    });
    summaries = await Promise.all(files.map((f) => summarizeHeapSnapshotFile(f)));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('counts every instance of a class, and its retained size covers what it holds', () => {
    const things = summaries.map((s) => byName(s).get('LeakyThing')!);
    expect(things.map((t) => t.count)).toEqual(leaky);
    for (const t of things) expect(t.retainedSize).toBeGreaterThan(20 * t.selfSize);
    // Linear in N: each thousand adds the same amount.
    const [r1, r2, r3] = things.map((t) => t.retainedSize) as [number, number, number];
    expect(r2 / r1).toBeCloseTo(2, 1);
    expect(r3 / r1).toBeCloseTo(3, 1);
    expect(byName(summaries[0]!).get('StableThing')!.count).toBe(500);
  });

  it('gives a retainer path from a GC root through the holder to the instance', () => {
    const path = byName(summaries[2]!).get('LeakyThing')!.retainerPath!;
    expect(path.at(-1)).toBe('LeakyThing');
    expect(path).toContain('LeakyStore.items');
    expect(path[0]).toMatch(/^\(GC roots\)/);
  });

  it('takes the path through the holder that holds the most instances, not to the largest one', () => {
    const path = byName(summaries[0]!).get('Piece')!.retainerPath!.join(' ');
    expect(path).toMatch(/\.pieces /);
    expect(path).not.toMatch(/\.big /);
  });

  it('counts the retained size of a linked list once, not once per node', () => {
    const summary = summaries[0]!;
    const list = byName(summary).get('ListNode')!;
    expect(list.count).toBe(2000);
    // Each node holds a 20-element array, so the head retains several times the nodes' own size;
    // summed over the nodes it would be about a thousand times more.
    expect(list.retainedSize).toBeGreaterThan(3 * list.selfSize);
    expect(list.retainedSize).toBeLessThan(20 * list.selfSize);
    expect(list.retainerPath!.at(-2)).toMatch(/\.head$/);
  });

  it('finds the leaking classes, and not the stable ones', () => {
    const growing = growingClasses(summaries);
    const names = growing.map((g) => g.name);
    expect(names.slice(0, 5)).toContain('LeakyThing');
    expect(names).toContain('LeakyStore');
    expect(names).not.toContain('StableThing');
    expect(names).not.toContain('ListNode');
    const thing = growing.find((g) => g.name === 'LeakyThing')!;
    expect(thing.counts).toEqual(leaky);
    expect(thing.growthBytes).toBe(thing.retainedSizes[2]! - thing.retainedSizes[0]!);
    expect(thing.retainerPath).toEqual(byName(summaries[2]!).get('LeakyThing')!.retainerPath);
  });

  it('reads a file in chunks exactly as JSON.parse reads it', async () => {
    const parsed = JSON.parse(readFileSync(files[0]!, 'utf8')) as RawHeapSnapshot;
    expect(summarizeHeapSnapshot(parsed)).toEqual(summaries[0]);
    expect(summaries[0]!.nodeCount).toBe(parsed.snapshot.node_count);
  });

  it('says when a file is missing or cut short', async () => {
    await expect(summarizeHeapSnapshotFile(join(dir, 'none.heapsnapshot'))).rejects.toThrow(/does not exist/);
    const cut = join(dir, 'cut.heapsnapshot');
    writeFileSync(cut, readFileSync(files[0]!).subarray(0, 100_000));
    await expect(summarizeHeapSnapshotFile(cut)).rejects.toThrow(GwprofError);
  });
});

// ---------------------------------------------------------------------------------------------
// The memtest rule

describe('growingClasses', () => {
  const MB = 1024 * 1024;
  const summary = (classes: Array<[string, number]>): HeapSnapshotSummary => ({
    nodeCount: 0,
    edgeCount: 0,
    totalSize: 0,
    classes: classes.map(([name, retainedSize]) => ({ name, count: 1, selfSize: 1, retainedSize, retainerPath: [name] })),
  });
  const series = [
    summary([
      ['Steady', 10 * MB],
      ['Leak', 3 * MB],
      ['Dip', 4 * MB],
      ['Small', 1000],
      ['Gone', 2 * MB],
    ]),
    summary([
      ['Steady', 10 * MB],
      ['Leak', 5 * MB],
      ['Dip', 3 * MB],
      ['Small', 2000],
      ['Late', 3 * MB],
    ]),
    summary([
      ['Steady', 10 * MB],
      ['Leak', 8 * MB],
      ['Dip', 9 * MB],
      ['Small', 3000],
      ['Late', 5 * MB],
      ['Gone', 9 * MB],
    ]),
  ];

  it('keeps classes that grew in every diff by more than the threshold, largest growth first', () => {
    const growing = growingClasses(series);
    expect(growing.map((g) => [g.name, g.growthBytes])).toEqual([
      ['Leak', 5 * MB],
      // Not in the first top list: it held at most that list's smallest retained size (1000 bytes).
      ['Late', 5 * MB - 1000],
    ]);
    expect(growing[1]!.retainedSizes).toEqual([null, 3 * MB, 5 * MB]);
    expect(growingClasses(series, { minGrowthBytes: 1000 }).map((g) => g.name)).toContain('Small');
  });

  it('needs at least three snapshots', () => {
    expect(() => growingClasses(series.slice(0, 2))).toThrow(GwprofError);
  });
});
