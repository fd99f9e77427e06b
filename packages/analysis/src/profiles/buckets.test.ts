import { describe, expect, it } from 'vitest';
import { BUCKET_ORDER, analyzeProfile, bucketShares, orderBucketNames } from './buckets.js';
import type { CpuProfile, CpuProfileNode } from './cpuprofile.js';
import { frame, profileOf, profileOfTimeline } from '../testing/profiles.js';

const pnpm = (pkg: string, file: string) => `file:///srv/gw/node_modules/.pnpm/${pkg.replace('/', '+')}@1.0.0/node_modules/${pkg}/${file}`;
const graphqlFile = (file: string) => pnpm('graphql', file);

const root = frame('', 'node:internal/main/run_main_module');
const headers = frame('parserOnHeadersComplete', 'node:_http_common');
const ticks = frame('processTicksAndRejections', 'node:internal/process/task_queues');
const yoga = frame('handle', pnpm('graphql-yoga', 'cjs/server.js'));
const execute = frame('executeFields', graphqlFile('execution/execute.js'));
const validate = frame('validate', graphqlFile('validation/validate.js'));
const visit = frame('visit', graphqlFile('language/visitor.js'));
const parse = frame('parseDocument', graphqlFile('language/parser.js'));
const lexer = frame('readToken', 'C:\\gw\\node_modules\\graphql\\language\\lexer.js');
const delegate = frame('delegateToSchema', pnpm('@graphql-tools/delegate', 'cjs/delegateToSchema.js'));
const print = frame('print', graphqlFile('language/printer.js'));
const userCode = frame('resolveUser', '/srv/gw/resolvers.js');
/** A library function no rule knows: unlike the gateway's own code, it takes its bucket from its callers. */
const unknownLibrary = frame('lookupUser', pnpm('user-sdk', 'index.js'));

function analyze(stacks: Parameters<typeof profileOf>[0], top?: number) {
  return analyzeProfile(profileOf(stacks), { top });
}

describe('analyzeProfile buckets', () => {
  it('attributes each sample to the first matching frame from the leaf', () => {
    const result = analyze([
      { stack: [frame('(garbage collector)')], count: 5 },
      { stack: [frame('(idle)')], count: 4 },
      { stack: [frame('(program)')], count: 3 },
      // The HTTP parser runs handlers synchronously: GraphQL frames below it win.
      { stack: [root, headers, yoga, execute], count: 10 },
      { stack: [root, headers, yoga, parse, lexer], count: 6 },
      // Promise continuations: the GraphQL frame wins over processTicksAndRejections.
      { stack: [root, ticks, validate, visit, userCode], count: 7 },
      { stack: [root, ticks, delegate, print], count: 2 },
      // Nothing recognised below the server's plumbing: the plumbing frames themselves.
      { stack: [root, headers, yoga], count: 8 },
      // Run from the event loop's queue with nothing recognised: unplaced, never ticks.
      { stack: [root, ticks, unknownLibrary], count: 9 },
      { stack: [root, frame('onconnection', 'node:net')], count: 1 },
      { stack: [root, frame('pubSubHandler', '/srv/gw/node_modules/@graphql-mesh/runtime/index.js')], count: 2 },
      { stack: [root, unknownLibrary], count: 3 },
      // The gateway's own code, called by the server framework: its own bucket.
      { stack: [root, headers, yoga, userCode], count: 4 },
    ]);
    expect(result.samples).toBe(64);
    expect(result.counts).toEqual({
      gc: 5,
      idle: 4,
      program: 3,
      parse: 6,
      validate: 7,
      execute: 10,
      plan: 2,
      fetch: 0,
      serialize: 0,
      ownCode: 4,
      httpParser: 8,
      onconnection: 1,
      pubsub: 2,
      telemetry: 0,
      allocator: 0,
      memcpy: 0,
      runtime: 0,
      kernel: 0,
      ticks: 0,
      unplaced: 9,
      other: 3,
    });
    expect(Object.keys(result.buckets)).toEqual([...BUCKET_ORDER]);
    expect(result.buckets.execute).toBeCloseTo(10 / 64, 12);
    expect(Object.values(result.buckets).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('recognises the gateways’ packages by path, with / or \\ and pnpm layouts', () => {
    const cases: Array<[string, string, string]> = [
      ['executeOperation', pnpm('@graphql-tools/executor', 'cjs/execution/execute.js'), 'execute'],
      // Issue 10: executor-http is the subgraph client (fetch), executeQueryPlan runs the plan (execute).
      ['executeOperation', pnpm('@graphql-tools/executor-http', 'cjs/index.js'), 'fetch'],
      ['buildQueryPlan', 'D:\\gw\\node_modules\\@apollo\\query-planner\\dist\\buildPlan.js', 'plan'],
      ['executeQueryPlan', '/gw/node_modules/@apollo/gateway/dist/executeQueryPlan.js', 'execute'],
      ['handleResolverResult', pnpm('@graphql-tools/stitch', 'cjs/index.js'), 'plan'],
      ['getPlan', pnpm('@graphql-mesh/fusion-runtime', 'dist/index.js'), 'plan'],
      ['publish', pnpm('@graphql-mesh/utils', 'cjs/pubsub.js'), 'pubsub'],
      ['parserOnBody', 'node:_http_common', 'httpParser'],
      ['runMicrotasks', '', 'ticks'],
      ['processTicksAndRejections', 'internal/process/task_queues.js', 'ticks'],
      ['onconnection', '/srv/gw/my-websocket.js', 'ownCode'],
      ['onconnection', pnpm('ws', 'lib/websocket-server.js'), 'other'],
      ['visit', graphqlFile('language/visitor.js'), 'other'],
    ];
    for (const [functionName, url, bucket] of cases) {
      // Under the main module, so an unrecognised frame is not taken for a continuation (see below).
      const result = analyze([{ stack: [root, frame(functionName, url)], count: 1 }]);
      expect([functionName, url, result.counts[bucket]]).toEqual([functionName, url, 1]);
    }
  });

  it('uses hitCount when a profile has no samples array', () => {
    const base = profileOf([
      { stack: [root, execute], count: 3 },
      { stack: [frame('(idle)')], count: 1 },
    ]);
    const hits = new Map<number, number>();
    for (const id of base.samples!) hits.set(id, (hits.get(id) ?? 0) + 1);
    const profile: CpuProfile = {
      nodes: base.nodes.map((node): CpuProfileNode => ({ ...node, hitCount: hits.get(node.id) ?? 0 })),
      startTime: 0,
      endTime: 8000,
    };
    const result = analyzeProfile(profile);
    expect(result.samples).toBe(4);
    expect(result.counts.execute).toBe(3);
    expect(result.buckets.idle).toBe(0.25);
    expect(result.samplingIntervalUs).toBe(2000);
  });

  it('reports zero samples without dividing by zero', () => {
    const result = analyzeProfile({ ...profileOf([]), samples: [], timeDeltas: [] });
    expect(result).toEqual({
      samples: 0,
      samplingIntervalUs: 0,
      counts: {},
      buckets: {},
      topFunctions: [],
      durationMs: 0,
      msByBucket: {},
      busyMs: 0,
      bucketFunctions: {},
    });
  });

  it('takes the median time delta as the sampling interval', () => {
    const profile = profileOf([{ stack: [userCode], count: 5 }]);
    profile.timeDeltas = [9000, 1000, 1100, 900, 1000];
    expect(analyzeProfile(profile).samplingIntervalUs).toBe(1000);
  });

  it('classifies deep stacks and large profiles without recursion', () => {
    const deep = Array.from({ length: 20_000 }, (_, i) => frame(`f${i}`, '/srv/gw/app.js', i));
    const profile = profileOf([{ stack: [root, ticks, execute, ...deep], count: 100_000 }]);
    const result = analyzeProfile(profile);
    expect(result.counts.execute).toBe(100_000);
  });
});

describe('analyzeProfile top functions', () => {
  it('sums self samples of a function across callers and picks its majority bucket', () => {
    const helper = frame('', '/srv/gw/node_modules/graphql/jsutils/inspect.js', 41);
    const result = analyze(
      [
        { stack: [root, validate, helper], count: 3 },
        { stack: [root, execute, helper], count: 5 },
        { stack: [frame('(garbage collector)', '', -1)], count: 4 },
        { stack: [root, execute], count: 2 },
        { stack: [root, userCode], count: 1 },
      ],
      3,
    );
    expect(result.topFunctions).toEqual([
      { functionName: '(anonymous)', url: helper.url, line: 42, selfShare: 8 / 15, bucket: 'execute' },
      { functionName: '(garbage collector)', url: '', line: 0, selfShare: 4 / 15, bucket: 'gc' },
      { functionName: 'executeFields', url: execute.url, line: 1, selfShare: 2 / 15, bucket: 'execute' },
    ]);
  });
});

describe('bucket order and shares', () => {
  it('puts custom buckets after the built-in ones, in first-seen order, and other last', () => {
    expect(orderBucketNames(['zeta', 'execute', 'other', 'alpha', 'zeta'])).toEqual([...BUCKET_ORDER.slice(0, -1), 'zeta', 'alpha', 'other']);
  });

  it('turns counts into shares in that order', () => {
    const shares = bucketShares({ other: 1, myGateway: 4, execute: 4 });
    expect(Object.keys(shares)).toEqual([...BUCKET_ORDER.slice(0, -1), 'myGateway', 'other']);
    expect(shares).toMatchObject({ execute: 4 / 9, myGateway: 4 / 9, other: 1 / 9, gc: 0 });
    expect(bucketShares({})).toEqual({});
  });
});

describe('analyzeProfile walk (issue 10)', () => {
  const clientSocket = frame('socketOnData', 'node:_http_client');
  const nativeParse = frame('execute', '');
  const incomingHeader = frame('_addHeaderLine', 'node:_http_incoming');
  const serverIncoming = frame('parserOnIncoming', 'node:_http_server');
  const outgoingEnd = frame('end', 'node:_http_outgoing');
  const writev = frame('writev', '');
  const microtasks = frame('runMicrotasks', '');
  const apolloStandalone = frame('', pnpm('@apollo/server', 'dist/esm/standalone/index.js'));
  const minipassRequest = frame('Request', pnpm('minipass-fetch', 'lib/request.js'));
  const isSecureEndpoint = frame('isSecureEndpoint', pnpm('agent-base', 'dist/index.js'));
  const errorStack = frame('defaultPrepareStackTrace', 'node:internal/errors');
  const executeQueryPlan = frame('executeNode', pnpm('@apollo/gateway', 'dist/executeQueryPlan.js'));
  const sendRequest = frame('sendRequest', pnpm('@apollo/gateway', 'dist/datasources/RemoteGraphQLDataSource.js'));
  const resultShaping = frame('applySelectionSet', pnpm('@apollo/gateway', 'dist/resultShaping.js'));
  const delegateFile = pnpm('@graphql-tools/delegate', 'dist/index.js');

  it('lets a recognised frame anywhere on the stack beat the plumbing nearer the leaf', () => {
    const result = analyze([
      // A subgraph response: Node's shared parser callback sits below the client socket frame.
      { stack: [clientSocket, nativeParse, headers, incomingHeader], count: 4 },
      // The same callbacks for an incoming request: the server.
      { stack: [headers, serverIncoming, incomingHeader], count: 3 },
      // OutgoingMessage writes the server's response and the client's request alike.
      { stack: [ticks, microtasks, apolloStandalone, outgoingEnd, writev], count: 2 },
      { stack: [ticks, minipassRequest, outgoingEnd, writev], count: 5 },
    ]);
    expect(result.counts).toMatchObject({ fetch: 9, httpParser: 3, serialize: 2, ticks: 0, other: 0 });
  });

  it('puts the HTTP client, planning and running the plan in their own buckets', () => {
    const result = analyze([
      { stack: [ticks, executeQueryPlan, sendRequest, minipassRequest, isSecureEndpoint, errorStack], count: 6 },
      { stack: [ticks, executeQueryPlan, resultShaping], count: 3 },
      { stack: [ticks, frame('createRequest', delegateFile), visit], count: 4 },
      // delegate is one bundle: the result side by function name, anonymous closures inherit.
      { stack: [ticks, frame('resolveExternalValue', delegateFile), frame('', delegateFile, 325)], count: 2 },
      { stack: [ticks, frame('', delegateFile, 3117)], count: 1 },
    ]);
    // The anonymous delegate closure run from the queue is recognised by nothing: unplaced.
    expect(result.counts).toMatchObject({ fetch: 6, execute: 5, plan: 4, ticks: 0, unplaced: 1, other: 0 });
  });

  it('leaves what no rule knows unattributed: unplaced when the event loop ran it from a queue, other elsewhere', () => {
    const continuation = frame('', pnpm('@graphql-mesh/runtime', 'cjs/handler.js'));
    const result = analyze([
      // An unknown frame entered from native code, and an unknown function directly under (root): other.
      { stack: [continuation, unknownLibrary], count: 3 },
      { stack: [root, unknownLibrary], count: 1 },
      // A recognised frame below still wins.
      { stack: [continuation, execute], count: 2 },
      // The event loop's runner: its own time is ticks; unknown work it runs is unplaced.
      { stack: [root, ticks], count: 1 },
      { stack: [root, ticks, unknownLibrary], count: 2 },
      // Nothing above a runner reaches what it runs: the queued work's caller is not on the stack.
      { stack: [root, headers, yoga, ticks, unknownLibrary], count: 4 },
    ]);
    expect(result.counts).toMatchObject({ other: 4, execute: 2, ticks: 1, unplaced: 6, httpParser: 0 });
  });

  it("keeps queueing work in its caller's bucket: nextTick called from a fetch frame is fetch", () => {
    const clientRequest = frame('ClientRequest', 'node:_http_client');
    const nextTick = frame('nextTick', 'node:internal/process/task_queues');
    expect(
      analyze([
        { stack: [root, clientRequest, nextTick], count: 3 },
        { stack: [root, nextTick], count: 1 },
      ]).counts,
    ).toMatchObject({ fetch: 3, ticks: 1 });
  });
});

describe('analyzeProfile time weighting', () => {
  const gc = frame('(garbage collector)');
  const js = [root, unknownLibrary];

  it('weighs each sample by the time it stands for and reports ms', () => {
    // The sampler is late in a GC pause: the second GC sample comes 5 ms after the first.
    const times = [1000, 2000, 3000, 4000, 5000, 6000, 7000, 12000, 13000, 14000];
    const stacks = [js, js, js, js, js, js, [gc], [gc], [frame('(idle)')], js];
    const result = analyzeProfile(profileOfTimeline(times.map((time, i) => ({ time, stack: stacks[i]! }))));
    expect(result.counts).toMatchObject({ gc: 2, other: 7, idle: 1 });
    // Midpoints: each GC sample stands for (1 + 5) / 2 = 3 ms; the samples total 14 ms.
    expect(result.msByBucket).toMatchObject({ gc: 6, other: 7, idle: 1 });
    expect(result.durationMs).toBe(14);
    expect(result.busyMs).toBe(13);
    expect(result.buckets.gc).toBeCloseTo(6 / 14, 12);
    expect(result.topFunctions[0]).toMatchObject({ functionName: 'lookupUser', selfShare: 7 / 14, bucket: 'other' });
  });

  it('lists the top functions of each bucket with their ms', () => {
    const result = analyze([
      { stack: [ticks, execute, userCode], count: 5 },
      { stack: [ticks, execute], count: 3 },
      { stack: [ticks, delegate, print], count: 2 },
    ]);
    expect(result.bucketFunctions.execute).toEqual([
      { functionName: 'resolveUser', url: userCode.url, line: 1, selfMs: 5, shareOfBucket: 5 / 8 },
      { functionName: 'executeFields', url: execute.url, line: 1, selfMs: 3, shareOfBucket: 3 / 8 },
    ]);
    expect(result.bucketFunctions.plan).toEqual([{ functionName: 'print', url: print.url, line: 1, selfMs: 2, shareOfBucket: 1 }]);
    expect(result.bucketFunctions.gc).toEqual([]);
  });
});

describe('the gateway’s own code (ownCode)', () => {
  const serverIncoming = frame('parserOnIncoming', 'node:_http_server');
  const apolloServer = frame('runHttpQuery', pnpm('@apollo/server', 'dist/esm/runHttpQuery.js'));
  const willSendResponse = frame('willSendResponse', 'file:///srv/gw/dist/server.js', 23);
  const countFields = frame('countFields', 'file:///srv/gw/dist/server.js', 14);
  const printerLeave = frame('leave', graphqlFile('language/printer.js'));
  const createHash = frame('createHash', 'node:crypto');
  const emitWrapper = frame('emitWithAuditTrail', '/srv/gw/audit-trail.cjs', 40);
  const buildAuditTrail = frame('buildAuditTrail', '/srv/gw/audit-trail.cjs', 25);
  const emit = frame('emit', 'node:events');
  const outgoingEnd = frame('end', 'node:_http_outgoing');
  const clientRequest = frame('ClientRequest', 'node:_http_client');

  it("takes a plugin the server framework calls, and what it calls that no rule claims, from the framework's httpParser", () => {
    const result = analyze([
      { stack: [root, headers, apolloServer, willSendResponse], count: 3 },
      { stack: [root, ticks, apolloServer, willSendResponse, print, visit, printerLeave], count: 5 },
      { stack: [root, ticks, apolloServer, willSendResponse, countFields, countFields], count: 2 },
      { stack: [root, ticks, apolloServer, willSendResponse, createHash], count: 1 },
      // The framework's own frames, and the library code they call, stay httpParser.
      { stack: [root, headers, apolloServer, unknownLibrary], count: 4 },
    ]);
    expect(result.counts).toMatchObject({ ownCode: 11, httpParser: 4, other: 0 });
  });

  it('lets a recognised frame anywhere on the stack win: resolvers under execution stay execute, own code sending a request is fetch', () => {
    const result = analyze([
      { stack: [root, ticks, execute, userCode], count: 6 },
      { stack: [root, ticks, execute, userCode, unknownLibrary], count: 2 },
      { stack: [root, headers, userCode, clientRequest], count: 3 },
      { stack: [root, headers, userCode, parse], count: 1 },
    ]);
    expect(result.counts).toMatchObject({ execute: 8, fetch: 3, parse: 1, ownCode: 0 });
  });

  it("takes a planted wrapper of the server's emit, while the nearer weak frames below it keep theirs", () => {
    const result = analyze([
      { stack: [root, serverIncoming, emitWrapper, buildAuditTrail], count: 7 },
      { stack: [root, serverIncoming, emitWrapper, emit, apolloServer, unknownLibrary], count: 2 },
      { stack: [root, serverIncoming, userCode, outgoingEnd], count: 3 },
    ]);
    expect(result.counts).toMatchObject({ ownCode: 7, httpParser: 2, serialize: 3 });
  });

  it("recognises own files by path only: not node_modules, not Node's internals, not gwprof's preload", () => {
    const cases: Array<[string, string]> = [
      ['/srv/gw/server.js', 'ownCode'],
      ['file:///srv/gw/server.mjs', 'ownCode'],
      ['C:\\gw\\dist\\server.js', 'ownCode'],
      ['file:///C:/gw/dist/server.js', 'ownCode'],
      ['/srv/gw/node_modules/some-lib/index.js', 'other'],
      ['C:\\gw\\node_modules\\some-lib\\index.js', 'other'],
      ['node:internal/streams/readable', 'other'],
      ['internal/streams/readable.js', 'other'],
      ['evalmachine.<anonymous>', 'other'],
      ['/work/gwprof/packages/collect/dist/profiler/preload.cjs', 'other'],
      ['/srv/gw/.mesh/index.mjs', 'other'],
      ['file:///srv/gw/gateways/mesh/.work/1-1/.mesh/index.mjs', 'other'],
      ['/work/gwprof/packages/collect/dist/profiler/full-gc.cjs', 'other'],
    ];
    for (const [url, bucket] of cases) {
      const result = analyze([{ stack: [root, frame('handler', url)], count: 1 }]);
      expect([url, result.counts[bucket]]).toEqual([url, 1]);
    }
  });
});
