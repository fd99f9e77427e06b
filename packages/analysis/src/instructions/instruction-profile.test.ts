import { describe, expect, it } from 'vitest';
import { callgrindContexts } from './callgrind-contexts.js';
import { PerfMap } from './perf-map.js';
import { callGraph } from './call-graph.js';
import { instructionBreakdown, instructionMoves, instructionProfile, instructionProfileOfCallGraph, type InstructionProfile } from './instruction-profile.js';
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
  const breakdown = instructionBreakdown(profile, DEFAULT_BUCKET_RULES);

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

// Frames of a gateway, by address: its own plugin, the server framework (weak), an unrecognised library, graphql-js execution and printer.
const GATEWAY_MAP = `1000 100 JS:^executeField /gw/node_modules/graphql/execution/execute.js:500:1
2000 100 JS:^willSendResponse /gw/dist/server.js:24:7
3000 100 JS:^runHttpQuery /gw/node_modules/@apollo/server/dist/esm/runHttpQuery.js:90:1
4000 100 JS:^leave /gw/node_modules/graphql/language/printer.js:25:3
5000 100 JS:^processTicksAndRejections node:internal/process/task_queues:67:35
6000 100 JS:^lookup /gw/node_modules/user-sdk/index.js:3:1
`;

/** A dump of contexts kept with 4 callers: a chain of 5 names filled every place and was cut off. */
function dumpOf(contexts: Array<[string, number]>): string {
  return ['events: Ir', 'positions: line', ...contexts.flatMap(([name, self], i) => [`fn=(${i + 1}) ${name}`, `0 ${self}`]), ''].join('\n');
}

describe('instructions placed by a guess', () => {
  const dump = dumpOf([
    // Cut off, but execution's frame is in view: nothing beyond it can change execute.
    ["Builtins_LoadIC'0x1010'Builtins_Call'0x2010'0x3010", 1000],
    // Cut off above the plugin and the framework's weak frame: a strong frame beyond the cut would win.
    ["0x4010'Builtins_Call'0x2010'Builtins_Call'0x3010", 300],
    // Cut off under the event loop's runner: nothing above it reaches the frames it runs.
    ["0x6010'Builtins_Call'0x5010'Builtins_RunMicrotasks'node::InternalCallbackScope::Close", 200],
    // Cut off with no JavaScript frame in view: (program) here, a JavaScript caller's bucket beyond the cut.
    ["v8::internal::Parser::ParseFunction'v8::internal::Compiler::Compile'a'b'c", 50],
    // Cut off in the collector: gc whatever called it.
    ["v8::internal::Scavenger::ScavengeObject'v8::internal::Heap::CollectGarbage'Builtins_Allocate'0x6010'0x2010", 40],
    // Whole chains: never a guess, whatever their bucket.
    ["0x6010'0x2010", 400],
    ["0x4010'0x2010'0x3010'uv_run", 10],
  ]);
  const { contexts } = callgrindContexts(dump);
  const profile = instructionProfile(contexts, new PerfMap(GATEWAY_MAP), 4);
  const breakdown = instructionBreakdown(profile, DEFAULT_BUCKET_RULES);

  it('counts a cut-off context as a guess only when no frame in view decides its bucket', () => {
    expect(profile.total).toBe(2000);
    expect(profile.truncated).toBe(1590);
    expect(breakdown.guessed).toBe(350);
    expect(breakdown.byBucket).toMatchObject({ execute: 1000, ownCode: 710, unplaced: 200, program: 50, gc: 40 });
  });

  it('reports the share of each side placed by a guess beside the share cut off, and neither guess for an older profile', () => {
    const side = (b: typeof breakdown) => ({ breakdown: b, ok: 10, requests: 10 });
    const moves = instructionMoves(side(breakdown), side(breakdown), 4);
    expect(moves.guessedShare).toEqual({ baseline: 350 / 2000, candidate: 350 / 2000 });
    expect(moves.truncatedShare.baseline).toBeCloseTo(1590 / 2000, 12);
    const { truncatedBySample: _dropped, ...older } = profile;
    const olderBreakdown = instructionBreakdown(older as InstructionProfile, DEFAULT_BUCKET_RULES);
    expect(olderBreakdown.guessed).toBeNull();
    expect(instructionMoves(side(olderBreakdown), side(breakdown), 4)).not.toHaveProperty('guessedShare');
  });
});

// The verdict's own batch of a Node gateway: no callers kept, V8's builtins skipped (their counts are their callers').
const FLAT_DUMP = `events: Ir
cmd: /usr/bin/node --perf-basic-prof server.js
positions: line
ob=(1) /usr/bin/node
fn=(1) 0x0000000000003008
0 120
cfn=(2) 0x0000000000004010
calls=2 0
0 300
cfn=(3) v8::internal::Runtime_SetKeyedProperty
calls=1 0
0 280
fn=(2)
0 300
fn=(3)
0 80
cfn=(4) v8::internal::Scavenger::ScavengeObject
calls=1 0
0 200
fn=(4)
0 200
fn=(5) 0x0000000000001020
0 300
fn=(6) uv_run
0 50
totals: 1050
`;

describe('instructionProfileOfCallGraph: a Node batch without callers', () => {
  const map = `${MAP}4000 50 JS:^cloneDeep /app/node_modules/lodash/lodash.js:10:1\n`;
  const profile = instructionProfileOfCallGraph(callGraph(FLAT_DUMP), new PerfMap(map));
  const breakdown = instructionBreakdown(profile, DEFAULT_BUCKET_RULES);
  const byName = (name: string) => [...breakdown.byFunction.values()].find((f) => f.functionName === name);

  it("places a library function by the caller its calls came from, and the runtime's and the collector's work as a sampled stack would", () => {
    expect(breakdown.total).toBe(1050);
    expect(byName('cloneDeep')).toMatchObject({ bucket: 'ownCode', self: 300 });
    expect(byName('handler')).toMatchObject({ bucket: 'ownCode', self: 200 });
    expect(byName('execute')).toMatchObject({ bucket: 'execute', self: 300 });
    expect(breakdown.byBucket).toEqual({ ownCode: 500, execute: 300, gc: 200, program: 50 });
    expect(profile.truncated).toBe(0);
  });
});

// A native router's dump: symbols by callgrind, objects by ob=/cob=, a recursive frame marked "'2".
const NATIVE_DUMP = `events: Ir
positions: line
ob=(1) /opt/hive_router
fl=(1) ???
fn=(1) graphql_parser::query::grammar::selection_set'2'graphql_parser::query::grammar::field'tokio::runtime::task::raw::poll
0 400
cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6
cfn=(2) malloc'graphql_parser::query::grammar::field'tokio::runtime::task::raw::poll
calls=1 0
0 90
fn=(3) hive_router::executor::executors::http::HttpExecutor::execute'tokio::runtime::task::raw::poll
0 250
fn=(4) 0x0000000003c512a6'tokio::runtime::task::raw::poll
0 60
ob=(2)
fn=(2)
0 90
totals: 800
`;

describe('instructionProfile of a native program', () => {
  const { contexts, total } = callgrindContexts(NATIVE_DUMP);
  const profile = instructionProfile(contexts, new PerfMap(''), 8, true);
  const breakdown = instructionBreakdown(profile, DEFAULT_BUCKET_RULES);

  it("places each count by the native rules, with the function's object as its url", () => {
    expect(total).toBe(800);
    expect(breakdown.total).toBe(800);
    expect(breakdown.byBucket).toEqual({ parse: 400, fetch: 250, allocator: 90, unplaced: 60 });
    const malloc = [...breakdown.byFunction.values()].find((f) => f.functionName === 'malloc')!;
    expect(malloc.url).toBe('/usr/lib/x86_64-linux-gnu/libc.so.6');
  });

  it('names code without a symbol by its object, not by an address that moves between builds', () => {
    const names = [...breakdown.byFunction.values()].map((f) => f.functionName);
    expect(names).toContain('(code without a symbol)');
    expect(names.some((n) => n.startsWith('0x'))).toBe(false);
  });

  it("drops callgrind's recursion marks: a frame of digits is a depth, not a caller", () => {
    const names = profile.profile.nodes.map((n) => n.callFrame.functionName);
    expect(names).not.toContain('2');
    expect(names).toContain('graphql_parser::query::grammar::selection_set');
  });

  it('pairs the functions of two builds of the gateway at different paths: the program callgrind ran is one object', () => {
    const build = (dir: string, loop: number) =>
      instructionBreakdown(
        instructionProfile(
          callgrindContexts(
            `events: Ir\ncmd: ./gateway-bin\npositions: line\nob=(1) ${dir}/gateway-bin\nfl=(1) ???\nfn=(1) sample_gateway::resolve_ok'sample_gateway::serve\n0 ${loop}\nob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6\nfn=(2) malloc'sample_gateway::serve\n0 10\ntotals: ${loop + 10}\n`,
            { gatewayBinary: true },
          ).contexts,
          new PerfMap(''),
          8,
          true,
        ),
        DEFAULT_BUCKET_RULES,
      );
    const side = (b: ReturnType<typeof build>) => ({ breakdown: b, ok: 1, requests: 1 });
    const moves = instructionMoves(side(build('/runs/worktrees/0797536c5ef4', 300)), side(build('/runs/worktrees/d0af691cb5c1', 309)), 8);
    expect(moves.functions[0]).toMatchObject({ functionName: 'sample_gateway::resolve_ok', url: '(the gateway binary)', deltaPerOkRequest: 9 });
    expect(moves.functions.find((f) => f.functionName === 'malloc')).toMatchObject({ url: '/usr/lib/x86_64-linux-gnu/libc.so.6', deltaPerOkRequest: 0 });
  });

  it("keeps the path of a program the caller does not call the gateway's binary (node, whose path pairs already)", () => {
    const dump = 'events: Ir\ncmd: /usr/bin/node server.js\npositions: line\nob=(1) /usr/bin/node\nfn=(1) uv_run\n0 5\ntotals: 5\n';
    expect(callgrindContexts(dump).contexts[0]!.object).toBe('/usr/bin/node');
    expect(callgrindContexts(dump, { gatewayBinary: true }).contexts[0]!.object).toBe('(the gateway binary)');
  });
});
