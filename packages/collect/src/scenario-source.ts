/**
 * Where a run's requests come from: query files (the demo's, or `--query`), or a scenario file of
 * the user's own operations and subgraphs.
 */
import { GwprofError, type RequestSourceRecord } from '@gwprof/results';
import type { ScenarioFiles } from './defaults.js';
import { loadScenario } from './fixtures.js';
import { scenarioOfFile } from './goldens.js';
import type { Scenario } from './scenario.js';
import type { ScenarioFileSpec } from './scenario-file.js';
import type { OwnSubgraphs } from './test-bed.js';

export type ScenarioSource = ScenarioFiles | ScenarioFileSpec;

export function isScenarioFile(source: ScenarioSource): source is ScenarioFileSpec {
  return 'kind' in source && source.kind === 'scenario-file';
}

export function loadRequests(source: ScenarioSource): Scenario {
  return isScenarioFile(source) ? scenarioOfFile(source) : loadScenario(source);
}

/** The subgraphs to start instead of the demo's; null: the demo's. */
export function ownSubgraphsOf(source: ScenarioSource): OwnSubgraphs | null {
  return isScenarioFile(source) && source.subgraphs.length > 0 ? { subgraphs: source.subgraphs, dir: source.dir } : null;
}

/** What the records keep of it: the query files, or the scenario file and its own subgraphs. */
export function recordedSource(source: ScenarioSource): RequestSourceRecord {
  if (isScenarioFile(source)) {
    const own = source.subgraphs.map((s) => s.name);
    const proxied = source.subgraphs.filter((s) => s.proxy).map((s) => s.name);
    return {
      query: null,
      variables: null,
      expect: source.goldens,
      scenarioFile: source.path,
      ownSubgraphs: own.length > 0 ? own : null,
      proxiedSubgraphs: proxied.length > 0 ? proxied : null,
    };
  }
  return { query: source.query, variables: source.variables, expect: source.expect, scenarioFile: null, ownSubgraphs: null, proxiedSubgraphs: null };
}

/**
 * The built-in gateways compose a supergraph of the demo's four subgraphs: a scenario file with
 * subgraphs of its own needs a gateway that knows them (`cmd:` or `url:`).
 */
export function checkGatewayForScenario(specs: string[], source: ScenarioSource): void {
  if (!isScenarioFile(source) || source.subgraphs.length === 0) return;
  for (const spec of specs) {
    if (!spec.startsWith('cmd:') && !spec.startsWith('url:')) {
      throw new GwprofError(
        `gateway ${spec} serves gwprof's demo subgraphs, not the subgraphs of ${source.path}: measure your gateway with cmd:<command> or url:<url> (or give it as gateway: in the scenario file)`,
      );
    }
  }
}

/** A run's requests opened once: checked against the gateways it will be sent to, loaded, and what the record and the test bed need of them. */
export interface OpenedRequests {
  scenario: Scenario;
  recorded: RequestSourceRecord;
  ownSubgraphs: OwnSubgraphs | null;
}

export function openRequests(source: ScenarioSource, gatewaySpecs: string[]): OpenedRequests {
  checkGatewayForScenario(gatewaySpecs, source);
  return { scenario: loadRequests(source), recorded: recordedSource(source), ownSubgraphs: ownSubgraphsOf(source) };
}
