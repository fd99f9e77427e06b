/**
 * The request a sweep sends: a query file, optional variables (one object, or a list cycled
 * per request so gateways that share identical in-flight requests are measured fairly) and an
 * optional golden response (one, or one per variables entry).
 */
import { readFileSync } from 'node:fs';
import { type DocumentNode, GraphQLError, Kind, parse } from 'graphql';
import { selectionOrderOf, type SelectionOrder } from './validate-response.js';
import { GwprofError } from '@gwprof/results';

export interface Scenario {
  queryFile: string;
  query: string;
  operationName: string | undefined;
  /** null: no variables; otherwise cycled round-robin, one entry per request. */
  variableSets: Record<string, unknown>[] | null;
  /** Golden `data` per variables entry (or a single one), or null to check only status and errors. */
  expected: unknown[] | null;
  order: SelectionOrder;
}

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new GwprofError(`${what} ${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}`);
  }
}

function readJson(file: string, what: string): unknown {
  const text = readText(file, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new GwprofError(`${what} ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

export function loadScenario(files: { query: string; variables?: string | null; expect?: string | null }): Scenario {
  const query = readText(files.query, 'query file');
  if (query.trim() === '') throw new GwprofError(`query file ${files.query} is empty`);
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message.split('\n')[0] : String(error);
    const location = error instanceof GraphQLError && error.locations?.[0] ? ` (line ${error.locations[0].line}, column ${error.locations[0].column})` : '';
    throw new GwprofError(`query file ${files.query} is not valid GraphQL: ${message}${location}`);
  }
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) {
    throw new GwprofError(`query file ${files.query} must hold exactly one operation (found ${operations.length})`);
  }
  const operationName = operations[0]!.name?.value;

  let variableSets: Record<string, unknown>[] | null = null;
  if (files.variables) {
    const raw = readJson(files.variables, 'variables file');
    const list = Array.isArray(raw) ? raw : [raw];
    if (list.length === 0 || !list.every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) {
      throw new GwprofError(`variables file ${files.variables} must hold an object or a non-empty list of objects`);
    }
    variableSets = list as Record<string, unknown>[];
  }

  let expected: unknown[] | null = null;
  if (files.expect) {
    const raw = readJson(files.expect, 'expected-response file');
    const list = Array.isArray(raw) ? raw : [raw];
    for (const entry of list) {
      if (entry === null || typeof entry !== 'object' || !('data' in entry)) {
        throw new GwprofError(`expected-response file ${files.expect} must hold {"data": …} or a list of them`);
      }
    }
    const count = variableSets?.length ?? 1;
    if (list.length !== 1 && list.length !== count) {
      throw new GwprofError(
        `expected-response file ${files.expect} has ${list.length} responses but the variables file has ${count} entries: give one, or one per entry`,
      );
    }
    expected = list.map((entry) => (entry as { data: unknown }).data);
  }

  return { queryFile: files.query, query, operationName, variableSets, expected, order: selectionOrderOf(document, operationName) };
}
