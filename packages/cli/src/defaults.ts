/** Flag values to options: what sweep and compare share. The defaults themselves live in collect's DEFAULTS. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { GwprofError } from '@gwprof/results';
import { SEED_QUERY, SUBGRAPH_NAMES, VARIED_QUERY, type ScenarioFiles, type SubgraphName } from '@gwprof/collect';

/**
 * The request stream: the given query, or `fallback` when none is given. A query gwprof ships
 * (the seed's TestQuery, user-reviews) brings its own variables and golden responses unless
 * --variables or --expect replace them; any other query has neither unless given, and then needs
 * --expect-none to say that only status, JSON and errors are checked (collect refuses it otherwise).
 */
export function scenarioFrom(flags: { query?: string; variables?: string; expect?: string; expectNone?: boolean }, fallback: ScenarioFiles): ScenarioFiles {
  const query = flags.query ? path.resolve(flags.query) : fallback.query;
  const shipped = [SEED_QUERY, VARIED_QUERY, fallback].find((s) => s.query === query) ?? { query, variables: null, expect: null };
  const shippedExpect = shipped.expect !== null && existsSync(shipped.expect) ? shipped.expect : null;
  if (flags.expectNone && flags.expect) throw new GwprofError('--expect gives goldens, --expect-none says there are none: drop one of them');
  if (flags.expectNone) return { query, variables: flags.variables ? path.resolve(flags.variables) : shipped.variables, expect: null, expectNone: true };
  return {
    query,
    variables: flags.variables ? path.resolve(flags.variables) : shipped.variables,
    // A golden belongs to its variables: other variables get no golden unless one is given.
    expect: flags.expect ? path.resolve(flags.expect) : flags.variables ? null : shippedExpect,
  };
}

export function subgraphPortsFrom(list: number[], flag = '--subgraph-ports'): Record<SubgraphName, number> {
  if (list.length !== SUBGRAPH_NAMES.length) {
    throw new GwprofError(`${flag} needs ${SUBGRAPH_NAMES.length} ports (${SUBGRAPH_NAMES.join(',')})`);
  }
  return Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, list[i]!])) as Record<SubgraphName, number>;
}
