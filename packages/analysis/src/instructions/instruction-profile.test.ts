import { describe, expect, it } from 'vitest';
import { callgrindContexts } from './callgrind-contexts.js';
import { PerfMap } from './perf-map.js';
import { instructionBreakdown, instructionProfile } from './instruction-profile.js';
import { classifyNodes } from '../profiles/buckets.js';
import { DEFAULT_BUCKET_RULES } from '../profiles/rules.js';

// JIT code of three JavaScript functions, as V8's --perf-basic-prof writes it.
const MAP = `1000 100 JS:^execute /app/node_modules/graphql/execution/execute.js:120:10
2000 80 JS:^parse /app/node_modules/graphql/language/parser.js:30:3
3000 40 JS:~handler /app/server.js:5:1
3000 60 JS:^handler /app/server.js:5:1
`;

// A dump with --separate-callers: names are "fn'caller1'caller2…", innermost first.
const DUMP = `events: Ir
positions: line
fn=(1) Builtins_LoadIC'0x0000000000001010'0x0000000000003010
0 500
fn=(2) 0x0000000000001020'0x0000000000003008
0 300
cfn=(1)
calls=1 0
0 500
fn=(3) v8::internal::Scavenger::ScavengeObject'Builtins_Allocate'0x0000000000002004'0x0000000000003004
0 200
fn=(4) uv_run'node::SpinEventLoop
0 50
fn=(5) 0x0000000000009000
0 7
totals: 1057
`;

describe('instructionProfile', () => {
  const { contexts, total } = callgrindContexts(DUMP);
  const profile = instructionProfile(contexts, new PerfMap(MAP), 12);
  const breakdown = instructionBreakdown(profile, (p) => classifyNodes(p, DEFAULT_BUCKET_RULES));

  it("reads the contexts with their self counts, skipping calls' inclusive costs", () => {
    expect(total).toBe(1057);
    expect(contexts.reduce((s, c) => s + c.self, 0)).toBe(1057);
    expect(contexts.find((c) => c.frames[0] === 'Builtins_LoadIC')!.frames).toHaveLength(3);
  });

  it('charges a builtin to the JavaScript function that called it, GC to the collector, and native loops to (program)', () => {
    const fn = (name: string) => [...breakdown.byFunction.values()].filter((f) => f.functionName === name).reduce((s, f) => s + f.self, 0);
    expect(fn('execute')).toBe(800);
    expect(fn('(garbage collector)')).toBe(200);
    expect(fn('(program)')).toBe(50);
    expect(breakdown.byBucket.execute).toBe(800);
    expect(breakdown.byBucket.gc).toBe(200);
    expect(profile.unnamedJit).toBe(7);
    expect(fn('(unnamed JIT code)')).toBe(7);
    expect(Object.values(breakdown.byBucket).reduce((a, b) => a + b, 0)).toBe(1057);
  });

  it('names the newest code at an address, and counts a chain that filled every caller place as truncated', () => {
    expect(new PerfMap(MAP).lookup(0x3020)!.label).toBe('JS:^handler /app/server.js:5:1');
    // Top-level code freed after start-up, and a function compiled later inside its old range: the newer names it.
    const reused = new PerfMap('5000 1000 JS:~ /app/node_modules/ws/index.js:1:1\n5400 80 JS:^leave /app/node_modules/graphql/printer.js:140:3\n');
    expect(reused.lookup(0x5420)!.js!.functionName).toBe('leave');
    expect(reused.lookup(0x5100)).toBeNull();
    expect(profile.truncated).toBe(0);
    const short = instructionProfile(contexts, new PerfMap(MAP), 2);
    expect(short.truncated).toBe(700);
  });
});
