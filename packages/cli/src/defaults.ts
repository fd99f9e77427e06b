/** Defaults and flag conversions shared by the commands that measure (sweep, compare). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SUBGRAPH_NAMES, fixturesDir, type SubgraphName } from '@gwprof/collect';

export const DEFAULT_QUERY = path.join(fixturesDir, 'test-query.graphql');
export const DEFAULT_EXPECT = path.join(fixturesDir, 'test-query.expected.json');

/**
 * compare's default request stream: a query whose variables change on every request, so that a
 * gateway's sharing of identical in-flight requests neither flatters it nor makes its work per
 * request (fan-out) swing from trial to trial.
 */
export const COMPARE_DEFAULT_SCENARIO = {
  query: path.join(fixturesDir, 'user-reviews.graphql'),
  variables: path.join(fixturesDir, 'user-reviews.variables.json'),
  expect: path.join(fixturesDir, 'user-reviews.expected.json'),
};

export class UsageError extends Error {}

/** The golden response to check against: the given file, or the default query's own golden. */
export function expectedResponseFile(queryFile: string, expect: string | undefined, none = false): string | null {
  if (none) return null;
  if (expect) return path.resolve(expect);
  return queryFile === DEFAULT_QUERY && existsSync(DEFAULT_EXPECT) ? DEFAULT_EXPECT : null;
}

export function subgraphPortsFrom(list: number[]): Record<SubgraphName, number> {
  if (list.length !== SUBGRAPH_NAMES.length) {
    throw new UsageError(`--subgraph-ports needs ${SUBGRAPH_NAMES.length} ports (${SUBGRAPH_NAMES.join(',')})`);
  }
  return Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, list[i]!])) as Record<SubgraphName, number>;
}
