import { describe, expect, it } from 'vitest';
import { BUCKET_ORDER, analyzeProfile, bucketShares, sumBucketCounts } from './buckets.js';
import type { CpuProfile, CpuProfileNode } from './cpuprofile.js';
import { frame, profileOf } from './testing/profiles.js';

const pnpm = (pkg: string, file: string) =>
  `file:///srv/gw/node_modules/.pnpm/${pkg.replace('/', '+')}@1.0.0/node_modules/${pkg}/${file}`;
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
      // Nothing recognised below them: the plumbing frames themselves.
      { stack: [root, headers, yoga], count: 8 },
      { stack: [root, ticks, userCode], count: 9 },
      { stack: [root, frame('onconnection', 'node:net')], count: 1 },
      { stack: [root, frame('pubSubHandler', '/srv/gw/node_modules/@graphql-mesh/runtime/index.js')], count: 2 },
      { stack: [root, userCode], count: 3 },
    ]);
    expect(result.samples).toBe(60);
    expect(result.counts).toEqual({
      gc: 5,
      idle: 4,
      program: 3,
      parse: 6,
      validate: 7,
      execute: 10,
      plan: 2,
      httpParser: 8,
      onconnection: 1,
      pubsub: 2,
      ticks: 9,
      other: 3,
    });
    expect(Object.keys(result.buckets)).toEqual([...BUCKET_ORDER]);
    expect(result.buckets.execute).toBeCloseTo(10 / 60, 12);
    expect(Object.values(result.buckets).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('recognises the gateways’ packages by path, with / or \\ and pnpm layouts', () => {
    const cases: Array<[string, string, string]> = [
      ['executeOperation', pnpm('@graphql-tools/executor', 'cjs/execution/execute.js'), 'execute'],
      ['executeOperation', pnpm('@graphql-tools/executor-http', 'cjs/index.js'), 'other'],
      ['buildQueryPlan', 'D:\\gw\\node_modules\\@apollo\\query-planner\\dist\\buildPlan.js', 'plan'],
      ['executeQueryPlan', '/gw/node_modules/@apollo/gateway/dist/executeQueryPlan.js', 'plan'],
      ['handleResolverResult', pnpm('@graphql-tools/stitch', 'cjs/index.js'), 'plan'],
      ['getPlan', pnpm('@graphql-mesh/fusion-runtime', 'dist/index.js'), 'plan'],
      ['publish', pnpm('@graphql-mesh/utils', 'cjs/pubsub.js'), 'pubsub'],
      ['parserOnBody', 'node:_http_common', 'httpParser'],
      ['runMicrotasks', '', 'ticks'],
      ['processTicksAndRejections', 'internal/process/task_queues.js', 'ticks'],
      ['onconnection', '/srv/gw/my-websocket.js', 'other'],
      ['visit', graphqlFile('language/visitor.js'), 'other'],
    ];
    for (const [functionName, url, bucket] of cases) {
      const result = analyze([{ stack: [frame(functionName, url)], count: 1 }]);
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
    expect(result).toEqual({ samples: 0, samplingIntervalUs: 0, counts: {}, buckets: {}, topFunctions: [] });
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

describe('bucket count helpers', () => {
  it('sums trials and turns counts into ordered shares', () => {
    const total = sumBucketCounts([{ execute: 3, other: 1 }, { execute: 1, myGateway: 4 }]);
    expect(Object.keys(total)).toEqual([...BUCKET_ORDER.slice(0, -1), 'myGateway', 'other']);
    expect(total).toMatchObject({ execute: 4, myGateway: 4, other: 1, gc: 0 });
    expect(bucketShares(total)).toMatchObject({ execute: 4 / 9, myGateway: 4 / 9, other: 1 / 9, gc: 0 });
    expect(bucketShares({})).toEqual({});
  });
});
