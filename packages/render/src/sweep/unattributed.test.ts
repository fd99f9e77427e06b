import { describe, expect, it } from 'vitest';
import { unattributedHint, unattributedLine, type BucketsOfOne } from './unattributed.js';

const fn = (functionName: string, url: string, shareOfBucket: number) => ({ functionName, url, line: 0, shareOfBucket });

const node: BucketsOfOne = {
  buckets: { unplaced: 0.04, other: 0.01, fetch: 0.95 },
  bucketFunctions: {
    unplaced: [fn('DOMException', 'node:internal/per_context/domexception', 0.5), fn('x', '/app/node_modules/@whatwg-node/fetch/dist/index.js', 0.5)],
    other: [],
  },
};
const native: BucketsOfOne = {
  buckets: { unplaced: 0.006, other: 0.013, fetch: 0.98 },
  bucketFunctions: {
    unplaced: [fn('<futures_util::future::future::map::Map<Fut,F> as core::future::future::Future>::poll', '/cache/grafbase', 1)],
    other: [fn('__vdso_clock_gettime', '[vdso]', 0.6), fn('memcmp', '/cache/grafbase', 0.4)],
  },
};

describe('what no rule placed', () => {
  it('names its share and largest functions', () => {
    expect(unattributedLine('c=10', native)).toBe(
      'c=10: 1.9% of the sampled time unattributed (unplaced 0.6%, other 1.3%); most of it in __vdso_clock_gettime ([vdso]) 0.8%, <futures_util::future::future::map::Map<Fut,F> as core::future::future::Future>::poll (/cache/grafbase) 0.6%, memcmp (/cache/grafbase) 0.5%',
    );
  });

  it("suggests a package rule and speaks of Node's event loop for a Node gateway", () => {
    const hint = unattributedHint([node]);
    expect(hint).toContain('"url": "node_modules/@whatwg-node/fetch/"');
    expect(hint).toContain("Node's own stream and event frames");
  });

  it('suggests a crate rule, and says nothing of Node, for a native gateway', () => {
    const hint = unattributedHint([native]);
    expect(hint).toContain('"functionName": "^futures_util::"');
    expect(hint).toContain('async runtime');
    expect(hint).not.toMatch(/Node|node_modules|event loop/);
  });
});
