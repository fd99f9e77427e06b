import { describe, expect, it } from 'vitest';
import { hiveSupergraphPath } from './hive.js';

const urls = (base: number) => ({
  accounts: `http://127.0.0.1:${base + 1}/graphql`,
  reviews: `http://127.0.0.1:${base + 2}/graphql`,
  products: `http://127.0.0.1:${base + 3}/graphql`,
  inventory: `http://127.0.0.1:${base + 4}/graphql`,
});

describe('hiveSupergraphPath', () => {
  it("gives a comparison's two sides, on their own subgraph ports, files of their own in one run folder", () => {
    const baseline = hiveSupergraphPath('/tmp/run', urls(4000));
    const candidate = hiveSupergraphPath('/tmp/run', urls(4010));
    expect(baseline).not.toBe(candidate);
    expect(candidate).toBe('/tmp/run/hive/supergraph-4011-4012-4013-4014.graphql');
  });

  it('gives a restart against the same subgraphs the same file, so it reuses the composed supergraph', () => {
    expect(hiveSupergraphPath('/tmp/run', urls(4000))).toBe(hiveSupergraphPath('/tmp/run', urls(4000)));
  });
});
