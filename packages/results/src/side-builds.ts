/**
 * Each side's native build in a comparison's record: compare.json keeps them in
 * `environment.gatewayBuilds` under `side:spec` (`baseline:grafbase`), as a sweep keeps its one
 * build under its spec. The key is made here and only here; readers ask by side.
 */
import type { CompareConfig } from './compare-types.js';
import type { GatewayBuild, RunEnvironment } from './record-types.js';

export type CompareSide = 'baseline' | 'candidate';

/** The native build of each side that has one; a Node side has none. */
export type SideBuilds = Partial<Record<CompareSide, GatewayBuild>>;

/** Where a side's build is kept in the record's `environment.gatewayBuilds`. */
export function sideBuildKey(side: CompareSide, spec: string): string {
  return `${side}:${spec}`;
}

/** Each side's build, as the comparison recorded it. */
export function buildsBySide(compare: { config: Pick<CompareConfig, CompareSide>; environment: Pick<RunEnvironment, 'gatewayBuilds'> | null }): SideBuilds {
  const builds: SideBuilds = {};
  for (const side of ['baseline', 'candidate'] as const) {
    const build = compare.environment?.gatewayBuilds?.[sideBuildKey(side, compare.config[side])];
    if (build) builds[side] = build;
  }
  return builds;
}
