/**
 * `gwprof export k6`: the scenario as a self-contained k6 test. The script validates every
 * response as gwprof does (2xx, a JSON body with `data`, no `errors`, `data` equal to the golden of
 * its variables, key order ignored), counts ok and failed responses in metrics of their own, and
 * takes request i of the stream on the test's i-th iteration, so split across load generators
 * (`--execution-segment`, k6-operator) no request is sent twice.
 */
import type { LoadShape } from '@gwprof/results';
import type { Scenario } from '../scenario/scenario.js';
import { REQUEST_HEADERS } from '../load/exchange.js';

export interface K6ExportOptions {
  url: string;
  load: LoadShape;
  durationSec: number;
  timeoutSec: number;
  /** The data file's name, next to the script (it is read with k6's open(), relative to the script). */
  dataFile: string;
  /** What the script says it was made from (scenario name, query file). */
  source: string;
}

/** Requests and goldens, loaded once by the script into a SharedArray. */
export function k6Data(scenario: Scenario): string {
  return JSON.stringify({ requests: scenario.requests.map((request) => ({ body: request.body, expected: request.expected ?? null })) });
}

/** The load tag every sample carries, which `gwprof import k6` reads back. */
export function k6LoadTag(load: LoadShape): string {
  return load.kind === 'closed' ? `closed:${load.concurrency}` : `open:${load.targetRps}:${load.maxInFlight}`;
}

function scenarioOptions(load: LoadShape, durationSec: number): Record<string, unknown> {
  const duration = `${durationSec}s`;
  if (load.kind === 'closed') return { executor: 'constant-vus', vus: load.concurrency, duration };
  // At most maxInFlight requests outstanding: an arrival with every VU busy is a dropped iteration, as gwprof drops a send beyond its cap.
  const preAllocatedVUs = Math.min(load.maxInFlight, Math.max(10, Math.ceil(load.targetRps / 2)));
  return { executor: 'constant-arrival-rate', rate: load.targetRps, timeUnit: '1s', duration, preAllocatedVUs, maxVUs: load.maxInFlight };
}

/** gwprof's response check, in the JavaScript k6 runs (kept equal to validate-response.ts by a test). */
const VERDICT_SOURCE = `
function firstDifference(actual, expected, path) {
  if (actual === expected) return null;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return path + ': expected a list';
    if (actual.length !== expected.length) return path + ': expected ' + expected.length + ' items, got ' + actual.length;
    for (let i = 0; i < expected.length; i++) {
      const difference = firstDifference(actual[i], expected[i], path + '[' + i + ']');
      if (difference) return difference;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return path + ': expected an object';
    for (const key of Object.keys(expected)) {
      if (!(key in actual)) return path + '.' + key + ': missing';
      const difference = firstDifference(actual[key], expected[key], path + '.' + key);
      if (difference) return difference;
    }
    const extra = Object.keys(actual).find((key) => !(key in expected));
    return extra ? path + '.' + extra + ': unexpected field' : null;
  }
  return path + ': expected ' + JSON.stringify(expected);
}

export function gwprofVerdict(status, body, expected) {
  if (status < 200 || status > 299) return { ok: false, kind: 'non2xx', message: 'HTTP ' + status };
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    return { ok: false, kind: 'badBody', message: 'body is not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object') return { ok: false, kind: 'badBody', message: 'body is not a GraphQL response' };
  if (Array.isArray(parsed.errors) && parsed.errors.length > 0) return { ok: false, kind: 'graphqlErrors', message: String(parsed.errors[0] && parsed.errors[0].message) };
  if (parsed.errors !== undefined && !Array.isArray(parsed.errors)) return { ok: false, kind: 'graphqlErrors', message: 'malformed errors' };
  if (parsed.data === null || typeof parsed.data !== 'object') return { ok: false, kind: 'badBody', message: 'no data in the response' };
  if (expected !== null && expected !== undefined) {
    const difference = firstDifference(parsed.data, expected, 'data');
    if (difference) return { ok: false, kind: 'mismatch', message: difference };
  }
  return { ok: true };
}
`;

export function k6Script(options: K6ExportOptions): string {
  const k6Options = {
    discardResponseBodies: false,
    summaryTrendStats: ['avg', 'med', 'p(90)', 'p(99)', 'max'],
    tags: { gwprof_load: k6LoadTag(options.load) },
    scenarios: { gwprof: scenarioOptions(options.load, options.durationSec) },
  };
  return `// A gwprof scenario as a k6 test: ${options.source}, ${k6LoadTag(options.load)}, ${options.durationSec} s.
// Made by \`gwprof export k6\`. Run it with \`k6 run ${'<this file>'}\`, split it with --execution-segment, or
// under k6-operator; GWPROF_URL overrides the gateway's URL. Only validated responses count:
// gwprof_ok and gwprof_ok_duration are the successes and their latency, gwprof_failed the rest (tag kind).
// Read the samples back with \`k6 run --out json=FILE\` and \`gwprof import k6 FILE…\`.
import http from 'k6/http';
import exec from 'k6/execution';
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import { Counter, Trend } from 'k6/metrics';

const url = __ENV.GWPROF_URL || ${JSON.stringify(options.url)};
const requests = new SharedArray('gwprof requests', () => JSON.parse(open(${JSON.stringify(`./${options.dataFile}`)})).requests);
const okCount = new Counter('gwprof_ok');
const okDuration = new Trend('gwprof_ok_duration', true);
const failed = new Counter('gwprof_failed');

export const options = ${JSON.stringify(k6Options, null, 2)};
${VERDICT_SOURCE}
/** k6's error codes for a request that got no response: 1050 is its timeout. */
function transportFailure(response) {
  return response.error_code === 1050 ? 'timeouts' : 'socketErrors';
}

export default function () {
  // The test-wide iteration number is unique across load generators: request i is sent once.
  const request = requests[exec.scenario.iterationInTest % requests.length];
  const response = http.post(url, request.body, { headers: ${JSON.stringify(REQUEST_HEADERS)}, timeout: ${JSON.stringify(`${options.timeoutSec}s`)}, tags: { name: 'gwprof' } });
  const verdict = response.status === 0 ? { ok: false, kind: transportFailure(response), message: String(response.error) } : gwprofVerdict(response.status, response.body, request.expected);
  check(verdict, { 'gwprof: validated response': (v) => v.ok });
  if (verdict.ok) {
    okCount.add(1);
    okDuration.add(response.timings.duration);
  } else {
    failed.add(1, { kind: verdict.kind });
  }
}
`;
}
