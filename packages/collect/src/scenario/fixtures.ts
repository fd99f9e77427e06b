/**
 * The request stream a sweep sends from files: a query file, optional variables (one object, or a
 * list cycled per request so gateways that share identical in-flight requests are measured fairly)
 * and an optional golden response (one, or one per variables entry).
 */
import { readFileSync } from 'node:fs';
import { GwprofError } from '@gwprof/results';
import { scenarioOfQueryFiles, type QueryFiles, type Scenario } from './scenario.js';

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

/** The files read first, then made into requests in one go (scenario.ts checks what they hold). */
export function loadScenario(files: QueryFiles): Scenario {
  return scenarioOfQueryFiles(files, {
    query: readText(files.query, 'query file'),
    variables: files.variables ? readJson(files.variables, 'variables file') : null,
    expect: files.expect ? readJson(files.expect, 'expected-response file') : null,
  });
}
