/**
 * Where a run's requests come from: query files (the demo's, or `--query`), or a scenario file of
 * the user's own operations and subgraphs.
 */
import { GwprofError, type RequestSourceRecord } from '@gwprof/results';
import type { ScenarioFiles } from '../defaults.js';
import { loadScenario } from '../scenario/fixtures.js';
import { scenarioOfFile } from '../scenario/goldens.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ScenarioFileSpec } from '../scenario/scenario-file.js';
import type { OwnSubgraphs } from '../services/test-bed.js';

export type ScenarioSource = ScenarioFiles | ScenarioFileSpec;

export function isScenarioFile(source: ScenarioSource): source is ScenarioFileSpec {
  return 'kind' in source && source.kind === 'scenario-file';
}

/** The requests, each with its golden; refused when one has none, unless the source says none on purpose (--expect-none). */
export function loadRequests(source: ScenarioSource): Scenario {
  const scenario = isScenarioFile(source) ? scenarioOfFile(source, !source.expectNone) : loadScenario(source);
  if (!source.expectNone) assertGoldens(source, scenario);
  return scenario;
}

/** Every request must have a golden `data`: a run that compares only status and errors says so by --expect-none. */
function assertGoldens(source: ScenarioSource, scenario: Scenario): void {
  const missing = scenario.requests.find((r) => r.expected === null);
  if (!missing) return;
  if (isScenarioFile(source)) {
    throw new GwprofError(
      `operation ${missing.operationName ?? '(unnamed)'} of ${source.path} has no golden response: record them with gwprof goldens --scenario ${source.path}, give it expect:, or pass --expect-none to check only status, JSON and errors`,
    );
  }
  throw new GwprofError(
    `${source.query} has no golden response: give --expect FILE ({"data": …}, or one per variable set), or pass --expect-none to check only status, JSON and errors`,
  );
}

/** The same requests checked against other goldens: a comparison's candidate whose answers change on purpose. */
export function withGoldens(source: ScenarioSource, file: string): ScenarioSource {
  return isScenarioFile(source) ? { ...source, goldens: file } : { ...source, expect: file };
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
      expect: source.expectNone ? null : source.goldens,
      scenarioFile: source.path,
      ownSubgraphs: own.length > 0 ? own : null,
      proxiedSubgraphs: proxied.length > 0 ? proxied : null,
      expectNone: source.expectNone === true,
    };
  }
  const { query, variables, expect } = source;
  return { query, variables, expect, scenarioFile: null, ownSubgraphs: null, proxiedSubgraphs: null, expectNone: source.expectNone === true };
}

/**
 * The built-in gateways compose a supergraph of the demo's four subgraphs: a scenario file with
 * subgraphs of its own needs a gateway that knows them (`cmd:` or `url:`).
 */
export function checkGatewayForScenario(specs: readonly string[], source: ScenarioSource): void {
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

export function openRequests(source: ScenarioSource, gatewaySpecs: readonly string[]): OpenedRequests {
  checkGatewayForScenario(gatewaySpecs, source);
  return { scenario: loadRequests(source), recorded: recordedSource(source), ownSubgraphs: ownSubgraphsOf(source) };
}

/**
 * The requests as the candidate is checked: the same requests, against its own goldens when it
 * has them (a PR that changes answers on purpose), else against the baseline's.
 */
export function candidateRequests(source: ScenarioSource, baseline: Scenario, candidateGoldens: string | null): Scenario {
  if (candidateGoldens === null) return baseline;
  if (source.expectNone) throw new GwprofError('--candidate-goldens gives the candidate goldens, --expect-none gives none: drop one of them');
  const candidate = loadRequests(withGoldens(source, candidateGoldens));
  const same = candidate.requests.length === baseline.requests.length && candidate.requests.every((r, i) => r.body === baseline.requests[i]!.body);
  if (!same)
    throw new GwprofError(`--candidate-goldens ${candidateGoldens} answers other requests than the baseline's goldens: record both from the same scenario`);
  return candidate;
}
