import { describe, expect, it } from 'vitest';
import { GwprofError } from '@gwprof/results';
import { allocationsByFunction, analyzeAllocations, diffAllocations, mergeHeapProfiles, parseHeapProfile, placeByAttribution } from './allocations.js';
import { frame, heapProfileOf } from '../testing/profiles.js';

const pnpm = (pkg: string, file: string) => `file:///gw/node_modules/.pnpm/${pkg.replace('/', '+')}@1.0.0/node_modules/${pkg}/${file}`;
const ticks = frame('processTicksAndRejections', 'node:internal/process/task_queues');
const parse = frame('parse', pnpm('graphql', 'language/parser.js'), 10);
const lexer = frame('readToken', pnpm('graphql', 'language/lexer.js'), 20);
const execute = frame('executeFields', pnpm('graphql', 'execution/execute.js'), 30);
const fetchBody = frame('ClientRequest', 'node:_http_client', 40);
const mine = frame('buildCacheKey', '/srv/gw/cache.js', 50);

const profile = heapProfileOf([
  { stack: [parse, lexer], bytes: 3000 },
  { stack: [parse], bytes: 1000 },
  { stack: [ticks, execute, mine], bytes: 4000 },
  { stack: [fetchBody], bytes: 1500 },
  { stack: [mine], bytes: 500 },
]);

describe('placeByAttribution', () => {
  // In the window, V8 inlined buildCacheKey into executeFields: its bytes were charged there. With
  // inlining off it has its own frame, and the profile allocated a little more (no escape analysis
  // across the call).
  const inlined = heapProfileOf([
    { stack: [parse], bytes: 2000 },
    { stack: [ticks, execute], bytes: 8000 },
  ]);
  const notInlined = heapProfileOf([
    { stack: [parse], bytes: 2200 },
    { stack: [ticks, execute], bytes: 1100 },
    { stack: [ticks, execute, mine], bytes: 7700 },
  ]);

  it("keeps the window's total and places it by the inlining-off frames", () => {
    const placed = placeByAttribution(analyzeAllocations(inlined), analyzeAllocations(notInlined));
    expect(placed.bytes).toBe(10_000);
    const byName = new Map(placed.topAllocators.map((f) => [f.functionName, f.bytes]));
    expect(byName.get('buildCacheKey')).toBeCloseTo(7000, 6);
    expect(byName.get('executeFields')).toBeCloseTo(1000, 6);
    expect(byName.get('parse')).toBeCloseTo(2000, 6);
    expect(Object.values(placed.bytesByBucket).reduce((a, b) => a + b, 0)).toBeCloseTo(10_000, 6);
    // The window's own profile named only the caller.
    expect(analyzeAllocations(inlined).topAllocators.map((f) => f.functionName)).not.toContain('buildCacheKey');
  });
});

describe('analyzeAllocations', () => {
  it('sums the bytes by bucket with the CPU rules applied to allocation stacks', () => {
    const a = analyzeAllocations(profile);
    expect(a.bytes).toBe(10_000);
    // The gateway's own code allocating on its own is ownCode; under execution (a resolver) it is execute.
    expect(a.bytesByBucket).toMatchObject({ parse: 4000, execute: 4000, fetch: 1500, ownCode: 500, other: 0, gc: 0 });
    expect(Object.values(a.bytesByBucket).reduce((s, b) => s + b, 0)).toBe(10_000);
  });

  it('ranks allocating functions by bytes, each in the bucket most of its bytes went to', () => {
    const top = analyzeAllocations(profile).topAllocators;
    expect(top.map((f) => [f.functionName, f.bytes, f.bucket])).toEqual([
      ['buildCacheKey', 4500, 'execute'],
      ['readToken', 3000, 'parse'],
      ['ClientRequest', 1500, 'fetch'],
      ['parse', 1000, 'parse'],
    ]);
    expect(top[0]!.share).toBeCloseTo(0.45, 10);
    expect(top[1]!.line).toBe(21);
  });

  it('refuses a file that is not a heap profile, saying so', () => {
    expect(() => parseHeapProfile('{"nodes": []}', 'x.heapprofile')).toThrow(GwprofError);
    expect(() => parseHeapProfile('{"nodes": []}', 'x.heapprofile')).toThrow(/x\.heapprofile: not a V8 heap profile/);
    expect(() => parseHeapProfile('{"head"', 'y.heapprofile')).toThrow(/y\.heapprofile: truncated or invalid JSON/);
    expect(parseHeapProfile(JSON.stringify(profile), 'z').head.children.length).toBe(4);
  });
});

describe('comparing allocations', () => {
  it('merges windows by call path, keeping every byte', () => {
    const other = heapProfileOf([
      { stack: [parse, lexer], bytes: 7000 },
      { stack: [frame('fresh', '/srv/gw/new.js')], bytes: 10 },
    ]);
    const merged = mergeHeapProfiles([profile, other]);
    const a = analyzeAllocations(merged);
    expect(a.bytes).toBe(17_010);
    expect(a.topAllocators[0]).toMatchObject({ functionName: 'readToken', bytes: 10_000 });
    // One node per call path: parse → readToken appears once.
    const parseNodes = merged.head.children.filter((n) => n.callFrame.functionName === 'parse');
    expect(parseNodes).toHaveLength(1);
    expect(parseNodes[0]!.children).toHaveLength(1);
  });

  it('gives bytes per successful request of each side and ranks functions by their move', () => {
    const more = heapProfileOf([
      { stack: [parse, lexer], bytes: 3000 },
      { stack: [parse], bytes: 1000 },
      { stack: [ticks, execute, mine], bytes: 12_000 },
      { stack: [fetchBody], bytes: 1500 },
    ]);
    const diff = diffAllocations({ profiles: [profile, profile], okRequests: 20 }, { profiles: [more], okRequests: 10 });
    expect(diff.baseline).toBe(1000);
    expect(diff.candidate).toBe(1750);
    expect(diff.functions[0]).toMatchObject({ functionName: 'buildCacheKey', baseline: 450, candidate: 1200, delta: 750 });
    expect(diff.functions.find((f) => f.functionName === 'readToken')!.delta).toBe(0);
    expect(diff.functionCount).toBe(4);
    // By bucket too: execute (the cache key, called from graphql execution) grew, parsing did not.
    expect(diff.buckets[0]).toMatchObject({ bucket: 'execute', baseline: 400, candidate: 1200, delta: 800 });
    expect(diff.buckets.find((b) => b.bucket === 'parse')!.delta).toBe(0);
    expect(diff.buckets.reduce((sum, b) => sum + b.delta, 0)).toBeCloseTo(750, 6);
    // Per-window bytes are keyed as the diff keys its functions, so each move finds its epochs.
    expect(allocationsByFunction(more).get(diff.functions[0]!.key)).toBe(12_000);
  });
});
