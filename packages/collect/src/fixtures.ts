/**
 * The request stream a sweep sends from files: a query file, optional variables (one object, or a
 * list cycled per request so gateways that share identical in-flight requests are measured fairly)
 * and an optional golden response (one, or one per variables entry).
 */
import { readFileSync } from 'node:fs';
import { GwprofError } from '@gwprof/results';
import { asGoldenData, asVariableSets, goldenFor, parseOperation, scenarioRequest, type Scenario } from './scenario.js';

export type { Scenario } from './scenario.js';

export function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new GwprofError(`${what} ${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}`);
  }
}

export function readJson(file: string, what: string): unknown {
  const text = readText(file, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new GwprofError(`${what} ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export function loadScenario(files: { query: string; variables?: string | null; expect?: string | null }): Scenario {
  const operation = parseOperation(readText(files.query, 'query file'), `query file ${files.query}`);

  let variableSets: Record<string, unknown>[] | null = null;
  if (files.variables) {
    variableSets = asVariableSets(readJson(files.variables, 'variables file'));
    if (!variableSets) throw new GwprofError(`variables file ${files.variables} must hold an object or a non-empty list of objects`);
  }

  let expected: unknown[] | null = null;
  if (files.expect) {
    expected = asGoldenData(readJson(files.expect, 'expected-response file'));
    if (!expected) throw new GwprofError(`expected-response file ${files.expect} must hold {"data": …} or a list of them`);
    const count = variableSets?.length ?? 1;
    if (expected.length !== 1 && expected.length !== count) {
      throw new GwprofError(
        `expected-response file ${files.expect} has ${expected.length} responses but the variables file has ${count} entries: give one, or one per entry`,
      );
    }
  }

  const requests = (variableSets ?? [null]).map((variables, i) => scenarioRequest(operation, variables, goldenFor(expected, i)));
  return { source: files.query, requests };
}
