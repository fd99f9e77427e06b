import { describe, expect, it } from 'vitest';
import { bucketCosts, bucketMsPerOkRequest, compareGcWithNode } from './bucket-costs.js';
import { BUCKET_ORDER, analyzeProfile } from './buckets.js';
import { frame, profileOf } from '../testing/profiles.js';

const root = frame('', 'node:internal/main/run_main_module');
const execute = frame('executeFields', '/gw/node_modules/graphql/execution/execute.js');
const resolver = frame('resolveUser', '/gw/resolvers.js');
const planner = frame('buildQueryPlan', '/gw/node_modules/@apollo/query-planner/dist/buildPlan.js');
const idle = frame('(idle)');

/** One window: the same CPU mix (6 ms execute, 2 ms plan per request) with some idle time. */
function window(requests: number, idleSamples: number) {
  return analyzeProfile(
    profileOf([
      { stack: [root, execute, resolver], count: 6 * requests },
      { stack: [root, planner], count: 2 * requests },
      { stack: [idle], count: idleSamples },
    ]),
  );
}

describe('bucketCosts', () => {
  it('gives CPU ms per successful request per bucket, idle excluded', () => {
    const costs = bucketCosts(window(10, 30), 10)!;
    expect(Object.keys(costs.bucketMsPerOkRequest)).toEqual(BUCKET_ORDER.filter((name) => name !== 'idle'));
    expect(costs.bucketMsPerOkRequest).toMatchObject({ execute: 6, plan: 2, gc: 0, other: 0 });
    expect(costs.busyMsPerOkRequest).toBe(8);
    expect(costs.functionsByBucket.execute).toEqual([
      { functionName: 'resolveUser', url: resolver.url, line: 1, selfMs: 60, shareOfBucket: 1, msPerOkRequest: 6 },
    ]);
    expect(costs.functionsByBucket.idle).toBeUndefined();
  });

  it('does not move when only idle time moves, where shares do', () => {
    const busy = window(10, 5);
    const quiet = window(10, 200);
    expect(bucketCosts(busy, 10)!.bucketMsPerOkRequest).toEqual(bucketCosts(quiet, 10)!.bucketMsPerOkRequest);
    expect(busy.buckets.execute! - quiet.buckets.execute!).toBeGreaterThan(0.3);
  });

  it('is null without successful requests or samples', () => {
    expect(bucketCosts(window(10, 0), 0)).toBeNull();
    expect(bucketCosts(analyzeProfile({ ...profileOf([]), samples: [], timeDeltas: [] }), 5)).toBeNull();
    expect(bucketMsPerOkRequest({ execute: 5 }, 0)).toEqual({});
  });

  it('works on ms summed over windows, keeping custom buckets before other', () => {
    expect(bucketMsPerOkRequest({ other: 3, myPlanner: 12, idle: 100, execute: 30 }, 3)).toMatchObject({ execute: 10, myPlanner: 4, other: 1 });
    expect(Object.keys(bucketMsPerOkRequest({ other: 3, myPlanner: 12 }, 3)).slice(-2)).toEqual(['myPlanner', 'other']);
  });
});

describe('compareGcWithNode', () => {
  const gcWindow = analyzeProfile(
    profileOf([
      { stack: [frame('(garbage collector)')], count: 150 },
      { stack: [root, execute], count: 850 },
    ]),
  );

  it('gives both gc shares and flags a gap beyond 3 points', () => {
    const close = compareGcWithNode(gcWindow, { gcMs: 140, windowMs: 1000 })!;
    expect(close).toMatchObject({ profileGcMs: 150, profileGcShare: 0.15, nodeGcMs: 140, nodeGcShare: 0.14, disagrees: false });
    expect(close.differencePoints).toBeCloseTo(1, 9);
    const far = compareGcWithNode(gcWindow, { gcMs: 100, windowMs: 1000 })!;
    expect(far.differencePoints).toBeCloseTo(5, 9);
    expect(far.disagrees).toBe(true);
  });

  it('is null without samples or a window', () => {
    expect(compareGcWithNode(gcWindow, { gcMs: 0, windowMs: 0 })).toBeNull();
    expect(compareGcWithNode(analyzeProfile({ ...profileOf([]), samples: [], timeDeltas: [] }), { gcMs: 1, windowMs: 10 })).toBeNull();
  });
});
