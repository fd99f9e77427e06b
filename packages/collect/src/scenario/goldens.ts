/**
 * The golden responses of a scenario file, recorded once from a reference gateway
 * (`gwprof goldens`) and kept in a file that later runs validate against. Each response is keyed
 * by a hash of the request body it answers, so an edited operation or variable set is caught as
 * "not recorded" instead of being checked against another request's answer.
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { GwprofError } from '@gwprof/results';
import { readJson } from './fixtures.js';
import { goldenFor, parseOperation, scenarioRequest, type Scenario, type ScenarioRequest } from './scenario.js';
import type { ScenarioFileSpec } from './scenario-file.js';

export interface GoldenResponse {
  operationName: string | null;
  variables: Record<string, unknown> | null;
  /** sha256 of the request body, first 16 hex digits. */
  request: string;
  data: unknown;
}

export interface GoldensFile {
  gwprof: 'goldens';
  scenario: string;
  /** The gateway that answered, as given to `gwprof goldens --reference`. */
  recordedFrom: string;
  recordedAt: string;
  responses: GoldenResponse[];
}

export function requestKey(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 16);
}

/**
 * The requests of a scenario file: every operation with each of its variable sets, interleaved
 * (first set of each operation, then the second…), so the stream mixes operations. A request's
 * golden is the one given in the file (`expect`), else the recorded one; `withGoldens` false gives
 * them none (for recording).
 */
export function scenarioOfFile(spec: ScenarioFileSpec, withGoldens = true): Scenario {
  const perOperation = spec.operations.map((op) => {
    const parsed = parseOperation(op.query, op.where, op.operationName);
    const given = (i: number) => (withGoldens ? goldenFor(op.expected, i) : null);
    return (op.variables ?? [null]).map((variables, i) => ({
      request: scenarioRequest(parsed, variables, given(i)),
      given: withGoldens && op.expected !== null,
    }));
  });
  const entries: { request: ScenarioRequest; given: boolean }[] = [];
  const rounds = Math.max(...perOperation.map((r) => r.length));
  for (let round = 0; round < rounds; round++) for (const ops of perOperation) if (round < ops.length) entries.push(ops[round]!);
  const recorded = withGoldens && spec.goldens !== null && entries.some((e) => !e.given) ? readGoldens(spec) : null;
  const requests = entries.map(({ request, given }) => {
    if (given || !recorded) return request;
    const golden = recorded.get(requestKey(request.body));
    if (!golden) {
      throw new GwprofError(
        `goldens file ${spec.goldens} has no response for operation ${request.operationName ?? '(unnamed)'} with variables ${JSON.stringify(request.variables ?? {})}: record them again with gwprof goldens --scenario ${spec.path}`,
      );
    }
    return { ...request, expected: golden.data };
  });
  return { source: spec.path, requests };
}

function readGoldens(spec: ScenarioFileSpec): Map<string, GoldenResponse> {
  const file = spec.goldens!;
  if (!existsSync(file)) {
    throw new GwprofError(`goldens file ${file} does not exist: record it with gwprof goldens --scenario ${spec.path} --reference <gateway>`);
  }
  const raw = readJson(file, 'goldens file') as Partial<GoldensFile>;
  if (raw?.gwprof !== 'goldens' || !Array.isArray(raw.responses)) {
    throw new GwprofError(`goldens file ${file} is not one gwprof goldens wrote: record it with gwprof goldens --scenario ${spec.path}`);
  }
  return new Map(raw.responses.map((r) => [r.request, r]));
}

export function writeGoldens(file: string, goldens: GoldensFile): void {
  writeFileSync(file, `${JSON.stringify(goldens, null, 2)}\n`);
}
