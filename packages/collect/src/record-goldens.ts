/**
 * `gwprof goldens`: the scenario file's requests sent once each, one at a time, to a reference
 * gateway the user names (with the scenario's subgraphs running), and every answer kept as the
 * golden later runs validate against. An answer that is not a clean GraphQL success is refused:
 * a golden that holds an error would make every later error look right.
 */
import { GwprofError } from '@gwprof/results';
import { gatewayFromSpec, installGateway } from './gateways/index.js';
import { gatewayUrlOf, isUrlSpec } from './gateway-under-test.js';
import { requestKey, scenarioOfFile, writeGoldens, type GoldenResponse, type GoldensFile } from './scenario/goldens.js';
import { REQUEST_HEADERS } from './load/exchange.js';
import type { ScenarioFileSpec } from './scenario/scenario-file.js';
import { checkGatewayForScenario, ownSubgraphsOf } from './run/scenario-source.js';
import { openSession } from './run/session.js';
import type { ServiceOptions } from './services/test-bed.js';
import { validateResponse } from './scenario/validate-response.js';

export interface GoldensOptions extends ServiceOptions {
  scenario: ScenarioFileSpec;
  /** The gateway whose answers become the goldens: mesh, hive, apollo, cmd:… or url:… */
  reference: string;
  gatewayEnv: Record<string, string>;
  /** Where a cmd: gateway runs: the user's folder unless given (a scenario file's own gateway runs from the file's folder). */
  gatewayCwd?: string;
  /** Where to write them: the scenario's `goldens` unless given. */
  outFile: string;
  outDir: string;
  runId?: string;
  timeoutSec: number;
  commandLine: string[];
  signal: AbortSignal;
  onProgress: (line: string, final: boolean) => void;
}

export async function recordGoldens(options: GoldensOptions): Promise<{ file: string; responses: number; runDir: string }> {
  checkGatewayForScenario([options.reference], options.scenario);
  const scenario = scenarioOfFile(options.scenario, false);
  const attached = isUrlSpec(options.reference);
  if (!attached) await installGateway(options.reference, options.onProgress);
  const adapter = attached ? null : gatewayFromSpec(options.reference, options.gatewayCwd);
  const ownSubgraphs = ownSubgraphsOf(options.scenario);
  const session = openSession({
    ...options,
    label: 'goldens',
    maxConcurrency: 1,
    attached,
    gatewayPackages: adapter?.packageVersions() ?? {},
    profiler: 'none',
    ownSubgraphs,
  });
  try {
    const bed = !attached || ownSubgraphs ? await session.startBed() : null;
    const url = adapter
      ? (await bed!.launchGateway({ adapter, gatewayEnv: options.gatewayEnv, processName: 'reference' })).gateway.url
      : gatewayUrlOf(options.reference);
    const responses: GoldenResponse[] = [];
    for (const [i, request] of scenario.requests.entries()) {
      if (options.signal.aborted) throw new GwprofError('interrupted: no goldens written');
      options.onProgress(`recording ${i + 1}/${scenario.requests.length}: ${request.operationName ?? '(unnamed)'}`, false);
      const response = await fetch(url, {
        method: 'POST',
        headers: REQUEST_HEADERS,
        body: request.body,
        signal: AbortSignal.timeout(options.timeoutSec * 1000),
      });
      const text = await response.text();
      const verdict = validateResponse(response.status, text, { order: null, expected: null });
      if (!verdict.ok) {
        throw new GwprofError(
          `the reference ${options.reference} did not answer ${request.operationName ?? 'the operation'} with variables ${JSON.stringify(request.variables ?? {})} cleanly (${verdict.message}): no goldens written`,
        );
      }
      const data = (JSON.parse(text) as { data: unknown }).data;
      responses.push({ operationName: request.operationName ?? null, variables: request.variables, request: requestKey(request.body), data });
    }
    const goldens: GoldensFile = {
      gwprof: 'goldens',
      scenario: options.scenario.name,
      recordedFrom: options.reference,
      recordedAt: new Date().toISOString(),
      responses,
    };
    writeGoldens(options.outFile, goldens);
    options.onProgress(`recorded ${responses.length} golden responses from ${options.reference}`, true);
    return { file: options.outFile, responses: responses.length, runDir: session.runDir };
  } finally {
    await session.close();
  }
}
