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
  type HeapSnapshotSummary,
  type RawHeapSnapshot,
} from './heap-snapshot.js';
import { byName, chunksOf, snapshotOf } from '../testing/snapshots.js';

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
